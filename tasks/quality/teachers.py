"""GUI teachers under the quality flow, and the few the unit suite keeps.

`teach_instance` is one scripted-teacher episode the way the rollout flow plays one: a real exported
bundle, a fresh desktop set up from its config.json, the family's `demonstrate` driving the real app,
the bundle's reward.py grading what the app wrote. Passing means reward exactly 1.0, a success
terminate and no failed call.

`smoke_teachers` picks the families the unit suite still runs a teacher for: one per app (and so
per teacher kind: an office app's own window, a web app in the browser, a terminal), derived from the
catalogue so a new app gains its smoke test by having a taught family."""

from __future__ import annotations

import inspect
import tempfile
import time
from pathlib import Path

from infra import apps
from infra.apps import osworld_name
from infra.envs.base import EnvRole
from infra.envs.desktop import DesktopProvider
from infra.envs.desktop.setup import task_terminal
from infra.envs.local import WEB_APPS
from infra.hub.engine import DEFINITION, app_folder
from skills.kit import Family
from tasks.export import write_bundle
from tasks.rollout.runner import run_episode
from tasks.rollout.scripted import ScriptedPolicy

SETUP_TIMEOUT_S = 240.0  # LibreOffice's first start on a busy 2-core machine


def teacher_kind(app: str) -> str:
    """How a teacher works `app`: in the browser (web apps; "engine" for those the app engine draws,
    whose teachers share one vocabulary), from a terminal (files), in a program the task launches
    (Chromium, Thunderbird, …), or in the window of the documents it opens (the office apps, GIMP, VLC)."""
    if app in WEB_APPS:
        return "engine" if (app_folder(app) / DEFINITION).is_file() else "browser"
    if apps.program(app) is not None:
        return "program"
    return "terminal" if task_terminal([osworld_name(app)]) else "office"


def smoke_teachers(families: dict[str, Family]) -> dict[str, str]:
    """{app: family id}: per app, its cheapest taught family — single-app before cross-app, then the
    shortest `demonstrate` (its source lines stand for the steps it demonstrates), then the id."""
    picked: dict[str, tuple] = {}
    for family in families.values():
        if family.teacher is None:
            continue
        app = family.apps[0]
        cost = (len(family.apps), len(inspect.getsource(family.teacher).splitlines()), family.id)
        if app not in picked or cost < picked[app]:
            picked[app] = cost
    return {app: cost[-1] for app, cost in sorted(picked.items())}


def bundle_for(family: Family, seed: int, out: Path, *, review: str = "# quality flow bundle\n") -> Path:
    """A real exported bundle of the instance (what a rollout of a synthesised tuple starts from);
    the tests and benches export theirs through this too."""
    spec = family.instantiate(seed)
    return write_bundle(
        out,
        spec,
        initial_setup_py=family.script("initial_setup", spec),
        golden_patch_py=family.script("golden_patch", spec),
        reward_py=family.script("reward", spec),
        review_md=review,
        provenance={"backend": "procedural"},
    )


def teach_instance(family: Family, seed: int, provider: DesktopProvider) -> tuple[bool, str | None, float]:
    """(passed, why not, seconds) of one teacher episode on `family` at `seed`."""
    started = time.monotonic()
    spec = family.instantiate(seed)
    with tempfile.TemporaryDirectory(prefix="quality-bundle-") as scratch:
        bundle = bundle_for(family, seed, Path(scratch))
        desktop = provider.provision(spec.id, EnvRole.ROLLOUT, apps=spec.apps)
        try:
            desktop.setup_from_config(bundle / "config.json", timeout_s=SETUP_TIMEOUT_S)
            trajectory = run_episode(
                desktop, spec, (bundle / "reward.py").read_text(), ScriptedPolicy(family)
            ).trajectory
        finally:
            desktop.close()
    failed = [f"step {s.step} {s.action}: {s.error}" for s in trajectory.steps if not s.ok]
    why = None
    if failed:
        why = "failed calls: " + "; ".join(failed[:3])
    elif trajectory.reward != 1.0:
        why = f"reward {trajectory.reward}" + (
            f" ({trajectory.reward_error})" if trajectory.reward_error else ""
        )
    elif not (trajectory.terminated and trajectory.status == "success"):
        why = f"did not terminate with success (status {trajectory.status})"
    return why is None, why, round(time.monotonic() - started, 3)
