"""Draw a batch of task specs from the procedural families.

Apps take turns (so a small batch already spans every app), families take turns within an app, and
each draw gets its own seed derived from the run seed, so the same parameters always give the same
batch. A wording template (family × style) is used at most `TEMPLATE_CAP` times per app per batch.
"""

from __future__ import annotations

import hashlib
import itertools
import logging
import random
from collections import Counter

from infra.errors import ConfigError
from tasks.families import Family
from tasks.models import TaskSpec, Wording

log = logging.getLogger(__name__)

TEMPLATE_CAP = 3  # per wording template, per app, per batch (paper A.2.3)


def _draw_seed(run_seed: int, family_id: str, k: int) -> int:
    digest = hashlib.sha256(f"{run_seed}:{family_id}:{k}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def select_families(families: dict[str, Family], apps: list[str]) -> dict[str, Family]:
    """Families whose apps are all within `apps` (all families when `apps` is empty)."""
    if not apps:
        return dict(families)
    known = {app for f in families.values() for app in f.apps}
    unknown = sorted(set(apps) - known)
    if unknown:
        raise ConfigError(f"unknown app(s) {unknown}", hint=f"known apps: {', '.join(sorted(known))}")
    chosen = {fid: f for fid, f in families.items() if set(f.apps) <= set(apps)}
    if not chosen:
        raise ConfigError(f"no family covers only {apps}", hint="add apps or write a family for them")
    return chosen


def sample_specs(families: dict[str, Family], *, count: int, seed: int, apps: list[str] | None = None) -> list[TaskSpec]:
    """`count` distinct specs; fewer only if the catalogue cannot supply that many under the cap."""
    pool = select_families(families, apps or [])
    rng = random.Random(seed)
    by_app: dict[str, list[Family]] = {}
    for family in sorted(pool.values(), key=lambda f: f.id):
        by_app.setdefault(family.apps[0], []).append(family)
    app_order = sorted(by_app)
    rng.shuffle(app_order)
    cycles = {app: itertools.cycle(rng.sample(fams, len(fams))) for app, fams in by_app.items()}
    template_uses: Counter[tuple[str, str]] = Counter()
    draws: Counter[str] = Counter()
    specs: list[TaskSpec] = []
    seen: set[str] = set()
    capacity = sum(len(Wording) * TEMPLATE_CAP for _ in pool)
    misses = 0
    for app in itertools.cycle(app_order):
        if len(specs) >= count or misses > 4 * capacity:
            break
        family = next(cycles[app])
        wordings = [w for w in Wording if template_uses[(app, f"{family.id}:{w.value}")] < TEMPLATE_CAP]
        if not wordings:
            misses += 1
            continue
        draws[family.id] += 1
        spec = family.instantiate(_draw_seed(seed, family.id, draws[family.id]), wording=rng.choice(wordings))
        if spec.id in seen:
            misses += 1
            continue
        seen.add(spec.id)
        template_uses[(app, spec.template)] += 1
        specs.append(spec)
    if len(specs) < count:
        log.warning("catalogue supplies only %d of %d specs under the %d-per-template cap",
                    len(specs), count, TEMPLATE_CAP)  # fmt: skip
    return specs
