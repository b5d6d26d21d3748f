"""The training flow: one trainer run (SFT today; GSPO to come) from a validated config.

The trainer is training/ (`run_sft`); this flow only picks it by the config's `kind`, points it at
the warehouse and reports. Re-running on the same `output_dir` resumes from its last checkpoint.
"""

from __future__ import annotations

import time
from pathlib import Path

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE

from infra.errors import ConfigError
from infra.settings import get_settings
from training.config import SFTConfig, TrainingParams, TrainingSummary
from training.sft import run_sft


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


@flow(name="training")
def training_flow(params: TrainingParams) -> TrainingSummary:
    logger = get_run_logger()
    warehouse = params.warehouse or get_settings().warehouse_path
    if not isinstance(params.config, SFTConfig):
        raise ConfigError(f"trainer kind {params.config.kind!r} is not implemented yet", hint="use kind: sft")
    summary = sft_task(params.config, Path(warehouse))
    logger.info(
        "%s: %d steps on %d samples (%d dropped), loss %s -> %s, resumed from %s, in %.1f s",
        summary.run_id, summary.steps, summary.samples, summary.dropped, summary.first_loss,
        summary.last_loss, summary.resumed_from, summary.seconds,
    )  # fmt: skip
    return summary
