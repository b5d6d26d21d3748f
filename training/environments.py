"""What a training run plays its episodes on: desktops as the rollout flow makes them (a hub of its own
when a tuple is a web app), and the held-out evaluator of a config's `eval_tuples`.

Used by the training flow (flows/training.py, one process) and by the multi-process launch
(training/launch.py, where only rank 0 evaluates).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from infra.envs.desktop import DesktopProvider
from infra.envs.local import WEB_APPS
from infra.settings import get_settings
from tasks.rollout.bundles import bundle_dirs, bundle_tasks
from tasks.rollout.desktops import rollout_provider, start_rollout_hub
from training.config import GSPOConfig, SFTConfig
from training.evaluate import HeldOutEvaluator


@contextmanager
def desktop_provider(bundles: list[Path], run_id: str) -> Iterator[DesktopProvider]:
    """Desktops as the rollout flow makes them, with a hub of its own when a tuple is a web app."""
    settings = get_settings()
    needs_hub = any(app in WEB_APPS for _, spec in bundle_tasks(bundles).values() for app in spec.apps)
    hub = start_rollout_hub(settings, run_id) if needs_hub else None
    try:
        yield rollout_provider(settings, hub)
    finally:
        if hub is not None:
            hub.stop()


@contextmanager
def evaluator(
    config: SFTConfig | GSPOConfig, provider: DesktopProvider | None, run_id: str
) -> Iterator[HeldOutEvaluator | None]:
    """The held-out evaluator of `config.eval_tuples` (None without them), on `provider` or, when
    none is given, on desktops of its own."""
    if not config.eval_tuples:
        yield None
    elif provider is not None:
        yield HeldOutEvaluator.from_config(config, provider)
    else:
        with desktop_provider(bundle_dirs(list(config.eval_tuples)), run_id) as own:
            yield HeldOutEvaluator.from_config(config, own)
