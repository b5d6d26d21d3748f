"""A run's batch of specs: sampled once under the coverage quotas, stored, and read back when the
run is resumed (so a resumed run never re-samples against a warehouse that has since changed)."""

from __future__ import annotations

import logging
from pathlib import Path

from infra.errors import ConfigError
from infra.settings import Settings
from skills.kit import load_families
from tasks.dedupe import NearDuplicateFilter, load_embedder
from tasks.llm_roles import WarehouseCallSink, role_backends
from tasks.models import SynthParams, TaskSpec
from tasks.quotas import QuotaPlan, load_matrix, load_quotas
from tasks.sample import SampleResult, Tally, sample_specs
from tasks.task_writer import write_specs
from warehouse.store import Warehouse

log = logging.getLogger(__name__)


def quotas_path(params: SynthParams, settings: Settings) -> Path:
    return Path(params.quotas).resolve() if params.quotas else settings.skills_dir / "quotas.yaml"


def history_from(warehouse: Warehouse) -> Tally:
    tally = Tally()
    for row in warehouse.coverage_counts():
        getattr(tally, row["dim"])[row["value"]] = row["n"]
    return tally


def quota_rows(plan: QuotaPlan) -> list[dict]:
    """The quotas as asked and as enforced, for the run_quotas table (what coverage views compare)."""
    q, n = plan.quotas, max(plan.count, 1)
    effective = {
        "max_domain_share": plan.max_per_domain / n,
        "min_hard_share": plan.min_hard / n,
        "min_cross_app_share": plan.min_cross / n,
        "max_app_share": plan.max_per_app / n,
        "min_per_app": float(q.min_per_app),
        "template_cap": float(q.template_cap),
        "count": float(plan.count),
    }
    reasons = {i.quota: i for i in plan.infeasible}
    rows = []
    for quota, value in effective.items():
        # a relaxed quota's asked value is the one before relaxing (plan.quotas holds the enforced one)
        asked = float(reasons[quota].asked if quota in reasons else getattr(q, quota, value))
        rows.append(
            {
                "quota": quota,
                "asked": asked,
                "effective": value,
                "feasible": quota not in reasons,
                "why": reasons[quota].why if quota in reasons else None,
            }
        )
    return rows


def sample_batch(params: SynthParams, settings: Settings, warehouse: Warehouse) -> SampleResult:
    quotas = load_quotas(quotas_path(params, settings))
    dedupe = NearDuplicateFilter(
        load_embedder(),
        token_jaccard=quotas.near_duplicate.token_jaccard,
        cosine=quotas.near_duplicate.cosine,
    )
    dedupe.add(warehouse.all_instructions())
    return sample_specs(
        load_families(settings.skills_dir),
        count=params.count,
        seed=params.resolved_seed(),
        quotas=quotas,
        matrix=load_matrix(settings.skills_dir / "scenario_matrix.yaml"),
        dedupe=dedupe,
        apps=params.apps,
        only=params.families,
        history=history_from(warehouse),
    )


def plan_batch(params: SynthParams, settings: Settings, run_id: str, warehouse: Warehouse) -> list[TaskSpec]:
    stored = warehouse.run_specs(run_id)
    if stored:
        log.info("resuming run %s: %d specs read back from the warehouse", run_id, len(stored))
        return [TaskSpec.model_validate(s) for s in stored]
    if role_backends(params)["task_writer"] == "llm":  # LLM-written specs from taxonomy leaves (no families)
        if params.families:
            raise ConfigError(
                f"--families {','.join(params.families)} picks procedural families, but the task "
                "writer is an LLM, which writes tasks from taxonomy leaves",
                hint="drop --families, or add --task-writer-backend procedural",
            )
        specs = write_specs(params, settings, WarehouseCallSink(warehouse, run_id))
        warehouse.save_specs(run_id, [s.model_dump(mode="json") for s in specs])
        return specs
    result = sample_batch(params, settings, warehouse)
    warehouse.save_run_quotas(run_id, quota_rows(result.plan))
    warehouse.save_specs(run_id, [s.model_dump(mode="json") for s in result.specs])
    log.info(
        "sampled %d specs (%s), %d near-duplicates rejected",
        len(result.specs),
        ", ".join(f"{k}={v}" for k, v in sorted(result.passes.items())),
        result.duplicates,
    )
    return result.specs
