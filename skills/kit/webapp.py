"""Host-side worlds for families of the app engine's web apps (never shipped into scripts).

A family's `draw` builds a `set` patch: it is deep-merged with the app's seeded world (the
definition's records), so the seeded records stay and become those a task must not disturb. New
records come from the definition's own pools (`draw_records`), with ids after the seed's, so an
injected world looks like the seeded one.

    from skills.kit.webapp import records, seeded
    state = seeded("deskly")
    tickets = records("deskly", "tickets", 4, rng, state)   # {"T0013": {...}, ...}, added to state
"""

from __future__ import annotations

import copy
from functools import lru_cache

from infra.hub.engine import AppDefinition, app_folder, load_definition
from infra.hub.engine.seed import default_state, draw_records


@lru_cache(maxsize=64)
def definition(app: str) -> AppDefinition:
    return load_definition(app_folder(app) / "definition.yaml")


@lru_cache(maxsize=64)
def _seeded(app: str) -> dict:
    return default_state(definition(app))


def seeded(app: str) -> dict:
    """A copy of the app's seeded world (what a session shows before a task's `set`)."""
    return copy.deepcopy(_seeded(app))


def records(app: str, entity: str, n: int, rng, state: dict, **fixed) -> dict[str, dict]:
    """`n` new records of `entity` drawn from the definition's pools, `fixed` fields overriding the
    draw; they are added to `state` (so later draws can point at them) and returned."""
    drawn = draw_records(definition(app), entity, n, rng, state)
    for record in drawn.values():
        record.update(fixed)
    state.setdefault(entity, {}).update(drawn)
    return drawn


def option_label(value: str) -> str:
    """How the engine's UI shows an enum value (static/engine/core.js optionLabel)."""
    text = str(value).replace("_", " ")
    return text[:1].upper() + text[1:]
