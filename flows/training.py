"""The training flow: one trainer run (SFT or GSPO) from a validated config.

The trainers are training/ (`run_sft`, `run_gspo`); this flow picks one by the config's `kind`,
points it at the warehouse and reports. For GSPO it also supplies the environment side, which
training/ may not import (tasks/ is above it): run_gspo draws each iteration's tasks (frontier
sampling, training/frontier.py) and `EpisodeCollector` runs `group_size` episodes of the current
policy on each drawn task through the rollout runner (tasks/rollout/runner.run_episode): a fresh
desktop per episode, set up from the bundle's config.json (with a hub session for web apps), graded
by the bundle's reward.py. An episode whose desktop fails is a rollout with reward None (advantage
0), never a lost group. Re-running SFT or GSPO on the same `output_dir` resumes from its last
checkpoint.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE

from infra.envs.base import EnvRole
from infra.envs.desktop import DesktopProvider
from infra.envs.local import WEB_APPS
from infra.errors import ConfigError, CuagymError
from infra.settings import get_settings
from tasks.export import read_bundle
from tasks.models import TaskSpec
from tasks.rollout.desktops import rollout_provider, start_rollout_hub
from tasks.rollout.runner import run_episode
from training.config import GSPOConfig, SFTConfig, TrainingParams, TrainingSummary
from training.gspo import Rollout, run_gspo
from training.local_policy import LocalPolicy
from training.sft import run_sft

log = logging.getLogger(__name__)


@task(name="sft", cache_policy=NO_CACHE)  # training is not pure: it resumes from what it finds on disk
def sft_task(config: SFTConfig, warehouse: Path) -> TrainingSummary:
    started = time.monotonic()
    result = run_sft(config, warehouse=warehouse)
    return TrainingSummary(
        run_id=result.run_id,
        kind="sft",
        output_dir=str(result.output_dir),
        steps=result.steps,
        samples=result.samples,
        dropped=result.dropped,
        resumed_from=result.resumed_from,
        first_loss=result.first_loss,
        last_loss=result.last_loss,
        seconds=round(time.monotonic() - started, 3),
    )


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


class EpisodeCollector:
    """GSPO's `collect`: per iteration, G episodes of the current policy on each drawn task."""

    def __init__(self, config: GSPOConfig, provider: DesktopProvider, bundles: list[Path]) -> None:
        self.config, self.provider = config, provider
        self.tasks: dict[str, tuple[Path, TaskSpec]] = {}
        for bundle in bundles:
            spec = read_bundle(bundle)[0]
            seen = self.tasks.setdefault(spec.id, (bundle, spec))[0]
            if seen.resolve() != bundle.resolve():
                raise ConfigError(
                    f"task {spec.id} is in two bundles: {seen} and {bundle}",
                    hint="list each bundle once in `tuples`",
                )

    @property
    def task_ids(self) -> list[str]:
        return list(self.tasks)

    def __call__(
        self, make_policy: Callable[[], LocalPolicy], iteration: int, task_ids: list[str]
    ) -> list[list[Rollout]]:
        drawn = [self.tasks[t] for t in task_ids]
        jobs = [(bundle, spec, k) for bundle, spec in drawn for k in range(self.config.group_size)]
        with ThreadPoolExecutor(self.config.rollout_workers) as pool:
            rollouts = list(pool.map(lambda job: self.episode(*job, make_policy()), jobs))
        g = self.config.group_size
        return [rollouts[i : i + g] for i in range(0, len(rollouts), g)]

    def episode(self, bundle: Path, spec: TaskSpec, repeat: int, policy: LocalPolicy) -> Rollout:
        started = time.monotonic()
        reward, desktop = None, None
        try:
            desktop = self.provider.provision(spec.id, EnvRole.ROLLOUT, apps=spec.apps)
            desktop.setup_from_config(bundle / "config.json", timeout_s=300)
            episode = run_episode(
                desktop,
                spec,
                (bundle / "reward.py").read_text(encoding="utf-8"),
                policy,
                repeat=repeat,
                max_steps=self.config.max_steps,
            )
            reward = episode.trajectory.reward
            if reward is None:
                log.warning("%s r%d: no score: %s", spec.id, repeat, episode.trajectory.reward_error)
        except (CuagymError, OSError) as exc:  # a failed desktop is an unscored rollout, not a lost group
            log.warning("%s r%d failed: %s: %s", spec.id, repeat, type(exc).__name__, exc)
        finally:
            if desktop is not None:
                desktop.close()
        return Rollout(spec.id, repeat, reward, list(policy.turns), round(time.monotonic() - started, 3))


@contextmanager
def desktop_provider(bundles: list[Path], run_id: str) -> Iterator[DesktopProvider]:
    """Desktops as the rollout flow makes them, with a hub of its own when a tuple is a web app."""
    settings = get_settings()
    needs_hub = any(app in WEB_APPS for b in bundles for app in read_bundle(b)[0].apps)
    hub = start_rollout_hub(settings, run_id) if needs_hub else None
    try:
        yield rollout_provider(settings, hub)
    finally:
        if hub is not None:
            hub.stop()


@task(name="gspo", cache_policy=NO_CACHE)
def gspo_task(config: GSPOConfig, warehouse: Path) -> TrainingSummary:
    from training.sft import run_id_for

    started = time.monotonic()
    bundles = bundle_dirs(list(config.tuples))
    with desktop_provider(bundles, run_id_for("gspo", Path(config.output_dir))) as provider:
        collector = EpisodeCollector(config, provider, bundles)
        result = run_gspo(config, collector, collector.task_ids, warehouse=warehouse)
    return TrainingSummary(
        run_id=result.run_id,
        kind="gspo",
        output_dir=str(result.output_dir),
        steps=result.steps,
        samples=sum(s.samples for s in result.iterations),
        dropped=0,
        resumed_from=result.resumed_from,
        first_loss=result.losses[0] if result.losses else None,
        last_loss=result.losses[-1] if result.losses else None,
        seconds=round(time.monotonic() - started, 3),
    )


@flow(name="training")
def training_flow(params: TrainingParams) -> TrainingSummary:
    logger = get_run_logger()
    warehouse = Path(params.warehouse or get_settings().warehouse_path)
    if isinstance(params.config, SFTConfig):
        summary = sft_task(params.config, warehouse)
    elif isinstance(params.config, GSPOConfig):
        summary = gspo_task(params.config, warehouse)
    else:  # pragma: no cover - TrainingParams admits only the two
        raise ConfigError(f"unknown trainer kind {params.config.kind!r}", hint="use kind: sft or gspo")
    logger.info(
        "%s: %d steps on %d samples (%d dropped), loss %s -> %s, resumed from %s, in %.1f s",
        summary.run_id, summary.steps, summary.samples, summary.dropped, summary.first_loss,
        summary.last_loss, summary.resumed_from, summary.seconds,
    )  # fmt: skip
    return summary
