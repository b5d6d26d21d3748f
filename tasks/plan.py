"""A run's batch of specs: sampled once, stored, and read back when the run is resumed."""

from __future__ import annotations

import logging

from infra.settings import Settings
from tasks.families import load_families
from tasks.models import SynthParams, TaskSpec
from tasks.sample import sample_specs
from warehouse.store import Warehouse

log = logging.getLogger(__name__)


def plan_batch(params: SynthParams, settings: Settings, run_id: str, warehouse: Warehouse) -> list[TaskSpec]:
    stored = warehouse.run_specs(run_id)
    if stored:
        log.info("resuming run %s: %d specs read back from the warehouse", run_id, len(stored))
        return [TaskSpec.model_validate(s) for s in stored]
    specs = sample_specs(load_families(settings.skills_dir), count=params.count, seed=params.resolved_seed(),
                         apps=params.apps)  # fmt: skip
    warehouse.save_specs(run_id, [s.model_dump(mode="json") for s in specs])
    return specs
