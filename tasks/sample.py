"""Draw a batch of task specs that fills coverage quotas (paper appendix A.2).

Three passes over one batch:
- breadth: one instance of every family (so every leaf it exercises is reached), least-covered first;
- gap_fill: cells (app, domain, difficulty, leaf) weighted by inverse frequency of what the
  warehouse already holds plus what this batch has drawn;
- edge: the last fifth upweights hard, cross-app and rare cells.
Hard constraints hold on every draw: the ≤ `template_cap` per wording template per app, the app and
domain caps, and the minimum hard / cross-app / per-app counts (a draw that would make a minimum
unreachable with the slots left is excluded). Quotas the catalogue cannot meet are relaxed and named
before sampling (tasks/quotas.py). Near-duplicate instructions are rejected (tasks/dedupe.py).
"""

from __future__ import annotations

import hashlib
import logging
import math
import random
from collections import Counter
from dataclasses import dataclass, field

from infra.errors import ConfigError
from skills.kit import Family
from tasks.dedupe import NearDuplicateFilter
from tasks.models import Difficulty, Domain, TaskSpec, Wording
from tasks.quotas import QuotaPlan, Quotas, ScenarioMatrix, plan_quotas

log = logging.getLogger(__name__)

EDGE_SHARE = 0.2
BREADTH_MAX_SHARE = 0.5
DUPLICATE_RETRIES = 4


@dataclass(frozen=True)
class Candidate:
    family: Family
    wording: Wording
    domain: Domain

    @property
    def template(self) -> str:
        return f"{self.family.id}:{self.wording.value}"

    @property
    def hard(self) -> bool:
        return self.family.difficulty is Difficulty.HARD

    @property
    def cross(self) -> bool:
        return len(self.family.apps) > 1


@dataclass
class Tally:
    """Counts per coverage cell; `history` comes from the warehouse, the rest from this batch."""

    app: Counter = field(default_factory=Counter)
    domain: Counter = field(default_factory=Counter)
    difficulty: Counter = field(default_factory=Counter)
    leaf: Counter = field(default_factory=Counter)
    family: Counter = field(default_factory=Counter)
    template: Counter = field(default_factory=Counter)  # (primary app, template)
    hard: int = 0
    cross: int = 0

    def add(self, spec: TaskSpec) -> None:
        for app in spec.apps:
            self.app[app] += 1
        self.domain[spec.domain.value] += 1
        self.difficulty[spec.difficulty.value] += 1
        self.leaf[spec.taxonomy_leaf] += 1
        self.family[spec.family] += 1
        self.template[(spec.apps[0], spec.template)] += 1
        self.hard += spec.difficulty is Difficulty.HARD
        self.cross += len(spec.apps) > 1


@dataclass
class SampleResult:
    specs: list[TaskSpec]
    plan: QuotaPlan
    duplicates: int
    passes: Counter


def _draw_seed(run_seed: int, family_id: str, k: int) -> int:
    digest = hashlib.sha256(f"{run_seed}:{family_id}:{k}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def select_families(
    families: dict[str, Family], apps: list[str], only: list[str] | None = None
) -> dict[str, Family]:
    """Families whose apps are all within `apps` (all families when `apps` is empty), and among
    them only the ids in `only` when it is given."""
    if only:
        if unknown := sorted(set(only) - set(families)):
            raise ConfigError(
                f"unknown family id(s) {unknown}",
                hint=f"family ids are <app>.<name>, e.g. {', '.join(sorted(families)[:4])}",
            )
        families = {fid: f for fid, f in families.items() if fid in only}
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


class Sampler:
    def __init__(
        self,
        families: dict[str, Family],
        plan: QuotaPlan,
        matrix: ScenarioMatrix,
        history: Tally,
        dedupe: NearDuplicateFilter,
        seed: int,
    ) -> None:
        self.families = families
        self.plan = plan
        self.matrix = matrix
        self.history = history
        self.dedupe = dedupe
        self.seed = seed
        self.rng = random.Random(seed)
        self.batch = Tally()
        self.specs: list[TaskSpec] = []
        self.seen: set[str] = set()
        self.duplicates = 0
        self.passes: Counter = Counter()
        self.relaxed = 0  # draws where no candidate kept every minimum reachable
        self.apps = sorted({a for f in families.values() for a in f.apps})
        self.candidates = [
            Candidate(f, w, d)
            for f in sorted(families.values(), key=lambda f: f.id)
            for w in Wording
            for d in f.domains
        ]

    # --- constraints ------------------------------------------------------------------------------

    def _reserved_for_cross(self) -> Counter:
        """Slots each app must keep free for the cross-app specs still owed, in proportion to how much
        of the remaining cross-app capacity involves it (else single-app draws fill the app first)."""
        owed = self.plan.min_cross - self.batch.cross
        if owed <= 0:
            return Counter()
        cap = self.plan.quotas.template_cap
        room: Counter = Counter()
        for c in {(c.family, c.wording): c for c in self.candidates if c.cross}.values():
            free = cap - self.batch.template[(c.family.apps[0], c.template)]
            for app in c.family.apps:
                room[app] += max(free, 0)
        total = sum(room.values()) / 2  # each cross-app spec is counted for (at least) two apps
        if not total:
            return Counter()
        reserved = Counter({app: math.ceil(owed * n / total) for app, n in room.items()})
        # Apps every cross-app spec must go through (a few apps — files, writer — cover every cross-app
        # family): their slots are the cross-app quota's bottleneck, so they keep all it still needs.
        for app in self._cross_cover():
            reserved[app] = max(reserved[app], min(owed, self.plan.max_per_app - self.batch.app[app]))
        return reserved

    def _cross_cover(self) -> list[str]:
        """A small set of apps that every cross-app family involves (greedy set cover)."""
        left = [set(f.apps) for f in self.families.values() if len(f.apps) > 1]
        cover: list[str] = []
        while left:
            app = max(
                sorted({a for apps in left for a in apps}), key=lambda a: sum(a in apps for apps in left)
            )
            cover.append(app)
            left = [apps for apps in left if app not in apps]
        return cover

    def _allowed(self, c: Candidate, *, forcing: bool, reserved: Counter) -> bool:
        b, p = self.batch, self.plan
        if b.template[(c.family.apps[0], c.template)] >= p.quotas.template_cap:
            return False
        keep_free = Counter() if c.cross else reserved
        if any(b.app[a] + 1 + keep_free[a] > p.max_per_app for a in c.family.apps):
            return False
        if b.domain[c.domain.value] + 1 > p.max_per_domain:
            return False
        if not forcing:
            return True
        left = p.count - len(self.specs) - 1  # slots after this draw
        if not c.hard and p.min_hard - b.hard > left:
            return False
        if not c.cross and p.min_cross - b.cross > left:
            return False
        short = [a for a in self.apps if b.app[a] < p.quotas.min_per_app]
        return not (short and len(short) > left and not set(short) & set(c.family.apps))

    # --- weights -----------------------------------------------------------------------------------

    def _rarity(self, c: Candidate, leaf: str) -> float:
        cells = [
            (self.history.domain, self.batch.domain, c.domain.value),
            (self.history.difficulty, self.batch.difficulty, c.family.difficulty.value),
            (self.history.leaf, self.batch.leaf, leaf),
        ]
        cells += [(self.history.app, self.batch.app, a) for a in c.family.apps]
        # History is rescaled to the batch size so a large warehouse steers without drowning the batch.
        inv = [
            1.0 / (1.0 + hist[key] * self.plan.count / max(sum(hist.values()), 1) + batch[key])
            for hist, batch, key in cells
        ]
        return math.prod(inv) ** (1.0 / len(inv))

    def _weight(self, c: Candidate, stage: str) -> float:
        w = self._rarity(c, self._leaf(c.family))
        left = max(self.plan.count - len(self.specs), 1)
        if c.hard and self.plan.min_hard > self.batch.hard:
            w *= 1.0 + 10.0 * (self.plan.min_hard - self.batch.hard) / left
        if c.cross and self.plan.min_cross > self.batch.cross:
            w *= 1.0 + 10.0 * (self.plan.min_cross - self.batch.cross) / left
        if stage == "edge":
            w *= (3.0 if c.hard else 1.0) * (3.0 if c.cross else 1.0) * self._rarity(c, self._leaf(c.family))
        # Spread candidates of one family over its domains×wordings instead of multiplying its odds.
        return w / (len(c.family.domains) * len(Wording))

    def _leaf(self, family: Family) -> str:
        return min(family.leaves, key=lambda leaf: (self.history.leaf[leaf] + self.batch.leaf[leaf], leaf))

    # --- drawing ----------------------------------------------------------------------------------

    def _stage(self) -> str:
        breadth = min(len(self.families), math.ceil(BREADTH_MAX_SHARE * self.plan.count))
        if len(self.specs) < breadth:
            return "breadth"
        if len(self.specs) >= self.plan.count - math.ceil(EDGE_SHARE * self.plan.count):
            return "edge"
        return "gap_fill"

    def _pool(self, stage: str) -> list[Candidate]:
        reserved = self._reserved_for_cross()
        for forcing, reserve in ((True, reserved), (False, reserved), (False, Counter())):
            pool = [c for c in self.candidates if self._allowed(c, forcing=forcing, reserved=reserve)]
            if stage == "breadth":
                fresh = [c for c in pool if self.batch.family[c.family.id] == 0]
                pool = fresh or pool
            if pool:
                self.relaxed += not forcing
                return pool
        return []

    def draw_one(self) -> bool:
        stage = self._stage()
        pool = self._pool(stage)
        while pool:
            weights = [self._weight(c, stage) for c in pool]
            choice = self.rng.choices(pool, weights=weights)[0]
            spec = self._instantiate(choice, stage)
            if spec is not None:
                self.specs.append(spec)
                self.seen.add(spec.id)
                self.batch.add(spec)
                self.dedupe.add([spec.instruction])
                self.passes[stage] += 1
                return True
            pool = [c for c in pool if c.family is not choice.family or c.wording is not choice.wording]
        return False

    def _instantiate(self, c: Candidate, stage: str) -> TaskSpec | None:
        personas = self.matrix.domains[c.domain].personas
        for _ in range(DUPLICATE_RETRIES):
            k = self.batch.family[c.family.id] + self.duplicates + len(self.specs) + 1
            spec = c.family.instantiate(
                _draw_seed(self.seed, c.family.id, k),
                wording=c.wording,
                domain=c.domain,
                personas=personas,
                leaf=self._leaf(c.family),
                sampling_pass=stage,
            )
            duplicate = None if spec.id not in self.seen else "same id"
            if duplicate is None:
                found = self.dedupe.check(spec.instruction)
                duplicate = found.reason if found else None
            if duplicate is None:
                return spec
            self.duplicates += 1
            log.debug("near-duplicate rejected (%s): %s", duplicate, spec.instruction[:80])
        return None


def sample_specs(
    families: dict[str, Family],
    *,
    count: int,
    seed: int,
    quotas: Quotas,
    matrix: ScenarioMatrix,
    dedupe: NearDuplicateFilter,
    apps: list[str] | None = None,
    only: list[str] | None = None,
    history: Tally | None = None,
) -> SampleResult:
    """A batch of up to `count` specs under the quotas (from the families of `apps`, and of those
    only the ids in `only` when given); fewer only if the catalogue runs out."""
    pool = select_families(families, apps or [], only)
    plan = plan_quotas(pool, count, quotas)
    sampler = Sampler(pool, plan, matrix, history or Tally(), dedupe, seed)
    while len(sampler.specs) < plan.count and sampler.draw_one():
        pass
    if sampler.relaxed:
        log.warning(
            "%d draw(s) could not keep every minimum reachable; the batch falls short of a minimum",
            sampler.relaxed,
        )
    if len(sampler.specs) < count:
        log.warning("sampled %d of %d specs: the catalogue ran out under the caps", len(sampler.specs), count)
    return SampleResult(sampler.specs, plan, sampler.duplicates, sampler.passes)
