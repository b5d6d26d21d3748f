"""The pydantic model of an engine app's state, built from its definition.

A state is `{current_user, <entity>: {<id>: record}, ui}`. Records are typed by their fields
(extra keys allowed, as in every hub app: task generators may attach fields a schema does not know);
across records, every ref must name an existing record and the current user must be one of the
people. This is what `"strict": true` writes are checked against (infra/hub/registry.py).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, create_model, model_validator

from infra.hub.apps.models import Loose
from infra.hub.engine.definition import AppDefinition, EntityDef, FieldDef, FieldType

_DATE = r"^\d{4}-\d\d-\d\d$"
_DATETIME = r"^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?Z$"


def _annotation(f: FieldDef) -> tuple[Any, Any]:
    """(type, default) of one field; a field that is not required may be left out or null."""
    kinds: dict[FieldType, Any] = {
        FieldType.TEXT: str,
        FieldType.LONGTEXT: str,
        FieldType.EMAIL: str,
        FieldType.URL: str,
        FieldType.REF: str,
        FieldType.NUMBER: float,
        FieldType.MONEY: float,
        FieldType.BOOL: bool,
        FieldType.REFS: list[str],
        FieldType.TAGS: list[str],
    }
    constraints: dict[str, Any] = {}
    if f.type is FieldType.ENUM:
        kind: Any = Literal[tuple(f.options)]
    elif f.type in (FieldType.DATE, FieldType.DATETIME, FieldType.COLOR):
        kind = str
        constraints["pattern"] = {
            FieldType.DATE: _DATE,
            FieldType.DATETIME: _DATETIME,
            FieldType.COLOR: r"^#[0-9a-fA-F]{6}$",
        }[f.type]
    else:
        kind = kinds[f.type]
    if f.type in (FieldType.TEXT,) and f.required:
        constraints["min_length"] = 1
    if f.required:
        return kind, Field(..., **constraints)
    if f.type in (FieldType.REFS, FieldType.TAGS):
        return kind, Field(default_factory=list, **constraints)
    return kind | None, Field(None, **constraints)


def _record_model(app: str, name: str, entity: EntityDef) -> type[Loose]:
    fields = {key: _annotation(f) for key, f in entity.fields.items()}
    return create_model(f"{app.title()}{name.title().replace('_', '')}Record", __base__=Loose, **fields)


def state_model(definition: AppDefinition) -> type[Loose]:
    """The state model of `definition`: typed records plus the cross-record rules."""
    records = {name: _record_model(definition.name, name, e) for name, e in definition.entities.items()}
    fields: dict[str, Any] = {"current_user": (str, ...), "ui": (dict[str, Any], Field(default_factory=dict))}
    for name, model in records.items():
        fields[name] = (dict[str, model], Field(default_factory=dict))

    def _integrity(state: Any) -> Any:
        problems = list(integrity_problems(definition, state.model_dump()))
        if problems:
            raise ValueError("; ".join(problems[:3]))
        return state

    validators = {"integrity": model_validator(mode="after")(_integrity)}
    return create_model(
        f"{definition.name.title()}State", __base__=Loose, __validators__=validators, **fields
    )


def integrity_problems(definition: AppDefinition, state: dict[str, Any]):
    """Each broken cross-record rule of `state`, as a sentence."""
    people = state.get(definition.people) or {}
    if state.get("current_user") not in people:
        yield f"current_user {state.get('current_user')!r} is not one of the {definition.people}"
    for name, entity in definition.entities.items():
        for rid, record in (state.get(name) or {}).items():
            for key, f in entity.fields.items():
                if f.type not in (FieldType.REF, FieldType.REFS) or record.get(key) is None:
                    continue
                targets = state.get(f.to) or {}
                wanted = record[key] if f.type is FieldType.REFS else [record[key]]
                for target in wanted:
                    if target not in targets:
                        yield f"{name}.{rid}.{key} names {target!r}, not a record of {f.to}"
