"""Reward fidelity on seeds beyond 0-2: the (family, seed) pairs where a sweep of seeds 0-19 through
the mutation stage found a surviving mutant or a stage that could not test the reward. Each pair's instance is graded by the mutation stage and
must leave no survivor (issue 24, item 2). The nightly run seeds by date, so a weakness that shows on
one drawn instance only is still a reward that pays for a wrong state."""

from __future__ import annotations

import pytest

from skills.kit import load_families

from .conftest import SKILLS, family_mutation_report

FAMILIES = load_families(SKILLS)

# family -> the seed whose instance exposed the weakness, and what the surviving mutant did
WEAK_SEEDS = [
    # a file of the subfolder is the first bystander; its deletion scored 1.0
    ("calc.folder_inventory", 9),
    # the first untouched label is one no message carries (the hub accepts its deletion): it scored 1.0
    ("mail.archive_newsletters", 3),
    # the two moved slides are neighbours: undoing the closing slide's move left it last (a mutant
    # equal to golden, counted as a survivor) until a move is undone next to a slide that kept its place
    ("impress.reorder_slides", 13),
    # three renamed stand-in .docx files (not zips): their document corruptions could not be built,
    # 27 % of the mutants skipped, until such a file is treated as opaque bytes
    ("files.batch_rename", 11),
]


@pytest.mark.parametrize(("family_id", "seed"), WEAK_SEEDS)
def test_no_mutant_survives_on_the_seed_that_exposed_it(provider, family_id, seed):
    family = FAMILIES[family_id]
    report = family_mutation_report(provider, family, family.instantiate(seed))
    assert report.stage_failure() is None, report.stage_failure()
    survivors = [(m.unit_kind, m.what) for m in report.mutants if m.outcome == "survived"]
    assert report.mutants and not survivors, survivors
