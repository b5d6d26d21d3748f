"""Worlds for engine apps: the seeded default state, and records drawn for tasks.

`default_state(definition)` is what a session never set shows: the definition's written records,
then `seed.generate[entity]` more drawn from `seed.pools` with a generator seeded by the app's name
(no wall clock, no randomness between runs). Families draw their own records with
`draw_records(definition, entity, n, rng, state)` from the same pools, so an injected world looks like
the seeded one.
"""

from __future__ import annotations

import copy
import hashlib
import random
from datetime import date, timedelta
from typing import Any

from infra.hub.engine.definition import AppDefinition, FieldDef, FieldType

WORDS = ("alpha", "beacon", "cedar", "delta", "ember", "fjord", "garnet", "harbor", "indigo", "juniper")


def next_id(collection: dict[str, Any], prefix: str, width: int = 4) -> str:
    """One more than the largest number among ids `prefix` + digits (static/hub.js nextId's rule)."""
    numbers = [
        int(k[len(prefix) :]) for k in collection if k.startswith(prefix) and k[len(prefix) :].isdigit()
    ]
    return f"{prefix}{max(numbers, default=0) + 1:0{width}d}"


def default_state(definition: AppDefinition) -> dict[str, Any]:
    seed = definition.seed
    state: dict[str, Any] = {"current_user": seed.current_user, "ui": {}}
    for name in definition.entities:
        state[name] = copy.deepcopy(seed.records.get(name, {}))
    rng = random.Random(int(hashlib.sha256(definition.name.encode()).hexdigest()[:12], 16))
    # Targets before the records pointing at them: generate in the order the pools/generate name them.
    for name, count in seed.generate.items():
        for rid, record in draw_records(definition, name, count, rng, state).items():
            state[name][rid] = record
    return state


def draw_records(
    definition: AppDefinition, entity: str, n: int, rng: random.Random, state: dict[str, Any]
) -> dict[str, dict[str, Any]]:
    """`n` new records of `entity` with ids after those in `state`, each field drawn from its pool (or
    from its type); refs point at records already in `state`."""
    spec = definition.entities[entity]
    pools = definition.seed.pools.get(entity, {})
    existing = dict(state.get(entity, {}))
    drawn: dict[str, dict[str, Any]] = {}
    for _ in range(n):
        rid = next_id(existing, spec.id_prefix or entity[0])
        record = {
            key: _value(key, f, pools.get(key), rng, state, definition) for key, f in spec.fields.items()
        }
        existing[rid] = drawn[rid] = {k: v for k, v in record.items() if v is not None}
    return drawn


def _value(key: str, f: FieldDef, pool, rng: random.Random, state, definition: AppDefinition) -> Any:
    if pool:
        value = rng.choice(pool)
        return (
            list(value)
            if isinstance(value, list | tuple) and f.type in (FieldType.TAGS, FieldType.REFS)
            else value
        )
    if (
        f.default is not None and f.type is not FieldType.ENUM
    ):  # a world has every status, not only the new one
        return f.default
    now = date.fromisoformat(definition.seed.now[:10])
    match f.type:
        case FieldType.ENUM:
            return rng.choice(f.options)
        case FieldType.REF:
            targets = sorted(state.get(f.to) or {})
            return rng.choice(targets) if targets and not (f.optional and rng.random() < 0.2) else None
        case FieldType.REFS:
            targets = sorted(state.get(f.to) or {})
            return rng.sample(targets, min(len(targets), rng.randint(0, 2)))
        case FieldType.DATE:
            return (now + timedelta(days=rng.randint(-30, 30))).isoformat()
        case FieldType.DATETIME:
            day = now + timedelta(days=rng.randint(-30, 0))
            return f"{day.isoformat()}T{rng.randint(8, 17):02d}:{rng.choice((0, 15, 30, 45)):02d}:00Z"
        case FieldType.NUMBER:
            return float(rng.randint(int(f.min or 0), int(f.max or 100)))
        case FieldType.MONEY:
            return round(rng.uniform(f.min or 10, f.max or 5000), 2)
        case FieldType.BOOL:
            return rng.random() < 0.3
        case FieldType.TAGS:
            return rng.sample(WORDS, rng.randint(0, 2))
        case FieldType.COLOR:
            return rng.choice(("#0b7285", "#5f3dc4", "#c2255c", "#2b8a3e", "#e67700", "#364fc7"))
        case FieldType.EMAIL:
            return f"{rng.choice(WORDS)}{rng.randint(1, 99)}@example.com"
        case FieldType.URL:
            return f"https://{rng.choice(WORDS)}.example.com"
        case _:  # text without a pool: a recognisable placeholder where one is needed
            return f"{f.shown(key)} {rng.choice(WORDS).title()}" if f.required else None
