"""Data-quality suites (great-expectations) over tuples and exported bundles, run at the end of
every synthesis flow; results are stored in the warehouse (data_checks) and shown, never ignored.

The warehouse is validated as pandas frames: great-expectations' DuckDB SQL path does not work.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pandas as pd
from pydantic import BaseModel

from infra.library_env import apply_library_defaults
from tasks.export import BUNDLE_FILES
from tasks.models import Difficulty, Domain, Platform, Scenario, TupleStatus

log = logging.getLogger(__name__)

VERIFIED = [TupleStatus.VERIFIED.value, TupleStatus.EXPORTED.value]


class CheckResult(BaseModel):
    suite: str
    expectation: str
    column_name: str | None
    success: bool
    unexpected: int | None = None
    details: dict | None = None


def _gx():
    apply_library_defaults()
    import great_expectations as gx

    return gx


def _tuple_expectations(gx) -> list:
    e = gx.expectations
    required = ["task_id", "instruction", "platform", "domain", "difficulty", "scenario", "status", "family"]
    return [
        *[e.ExpectColumnValuesToNotBeNull(column=c) for c in required],
        e.ExpectColumnValuesToBeInSet(column="platform", value_set=[p.value for p in Platform]),
        e.ExpectColumnValuesToBeInSet(column="domain", value_set=[d.value for d in Domain]),
        e.ExpectColumnValuesToBeInSet(column="difficulty", value_set=[d.value for d in Difficulty]),
        e.ExpectColumnValuesToBeInSet(column="scenario", value_set=[s.value for s in Scenario]),
        e.ExpectColumnValuesToBeInSet(column="status", value_set=[s.value for s in TupleStatus]),
        e.ExpectColumnValuesToBeBetween(column="reward_initial", min_value=0.0, max_value=1.0),
        e.ExpectColumnValuesToBeBetween(column="reward_golden", min_value=0.0, max_value=1.0),
        e.ExpectColumnValuesToBeBetween(column="rounds", min_value=0, max_value=5),
        e.ExpectColumnValuesToBeUnique(column="instruction"),
        e.ExpectColumnValuesToBeUnique(column="task_id"),
    ]


def _verified_expectations(gx) -> list:
    e = gx.expectations
    return [
        e.ExpectColumnValuesToBeInSet(column="reward_initial", value_set=[0.0]),
        e.ExpectColumnValuesToBeInSet(column="reward_golden", value_set=[1.0]),
        e.ExpectColumnValuesToNotBeNull(column="reward_initial"),
        e.ExpectColumnValuesToNotBeNull(column="reward_golden"),
        e.ExpectColumnValuesToBeBetween(column="rounds", min_value=1, max_value=5),
    ]


def _export_expectations(gx) -> list:
    e = gx.expectations
    return [
        e.ExpectColumnValuesToNotBeNull(column="bundle_path"),
        e.ExpectColumnValuesToBeInSet(column="bundle_complete", value_set=[True]),
        e.ExpectColumnValuesToBeInSet(column="config_evaluator", value_set=["exact_match"]),
        e.ExpectColumnValuesToBeInSet(column="task_json_matches", value_set=[True]),
    ]


def bundle_frame(tuples: pd.DataFrame) -> pd.DataFrame:
    """Exported tuples with what their bundle on disk actually holds."""
    rows = []
    for row in tuples[tuples["status"] == TupleStatus.EXPORTED.value].itertuples():
        path = Path(row.bundle_path) if row.bundle_path else None
        complete = bool(path) and all((path / name).is_file() for name in BUNDLE_FILES)
        evaluator = task_ok = None
        if complete:
            try:
                evaluator = json.loads((path / "config.json").read_text())["evaluator"]["func"]
                task_ok = json.loads((path / "task.json").read_text())["id"] == row.task_id
            except (ValueError, KeyError):
                evaluator, task_ok = "unreadable", False
        rows.append(
            {
                "task_id": row.task_id,
                "bundle_path": row.bundle_path,
                "bundle_complete": complete,
                "config_evaluator": evaluator,
                "task_json_matches": task_ok,
            }
        )
    return pd.DataFrame(
        rows, columns=["task_id", "bundle_path", "bundle_complete", "config_evaluator", "task_json_matches"]
    )


def run_suites(tuples: pd.DataFrame) -> list[CheckResult]:
    """Validate the tuples frame (see warehouse/sql/dq_tuples.sql) and the bundles it points to."""
    gx = _gx()
    context = gx.get_context(mode="ephemeral")
    context.variables.progress_bars = {"globally": False, "metric_calculations": False}
    source = context.data_sources.add_pandas("warehouse")
    frames = {
        "tuples": (tuples, _tuple_expectations(gx)),
        "verified_tuples": (tuples[tuples["status"].isin(VERIFIED)], _verified_expectations(gx)),
        "exports": (bundle_frame(tuples), _export_expectations(gx)),
    }
    results: list[CheckResult] = []
    for name, (frame, expectations) in frames.items():
        batch = source.add_dataframe_asset(name).add_batch_definition_whole_dataframe("all")
        suite = context.suites.add(gx.ExpectationSuite(name=name))
        for expectation in expectations:
            suite.add_expectation(expectation)
        validation = context.validation_definitions.add(
            gx.ValidationDefinition(name=name, data=batch, suite=suite)
        )
        outcome = validation.run(batch_parameters={"dataframe": frame.reset_index(drop=True)})
        for r in outcome.results:
            cfg = r.expectation_config
            sample = r.result.get("partial_unexpected_list") if r.result else None
            results.append(
                CheckResult(
                    suite=name,
                    expectation=cfg.type,
                    column_name=cfg.kwargs.get("column"),
                    success=bool(r.success),
                    unexpected=r.result.get("unexpected_count") if r.result else None,
                    details={"sample": [str(v) for v in (sample or [])[:5]], "rows": len(frame)},
                )
            )
    failed = [r for r in results if not r.success]
    if failed:
        log.warning(
            "data checks: %d of %d failed: %s",
            len(failed),
            len(results),
            ", ".join(f"{r.suite}.{r.expectation}({r.column_name})" for r in failed),
        )
    return results


def check_warehouse(warehouse, run_id: str) -> list[CheckResult]:
    """Run the suites over every tuple in `warehouse` and record the results under `run_id`."""
    results = run_suites(warehouse.frame("dq_tuples"))
    warehouse.save_data_checks(run_id, [r.model_dump() for r in results])
    return results
