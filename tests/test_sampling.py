"""Sampling under coverage quotas (measured from the warehouse), quota feasibility, anti-repetition,
taxonomy validation and the data-quality suites."""

from __future__ import annotations

import pytest

from skills.kit import load_families
from tasks.dedupe import NearDuplicateFilter, load_embedder
from tasks.models import SynthParams, Wording
from tasks.plan import plan_batch, quota_rows
from tasks.quality import check_warehouse
from tasks.quotas import Quotas, plan_quotas
from tasks.taxonomy import TaxonomyError, parse_taxonomy
from warehouse.query import run_query
from warehouse.store import Warehouse

from .conftest import SKILLS

FAMILIES = load_families(SKILLS)


@pytest.fixture(scope="module")
def embed():
    return load_embedder()


def _dedupe(embed, quotas: Quotas | None = None):
    quotas = quotas or Quotas()
    return NearDuplicateFilter(
        embed, token_jaccard=quotas.near_duplicate.token_jaccard, cosine=quotas.near_duplicate.cosine
    )


def test_quotas_hold_on_a_200_spec_batch_measured_from_the_warehouse(isolated_settings):
    warehouse = Warehouse(isolated_settings.warehouse_path)
    specs = plan_batch(SynthParams(count=200, seed=11), isolated_settings, "run-200", warehouse)
    assert len(specs) == 200
    warehouse.refresh_snapshot(force=True)
    path = isolated_settings.warehouse_path
    checked = run_query(
        path,
        "SELECT dimension, value, share, quota_effective, within_quota FROM coverage "
        "WHERE run_id = 'run-200' AND within_quota IS NOT NULL",
    ).rows
    assert {r[0] for r in checked} == {"app", "domain", "difficulty", "scope"}
    assert all(r[4] for r in checked), [r for r in checked if not r[4]]
    quotas = dict(run_query(path, "SELECT quota, effective FROM run_quotas WHERE run_id = 'run-200'").rows)
    domain_max = run_query(
        path, "SELECT max(share) FROM coverage WHERE run_id='run-200' AND dimension='domain'"
    )
    assert domain_max.rows[0][0] <= 0.21  # feasible with these families: enforced as asked
    assert quotas["max_domain_share"] <= 0.21 and quotas["min_hard_share"] >= 0.40
    hard = run_query(path, "SELECT share FROM coverage WHERE run_id='run-200' AND value='hard'").rows[0][0]
    assert hard >= 0.40
    cap = run_query(
        path, "SELECT max(n) FROM (SELECT apps[1], template, count(*) AS n FROM specs GROUP BY ALL)"
    )
    assert cap.rows[0][0] <= 3
    # Infeasible quotas are named with their reason, not dropped silently; the cross-app share is
    # feasible since the catalogue has cross-app families without Calc, and met (scope above).
    notes = run_query(
        path, "SELECT quota, why FROM run_quotas WHERE run_id = 'run-200' AND NOT feasible"
    ).rows
    assert "min_cross_app_share" not in {q for q, _ in notes}
    assert quotas["min_cross_app_share"] == 0.35
    assert all(why for _, why in notes)
    passes = run_query(
        path, "SELECT json_extract_string(spec, '$.sampling_pass') AS p, count(*) FROM specs GROUP BY ALL"
    ).rows
    assert {p for p, _ in passes} == {"breadth", "gap_fill", "edge"}


def test_infeasible_quota_is_detected_before_sampling():
    only_calc = {fid: f for fid, f in FAMILIES.items() if f.apps[0] == "calc"}
    plan = plan_quotas(only_calc, 300, Quotas())
    reasons = {i.quota: i.why for i in plan.infeasible}
    assert "min_cross_app_share" in reasons and "per template" in reasons["min_cross_app_share"]
    assert "count" in reasons  # 10 families × 5 wordings × 3 cannot supply 300 specs
    assert plan.count == len(only_calc) * len(Wording) * 3


def test_a_small_batch_names_its_relaxed_quotas_in_words_people_can_read():
    plan = plan_quotas(FAMILIES, 3, Quotas())
    notes = {i.quota: str(i) for i in plan.infeasible}
    # was "9 apps × 0 per app < 5 app slots": 0 per app is the consequence, so the share comes first
    assert "15% of a batch of 3 allows 0 spec(s) per app" in notes["max_app_share"]
    assert notes["max_app_share"].startswith("max_app_share=15.0% is infeasible")
    # was "min_per_app=0 … enforced 0.000": the asked value before relaxing, a count as a count
    assert notes["min_per_app"].startswith("min_per_app=1 is infeasible")
    assert notes["min_per_app"].endswith("enforced 0 instead")
    rows = {r["quota"]: r for r in quota_rows(plan)}
    assert (rows["min_per_app"]["asked"], rows["min_per_app"]["effective"]) == (1.0, 0.0)
    assert rows["max_app_share"]["asked"] == 0.15


def test_near_duplicates_are_rejected(embed):
    family = FAMILIES["calc.padded_ids"]
    original = family.instantiate(1, wording=Wording.IMPERATIVE).instruction
    other_instance = family.instantiate(2, wording=Wording.IMPERATIVE).instruction
    unrelated = FAMILIES["writer.heading_styles"].instantiate(1).instruction
    dedupe = _dedupe(embed)
    dedupe.add([original])
    copy = original.replace(",", "").upper()
    paraphrase = original.replace("fill column B", "populate column B").replace("then save", "and then save")
    assert dedupe.check(copy).reason.startswith("tokens")
    assert dedupe.check(paraphrase) is not None
    assert dedupe.check(other_instance) is None  # same template, different data: a different task
    assert dedupe.check(unrelated) is None


def test_sampler_never_repeats_what_the_warehouse_holds(isolated_settings):
    warehouse = Warehouse(isolated_settings.warehouse_path)
    first = plan_batch(SynthParams(count=30, seed=5), isolated_settings, "run-a", warehouse)
    second = plan_batch(SynthParams(count=30, seed=5, apps=[]), isolated_settings, "run-b", warehouse)
    assert not {s.id for s in first} & {s.id for s in second}
    assert not {s.instruction for s in first} & {s.instruction for s in second}


def test_families_restrict_the_batch_and_an_unknown_one_is_named(isolated_settings):
    from infra.errors import ConfigError

    warehouse = Warehouse(isolated_settings.warehouse_path)
    params = SynthParams(count=6, seed=3, families=["files.bin_scripts", "calc.padded_ids"])
    specs = plan_batch(params, isolated_settings, "run-f", warehouse)
    assert len(specs) == 6 and {s.family for s in specs} == {"files.bin_scripts", "calc.padded_ids"}
    with pytest.raises(ConfigError, match=r"unknown family id\(s\) \['files.nope'\]"):
        plan_batch(SynthParams(count=2, families=["files.nope"]), isolated_settings, "run-g", warehouse)
    llm_writer = SynthParams(count=2, families=["files.bin_scripts"], backend="llm", model="hosted_vllm/m")
    with pytest.raises(ConfigError, match="task writer is an LLM"):
        plan_batch(llm_writer, isolated_settings, "run-h", warehouse)


def test_the_cli_refuses_an_unknown_family_before_a_run_starts(isolated_settings):
    from click.testing import CliRunner

    from flows.cli import main

    result = CliRunner().invoke(main, ["synth", "--families", "files.bin_scripts,files.nope", "--count", "1"])
    assert result.exit_code == 1, result.output
    assert "unknown family id(s) ['files.nope']" in result.output and "files.bin_scripts" in result.output
    assert not isolated_settings.warehouse_path.exists()


@pytest.mark.parametrize(
    "text,match",
    [
        ("app: calc\nname: Calc\ntree:\n  formulas:\n    - not a mapping\n", r"node calc/formulas is list"),
        (
            "app: calc\nname: Calc\ntree:\n  a:\n    b:\n      c:\n        d:\n          e: too deep\n",
            r"calc/a/b/c/d .*deeper",
        ),
        (
            "app: calc\nname: Calc\ntree:\n" + "".join(f"  n{i}: leaf {i}\n" for i in range(13)),
            r"node calc has 13 children",
        ),
        ('app: calc\nname: Calc\ntree:\n  x: ""\n', r"leaf calc/x needs a one-line description"),
        ("app: calc\ntree: {}\n", r"needs top-level keys"),
        ("app: [unclosed\n", r"not valid YAML"),
    ],
)
def test_malformed_taxonomy_fails_with_the_bad_node(text, match):
    with pytest.raises(TaxonomyError, match=match):
        parse_taxonomy(text, source="taxonomy.yaml")


def test_data_quality_suite_catches_a_planted_bad_row(isolated_settings, provider):
    from infra.sandbox import Limits
    from tasks.agents.isolation import IsolatedDiscriminator
    from tasks.agents.procedural import ProceduralGenerator
    from tasks.cogen import CogenDeps
    from tasks.models import Provenance
    from tasks.synthesize import TupleContext, synthesize_tuple

    warehouse = Warehouse(isolated_settings.warehouse_path)
    specs = [FAMILIES["calc.padded_ids"].instantiate(s) for s in (1, 2)]
    warehouse.save_specs("run-dq", [s.model_dump(mode="json") for s in specs])
    disc = IsolatedDiscriminator("procedural", isolated_settings)
    ctx = TupleContext(
        warehouse=warehouse,
        skills_dir=SKILLS,
        final_dir=isolated_settings.output_dir / "final",
        run_id="run-dq",
        provenance=Provenance(backend="procedural"),
        deps=CogenDeps(
            provider=provider,
            generator=ProceduralGenerator(SKILLS),
            discriminator=disc,
            scan=lambda s: [],
            limits=Limits(timeout_s=60),
        ),
    )
    try:
        for spec in specs:
            synthesize_tuple(spec, ctx)
    finally:
        disc.close()
    assert all(r.success for r in check_warehouse(warehouse, "run-dq"))
    # Plant a verified tuple whose golden state does not score 1.0, and delete a bundle file.
    with warehouse._write() as con:
        con.execute("UPDATE tuples SET reward_golden = 0.5 WHERE task_id = ?", [specs[0].id])
    (isolated_settings.output_dir / "final" / specs[1].id / "reward.py").unlink()
    failed = {(r.suite, r.column_name) for r in check_warehouse(warehouse, "run-dq-2") if not r.success}
    assert ("verified_tuples", "reward_golden") in failed
    assert ("exports", "bundle_complete") in failed
    warehouse.refresh_snapshot(force=True)
    stored = run_query(
        warehouse.path, "SELECT count(*) FROM data_checks WHERE run_id = 'run-dq-2' AND NOT success"
    )
    assert stored.rows[0][0] == len(failed)
