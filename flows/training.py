"""The training flow: one trainer run (SFT or GSPO) from a validated config.

The trainers are training/ (`run_sft`, `run_gspo`); this flow picks one by the config's `kind`,
points it at the warehouse and reports. For GSPO it wires the environment side: the desktops (with a
hub for web apps) that training/episodes.py's `EpisodeCollector` plays `group_size` episodes of the
current policy on, per drawn task. Re-running SFT or GSPO on the same `output_dir` resumes from its last
checkpoint.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE

from infra.errors import ConfigError
from infra.settings import get_settings
from tasks.rollout.bundles import bundle_dirs
from training.config import GSPOConfig, SFTConfig, TrainingParams, TrainingSummary
from training.environments import desktop_provider, evaluator
from training.episodes import EpisodeCollector
from training.gspo import run_gspo
from training.sft import run_id_for, run_sft

log = logging.getLogger(__name__)


@task(name="sft", cache_policy=NO_CACHE)  # training is not pure: it resumes from what it finds on disk
def sft_task(config: SFTConfig, warehouse: Path) -> TrainingSummary:
    started = time.monotonic()
    with evaluator(config, None, run_id_for("sft", Path(config.output_dir))) as evaluate:
        result = run_sft(config, warehouse=warehouse, evaluate=evaluate)
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
        evaluations=[e.row() for e in result.evaluations],
    )


@task(name="gspo", cache_policy=NO_CACHE)
def gspo_task(config: GSPOConfig, warehouse: Path) -> TrainingSummary:
    started = time.monotonic()
    bundles = bundle_dirs(list(config.tuples))
    held_out = bundle_dirs(list(config.eval_tuples)) if config.eval_tuples else []
    with (
        desktop_provider(bundles + held_out, run_id_for("gspo", Path(config.output_dir))) as provider,
        evaluator(config, provider, run_id_for("gspo", Path(config.output_dir))) as evaluate,
    ):
        collector = EpisodeCollector(config, provider, bundles)
        result = run_gspo(config, collector, collector.task_ids, warehouse=warehouse, evaluate=evaluate)
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
        evaluations=[e.row() for e in result.evaluations],
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
