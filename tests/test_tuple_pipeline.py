"""One tuple through cogen → warehouse → bundle, resume semantics, and bundle re-verification."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest

from infra.sandbox import Limits
from infra.settings import get_settings
from tasks.agents.isolation import IsolatedDiscriminator
from tasks.agents.procedural import ProceduralGenerator
from tasks.cogen import CogenDeps
from tasks.export import BundleError, read_bundle
from tasks.models import Provenance, TupleStatus
from tasks.reward_contract import OSWORLD_PASS
from tasks.synthesize import TupleContext, synthesize_tuple
from tasks.verify import verify_bundle
from warehouse.query import run_query
from warehouse.store import Warehouse

from .agents_fixtures import LazyGenerator
from .conftest import SKILLS

OSWORLD_KEYS = {
    "id",
    "snapshot",
    "instruction",
    "source",
    "config",
    "trajectory",
    "related_apps",
    "evaluator",
    "proxy",
    "fixed_ip",
    "possibility_of_env_change",
}


@pytest.fixture
def ctx(tmp_path, provider):
    disc = IsolatedDiscriminator("procedural", get_settings())
    deps = CogenDeps(
        provider=provider,
        generator=ProceduralGenerator(SKILLS),
        discriminator=disc,
        scan=lambda src: [],
        limits=Limits(timeout_s=60),
    )
    yield TupleContext(
        warehouse=Warehouse(tmp_path / "wh.duckdb"),
        deps=deps,
        skills_dir=SKILLS,
        final_dir=tmp_path / "out" / "final",
        run_id="run-test",
        provenance=Provenance(backend="procedural", run_id="run-test"),
    )
    disc.close()


def _save(ctx, spec):
    ctx.warehouse.save_specs(ctx.run_id, [spec.model_dump(mode="json")])


def test_verified_tuple_is_recorded_and_exported(ctx, families, provider):
    spec = families["calc.padded_ids"].instantiate(11)
    _save(ctx, spec)
    outcome = synthesize_tuple(spec, ctx)
    assert outcome.status is TupleStatus.EXPORTED and outcome.rounds == 1
    bundle = ctx.final_dir / spec.id
    assert sorted(p.name for p in bundle.iterdir()) == sorted(
        ["task.json", "config.json", "initial_setup.py", "golden_patch.py", "reward.py", "REVIEW.md"]
    )
    config = json.loads((bundle / "config.json").read_text())
    assert set(config) == OSWORLD_KEYS
    assert {step["type"] for step in config["config"]} <= {"upload_file", "download", "execute"}
    evaluator = config["evaluator"]
    # exact_match on a command that prints only its verdict (tests/desktop/test_osworld_evaluator.py)
    assert evaluator["func"] == "exact_match"
    assert evaluator["result"]["type"] == "vm_command_line"
    assert evaluator["result"]["command"][:2] == ["python3", "-c"]
    assert evaluator["expected"] == {"type": "rule", "rules": {"expected": OSWORLD_PASS}}
    assert evaluator["postconfig"][0]["parameters"]["files"] == [
        {"local_path": "reward.py", "path": "/home/user/reward.py"}
    ]
    task = json.loads((bundle / "task.json").read_text())
    assert task["instruction"] == spec.instruction
    assert task["provenance"]["scores"] == {"initial": 0.0, "golden": 1.0}
    assert task["provenance"]["skill_hashes"]["calc"]
    assert "## Verdict: PASS" in (bundle / "REVIEW.md").read_text()
    check = verify_bundle(bundle, provider)
    assert check.ok and check.reward_initial == 0.0 and check.reward_golden == 1.0


def test_tampered_bundle_fails_verification(ctx, families, provider):
    spec = families["calc.padded_ids"].instantiate(12)
    _save(ctx, spec)
    synthesize_tuple(spec, ctx)
    bundle = ctx.final_dir / spec.id
    (bundle / "golden_patch.py").write_text("pass\n")
    check = verify_bundle(bundle, provider)
    assert not check.ok and check.reward_golden == 0.0
    assert any("golden state scores 0.0" in p for p in check.problems)
    (bundle / "reward.py").unlink()
    with pytest.raises(BundleError, match="missing"):
        read_bundle(bundle)


def test_finished_tuple_is_read_back_not_recomputed(ctx, families):
    spec = families["calc.padded_ids"].instantiate(13)
    _save(ctx, spec)
    first = synthesize_tuple(spec, ctx)
    ctx.deps.generator = None  # any recomputation would crash on this
    again = synthesize_tuple(spec, ctx)
    assert again.resumed and again.status == first.status and again.rounds == first.rounds
    rows = run_query(ctx.warehouse.path, f"SELECT count(*) FROM rounds WHERE task_id = '{spec.id}'")
    assert rows.rows == [(1,)]


def test_interrupted_tuple_restarts_as_new_attempt_keeping_old_rounds(ctx, families):
    spec = families["calc.padded_ids"].instantiate(14)
    _save(ctx, spec)
    ctx.deps.generator = LazyGenerator(SKILLS)
    ctx.deps.max_rounds = 2
    # Simulate a run killed after round 2 of attempt 1: the tuple is left `generating`.
    attempt = ctx.warehouse.start_tuple(spec.id, ctx.run_id, {})
    from tasks.cogen import cogenerate
    from tasks.skills import load_skill
    from tasks.synthesize import round_row

    cogenerate(
        spec,
        load_skill(SKILLS, spec.apps),
        ctx.deps,
        attempt=attempt,
        on_round=lambda r: ctx.warehouse.save_round(round_row(r)),
    )
    ctx.deps.generator = ProceduralGenerator(SKILLS)
    outcome = synthesize_tuple(spec, ctx)
    assert outcome.status is TupleStatus.EXPORTED
    ctx.warehouse.refresh_snapshot(force=True)
    rows = run_query(
        ctx.warehouse.path,
        f"SELECT attempt, round, verdict FROM rounds WHERE task_id = '{spec.id}' ORDER BY attempt, round",
    ).rows
    assert rows == [(1, 1, "FAIL"), (1, 2, "FAIL"), (2, 1, "PASS")]


def test_rejected_tuple_keeps_every_review_and_parquet_has_all(ctx, families, tmp_path):
    spec_ok = families["calc.padded_ids"].instantiate(15)
    spec_bad = families["calc.padded_ids"].instantiate(16)
    _save(ctx, spec_ok)
    _save(ctx, spec_bad)
    synthesize_tuple(spec_ok, ctx)
    ctx.deps.generator = LazyGenerator(SKILLS)
    outcome = synthesize_tuple(spec_bad, ctx)
    assert outcome.status is TupleStatus.REJECTED and outcome.rounds == 5
    assert not (ctx.final_dir / spec_bad.id).exists()
    ctx.warehouse.refresh_snapshot(force=True)
    status = run_query(
        ctx.warehouse.path, "SELECT task_id, status, rounds, reject_reason FROM tuple_status ORDER BY task_id"
    ).rows
    assert (spec_bad.id, "rejected", 5, "golden_not_full") in status
    reviews = run_query(
        ctx.warehouse.path, f"SELECT review_md FROM rounds WHERE task_id = '{spec_bad.id}'"
    ).rows
    assert len(reviews) == 5 and all("## Verdict: FAIL" in r[0] for r in reviews)
    n = ctx.warehouse.export_parquet(tmp_path / "tuples.parquet")
    table = pq.read_table(tmp_path / "tuples.parquet")
    assert n == 2 and table.num_rows == 2
    assert set(table.column("status").to_pylist()) == {"exported", "rejected"}
