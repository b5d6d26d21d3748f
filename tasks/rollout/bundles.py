"""Episodes on exported bundles, for callers that hold a policy of their own (GSPO's collector,
training/episodes.py): which bundles a list of paths names, the task of each, and one episode on a
fresh desktop set up from a bundle's config.json and graded by its reward.py.

A desktop that fails (to start, to set up, mid-episode) is an episode without a result (None),
never an exception: the caller records it as unscored instead of losing its group.
"""

from __future__ import annotations

import logging
from pathlib import Path

from infra.contracts.policy import Policy
from infra.envs.base import EnvRole
from infra.envs.desktop import DesktopProvider
from infra.errors import ConfigError, CuagymError
from tasks.export import read_bundle
from tasks.models import TaskSpec
from tasks.rollout.runner import Episode, run_episode

log = logging.getLogger(__name__)

SETUP_TIMEOUT_S = 300  # a bundle's config.json setup (uploads, executes, opening its documents)


def bundle_dirs(paths: list[Path]) -> list[Path]:
    """Each path is a bundle (it holds task.json) or a folder of bundles (output/final)."""
    found = []
    for path in map(Path, paths):
        if (path / "task.json").is_file():
            found.append(path)
        elif path.is_dir():
            found += sorted(child for child in path.iterdir() if (child / "task.json").is_file())
    if not found:
        raise ConfigError(
            f"no bundles in {', '.join(map(str, paths))}",
            hint="point `tuples` at exported bundles (output/final) or bundle folders",
        )
    return found


def bundle_tasks(bundles: list[Path]) -> dict[str, tuple[Path, TaskSpec]]:
    """task id -> (bundle, spec); a task in two bundles is an error (its episodes would mix)."""
    tasks: dict[str, tuple[Path, TaskSpec]] = {}
    for bundle in bundles:
        spec = read_bundle(bundle)[0]
        seen = tasks.setdefault(spec.id, (bundle, spec))[0]
        if seen.resolve() != bundle.resolve():
            raise ConfigError(
                f"task {spec.id} is in two bundles: {seen} and {bundle}",
                hint="list each bundle once in `tuples`",
            )
    return tasks


def play_bundle_episode(
    provider: DesktopProvider, bundle: Path, spec: TaskSpec, policy: Policy, *, repeat: int, max_steps: int
) -> Episode | None:
    """One episode of `policy` on a fresh desktop set up from `bundle`; None when the desktop failed."""
    desktop = None
    try:
        desktop = provider.provision(spec.id, EnvRole.ROLLOUT, apps=spec.apps)
        desktop.setup_from_config(bundle / "config.json", timeout_s=SETUP_TIMEOUT_S)
        reward_py = (bundle / "reward.py").read_text(encoding="utf-8")
        episode = run_episode(desktop, spec, reward_py, policy, repeat=repeat, max_steps=max_steps)
    except (CuagymError, OSError) as exc:  # a failed desktop is an unscored rollout, not a lost group
        log.warning("%s r%d failed: %s: %s", spec.id, repeat, type(exc).__name__, exc)
        return None
    finally:
        if desktop is not None:
            desktop.close()
    if episode.trajectory.reward is None:
        log.warning("%s r%d: no score: %s", spec.id, repeat, episode.trajectory.reward_error)
    return episode
