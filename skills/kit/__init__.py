"""The family kit: everything a task family is written against, and nothing else.

    skills/kit/vocabulary.py   the personas instructions are told for; the words a family is described
                               in and the TaskSpec it produces are shared contracts (infra/contracts)
    skills/kit/definition.py   the YAML half of a family, validated (FamilyDefinition)
    skills/kit/family.py       a family = definition + code: instantiate(seed) -> TaskSpec, script(kind)
    skills/kit/render.py       guest functions -> self-contained scripts, with the free-name check
    skills/kit/catalogue.py    finding every family under skills/<app>/families/
    skills/kit/guest/          code shipped inside generated scripts (rewardkit, hub, sheets, docs, …)

The kit depends on nothing in tasks/ or flows/ (tests/test_layering.py); tasks/ depends on it.
CONTRIBUTING.md ("Add a family") is the recipe.
"""

from skills.kit.catalogue import load_families
from skills.kit.family import SCRIPT_KINDS, Family, ScriptKind
from skills.kit.render import collapse_rewardkit, rewardkit_source, with_rewardkit
from skills.kit.vocabulary import PERSONAS

__all__ = [
    "PERSONAS",
    "SCRIPT_KINDS",
    "Family",
    "ScriptKind",
    "collapse_rewardkit",
    "load_families",
    "rewardkit_source",
    "with_rewardkit",
]
