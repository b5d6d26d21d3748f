"""The mutation stage fails closed (red team, round 3, item 2): a stage that cannot list, build or
grade its mutants fails the round with its own reason, never accepts it, and the share of skipped
mutants is bounded and shown in REVIEW.md and the warehouse. Real sandboxes, real hub, real DuckDB."""

from __future__ import annotations

import functools
import textwrap

import pytest

from infra.envs.base import EnvRole
from infra.envs.home import walk_state
from infra.sandbox import Limits
from tasks import mutation
from tasks.agents.base import DiscriminatorOutput, GeneratorOutput
from tasks.agents.procedural import ProceduralGenerator
from tasks.cogen import CogenDeps, cogenerate
from tasks.models import RejectReason, Review, TupleStatus, Verdict
from tasks.mutation import MutationSettings, run_mutation_tests
from tasks.review import judge_mutants
from tasks.skills import Skill
from tasks.synthesize import round_row
from warehouse.query import run_query
from warehouse.store import Warehouse

from .agents_fixtures import crafted_discriminator
from .conftest import SKILLS, family_mutation_report

SKILL = Skill(("chat",), "test skill", {"chat": "0" * 64})

# 500 levels of an 11-byte component: past the kernel's 4,096-byte PATH_MAX, so no path-based walk
# or copy reaches the bottom (each level is made relative to the one above it).
DEEP_FOLDER = """

import os as _os

_os.chdir("/home/user")
for _ in range(500):
    _os.mkdir("deep-level")
    _os.chdir("deep-level")
"""


class DeepFolderGenerator(ProceduralGenerator):
    """The family's own scripts, and a golden patch that also leaves a 500-level folder behind."""

    name = "deep-folder"

    def generate(self, spec, skill, review, round_no) -> GeneratorOutput:
        out = super().generate(spec, skill, review, round_no)
        return GeneratorOutput(
            initial_setup_py=out.initial_setup_py, golden_patch_py=out.golden_patch_py + DEEP_FOLDER
        )


def _deps(provider, generator, discriminator, **settings) -> CogenDeps:
    return CogenDeps(
        provider=provider,
        generator=generator,
        discriminator=discriminator,
        scan=lambda src: [],
        limits=Limits(timeout_s=60),
        max_rounds=1,
        mutation=MutationSettings(**settings),
    )


def test_a_deep_folder_in_the_golden_state_does_not_let_a_weak_reward_through(provider, families):
    # chat.thread_reply_react asks for a reply and a reaction; the crafted reward checks the reply
    # only, so the mutant without the reaction survives and rejects it (test_cogen). The deep folder
    # used to crash the mutator: no mutant at all, and the weak reward was accepted.
    spec = families["chat.thread_reply_react"].instantiate(1)
    crafted = crafted_discriminator("ignores_the_reaction")
    try:
        result = cogenerate(spec, SKILL, _deps(provider, DeepFolderGenerator(SKILLS), crafted))
    finally:
        crafted.close()
    review = result.rounds[0].review
    assert all(c.ok for c in review.conditions)  # the five conditions alone accept it
    assert result.status is TupleStatus.REJECTED
    assert result.reject_reason is RejectReason.MUTATION_TRUNCATED
    assert review.verdict is Verdict.FAIL and review.mutation.truncated
    assert any("File name too long" in t for t in review.mutation.truncated), review.mutation.truncated
    assert "State listing truncated: " in review.markdown
    assert any(item.startswith("mutation_truncated: ") for item in review.feedback)


def test_a_mutator_that_crashes_fails_the_round_with_its_own_reason(
    provider, families, tmp_path, monkeypatch
):
    spec = families["chat.thread_reply_react"].instantiate(1)
    family = families[spec.family]
    (tmp_path / "no-mutator").mkdir()
    monkeypatch.setattr(mutation, "GUEST_LIB", tmp_path / "no-mutator")  # python3 -m mutator: no module
    report = family_mutation_report(provider, family, spec)
    assert report.error and "No module named mutator" in report.error
    assert not report.mutants  # the hub mutants are not graded either: the stage has failed
    review = Review(verdict=Verdict.PASS, conditions=[])
    assert judge_mutants(review, report, final=True) is RejectReason.MUTATION_ERROR
    assert review.verdict is Verdict.FAIL


# A file replaced by a folder of the same name, holding a new file, and one more new file: three units.
# The "only the new file inside the folder" mutant starts from the initial home, where the folder is
# still a file, so it cannot be built: one of six planned mutants is skipped (17 %).
SETUP = """
from pathlib import Path

Path("/home/user/notes").write_text("old notes\\n")
"""
PATCH = """
from pathlib import Path

home = Path("/home/user")
(home / "notes").unlink()
(home / "notes").mkdir()
(home / "notes" / "todo.txt").write_text("buy milk\\n")
(home / "done.txt").write_text("yes\\n")
"""
REWARD = """
import json
from pathlib import Path

home = Path("/home/user")
checks = {
    "notes is a folder holding todo.txt": (home / "notes" / "todo.txt").is_file(),
    "done.txt exists": (home / "done.txt").is_file(),
}
parts = [{"name": k, "weight": 0.5, "score": float(v), "status": "ok"} for k, v in checks.items()]
print("BREAKDOWN: " + json.dumps({"components": parts, "preconditions": []}))
print(f"REWARD: {sum(0.5 * v for v in checks.values())}")
"""


class FixedGenerator:
    name = "fixed"

    def generate(self, spec, skill, review, round_no) -> GeneratorOutput:
        return GeneratorOutput(
            initial_setup_py=textwrap.dedent(SETUP), golden_patch_py=textwrap.dedent(PATCH)
        )


class FixedDiscriminator:
    name = "fixed"

    def write_reward(self, request) -> DiscriminatorOutput:
        return DiscriminatorOutput(reward_py=textwrap.dedent(REWARD))

    def close(self) -> None:
        pass


@pytest.mark.parametrize(
    ("bound", "status", "reason"),
    [
        (0.10, TupleStatus.REJECTED, RejectReason.MUTANTS_SKIPPED),  # the default: 17 % is too many
        (0.20, TupleStatus.VERIFIED, None),  # a looser bound lets the same round through
    ],
)
def test_the_skipped_share_is_bounded_and_shown(provider, families, tmp_path, bound, status, reason):
    spec = families["calc.padded_ids"].instantiate(0)
    deps = _deps(provider, FixedGenerator(), FixedDiscriminator(), max_skipped_share=bound)
    result = cogenerate(spec, SKILL, deps)
    assert (result.status, result.reject_reason) == (status, reason)
    rnd = result.rounds[0]
    report = rnd.review.mutation
    assert (report.units, report.total, report.skipped_mutants) == (3, 5, 1), report
    assert report.killed == report.total
    skipped = next(s for s in report.skipped if "mutant" in s)
    assert skipped["path"] == "notes/todo.txt" and "FileExistsError" in skipped["why"]
    assert "Skipped: 1 of 6 planned mutants (17 %)" in rnd.review.markdown
    assert f"at most {bound:.0%}".replace("%", " %") in rnd.review.markdown
    assert f"| {skipped['mutant']} | notes/todo.txt |" in rnd.review.markdown

    warehouse = Warehouse(tmp_path / "w.duckdb")
    warehouse.save_specs("run", [spec.model_dump(mode="json")])
    warehouse.start_tuple(spec.id, "run", {})
    warehouse.save_round(round_row(rnd))
    path = warehouse.path
    row = run_query(
        path, "SELECT mutants, skipped, skipped_share, truncated, mutation_error FROM mutation_by_tuple"
    )
    assert row.rows[0][:4] == (5, 1, pytest.approx(1 / 6), False)
    error = row.rows[0][4]
    assert "1 of 6 mutants skipped (17%" in error if reason else error is None
    skips = run_query(path, "SELECT mutant_id, path, why FROM skipped_mutants").rows
    assert [(s[0], s[1]) for s in skips] == [(skipped["mutant"], "notes/todo.txt")]
    family = run_query(path, "SELECT skipped, skipped_share FROM mutation_by_family").rows
    assert family == [(1, pytest.approx(1 / 6))]


def test_a_truncated_state_view_fails_the_stage(provider, families, monkeypatch):
    # The Discriminator wrote its reward from the host's state view; if that view was cut short (here
    # at the initial home's size, standing in for a home past MAX_STATE_ENTRIES), the stage must not
    # vouch for it.
    spec = families["calc.padded_ids"].instantiate(0)
    with (
        provider.provision(spec.id, EnvRole.INITIAL, apps=spec.apps) as initial,
        provider.provision(spec.id, EnvRole.GOLDEN, apps=spec.apps) as golden,
    ):
        for env in (initial, golden):
            assert env.run_script(textwrap.dedent(SETUP), name="initial_setup.py").ok
        assert golden.run_script(textwrap.dedent(PATCH), name="golden_patch.py").ok
        cap = len(walk_state(initial.home)[0])  # the initial view fits; the golden one has 2 more
        monkeypatch.setattr(mutation, "walk_state", functools.partial(walk_state, max_entries=cap))
        report = run_mutation_tests(
            spec, textwrap.dedent(REWARD), initial, golden, provider, limits=Limits(timeout_s=60)
        )
    assert report.truncated == [
        "the golden state view is truncated (too many entries, too deep, or unreadable)"
    ]
    assert not report.mutants
    assert report.stage_failure()[0] is RejectReason.MUTATION_TRUNCATED
