"""The procedural app writer: a definition composed from the engine's archetypes and the entity pools
of blueprints.yaml, for a short description (`--like "a help desk with tickets, SLAs and macros"`).

No model is involved, so `make demo` can show a synthesized app without keys. The description picks
the blueprints whose keywords it mentions (the best match is the app's main entity and gets a
second view); refs between picked blueprints are kept, others dropped; a user entity is always
there. Brand, theme and seeded world come from a generator seeded by `seed`, so one description and
seed always give the same app.
"""

from __future__ import annotations

import copy
import random
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

BLUEPRINTS = Path(__file__).with_name("blueprints.yaml")
PEOPLE = "members"
ACCENTS = ["#0f766e", "#7c3aed", "#b45309", "#be123c", "#1d4ed8", "#15803d", "#9333ea", "#0369a1"]
FONTS = ["sans", "serif", "mono", "rounded"]
LOGOS = ["box", "star", "flag", "bell", "folder", "tag", "calendar", "board"]
SYLLABLES = ["ta", "lo", "vi", "ren", "ko", "ma", "zu", "fen", "ri", "dor", "la", "mi", "sol", "ve", "nu"]
NAMES = ["Ana Souza", "Ben Okafor", "Chen Wei", "Dara Singh", "Eli Novak", "Fay Morgan"]
ICONS = {"table": "list", "kanban": "board", "pipeline": "board", "calendar": "calendar"}


@lru_cache(maxsize=1)
def blueprints() -> dict[str, dict[str, Any]]:
    return yaml.safe_load(BLUEPRINTS.read_text(encoding="utf-8"))


def pick_blueprints(description: str, rng: random.Random, most: int = 4) -> list[str]:
    """Blueprint keys the description calls for, best match first (two at random if none)."""
    text = description.lower()
    scores = {}
    for key, bp in blueprints().items():
        hits = sum(1 for word in bp["keywords"] if re.search(rf"\b{re.escape(word)}", text))
        if hits:
            scores[key] = hits
    if not scores:
        return rng.sample(sorted(blueprints()), 2)
    return sorted(scores, key=lambda k: (-scores[k], list(blueprints()).index(k)))[:most]


def brand_name(rng: random.Random) -> str:
    return "".join(rng.sample(SYLLABLES, 2) + [rng.choice(["ly", "ra", "io", "na", "do"])]).capitalize()


def compose(description: str, *, seed: int = 0, name: str | None = None) -> dict[str, Any]:
    """A definition (plain data, for parse_definition) of an app like `description`."""
    rng = random.Random(f"{description}|{seed}")
    picked = pick_blueprints(description, rng)
    brand = brand_name(rng)
    app = name or re.sub(r"[^a-z0-9_]", "", brand.lower())
    entities: dict[str, Any] = {
        PEOPLE: {
            "label": "Member",
            "title": "name",
            "id_prefix": "u",
            "icon": "users",
            "creatable": False,
            "fields": {
                "name": {"type": "text", "required": True},
                "email": {"type": "email"},
                "color": {"type": "color"},
            },
        }
    }
    plural = {key: f"{key}s" for key in picked}
    for key in picked:
        entities[plural[key]] = _entity(blueprints()[key], plural)
    views, actions = [], []
    for index, key in enumerate(picked):
        bp, entity = blueprints()[key], plural[key]
        kinds = bp["archetypes"][: 2 if index == 0 else 1]
        for kind in kinds:
            views.append(_view(kind, entity, entities[entity], bp))
        for number, action in enumerate(bp.get("actions", [])):
            actions.append(_action(action, entity, entities[entity], f"{key}_{number}"))
    people = {
        f"u{n:04d}": {
            "name": person,
            "email": f"{person.split()[0].lower()}@{app}.test",
            "color": rng.choice(ACCENTS),
        }
        for n, person in enumerate(rng.sample(NAMES, 4), start=1)
    }
    return {
        "name": app,
        "title": f"{brand} {_category_word(picked[0])}",
        "brand": brand,
        "category": blueprints()[picked[0]]["category"],
        "description": f"A synthesized app like: {description.strip()}",
        "theme": {
            "accent": rng.choice(ACCENTS),
            "nav": rng.choice(["side", "top"]),
            "dark_nav": rng.random() < 0.5,
            "density": rng.choice(["compact", "comfortable"]),
            "font": rng.choice(FONTS),
            "logo": rng.choice(LOGOS),
        },
        "people": PEOPLE,
        "entities": entities,
        "views": views,
        "actions": actions,
        "seed": {
            "current_user": "u0001",
            "records": {PEOPLE: people},
            "generate": {plural[key]: rng.randint(6, 10) for key in _dependency_order(picked)},
            "pools": {plural[key]: copy.deepcopy(blueprints()[key].get("pools", {})) for key in picked},
        },
    }


def _category_word(key: str) -> str:
    return {"ticket": "Desk", "event": "Calendar", "deal": "CRM", "page": "Wiki", "task": "Boards"}.get(
        key, "Hub"
    )


def _entity(bp: dict[str, Any], plural: dict[str, str]) -> dict[str, Any]:
    fields = {}
    for key, spec in bp["fields"].items():
        spec = dict(spec)
        if "to" in spec:
            target = PEOPLE if spec["to"] == "$people" else plural.get(spec["to"])
            if target is None:
                continue  # a ref to a blueprint this app does not have
            spec["to"] = target
        fields[key] = spec
    return {"label": bp["label"], "title": bp["title"], "id_prefix": bp["prefix"], "fields": fields}


def _view(kind: str, entity: str, spec: dict[str, Any], bp: dict[str, Any]) -> dict[str, Any]:
    fields = spec["fields"]
    enums = [k for k, f in fields.items() if f["type"] == "enum"]
    dates = [k for k, f in fields.items() if f["type"] == "date"]
    money = [k for k, f in fields.items() if f["type"] == "money"]
    label = (
        f"{spec['label']}s"
        if kind == "table"
        else f"{spec['label']} {'board' if kind != 'calendar' else 'calendar'}"
    )
    view: dict[str, Any] = {
        "id": f"{entity}_{kind}",
        "label": label,
        "archetype": kind,
        "entity": entity,
        "icon": ICONS.get(kind, "list"),
        "columns": [k for k, f in fields.items() if f["type"] not in ("longtext", "refs")][:6],
        "filters": [k for k, f in fields.items() if f["type"] in ("enum", "ref")][:3]
        if kind == "table"
        else [],
    }
    if kind in ("kanban", "pipeline"):
        view["group"] = enums[-1] if kind == "pipeline" else enums[0]
        if money:
            view["total"] = money[0]
    if kind == "calendar":
        view["date"] = dates[0]
    return view


def _action(action: dict[str, Any], entity: str, spec: dict[str, Any], ident: str) -> dict[str, Any]:
    result = {"id": ident, "entity": entity, **copy.deepcopy(action)}
    result["set"] = {k: v for k, v in result.get("set", {}).items() if k in spec["fields"]}
    return result


def _dependency_order(picked: list[str]) -> list[str]:
    """Blueprints generated after those their refs point to (records can only name existing ones)."""
    ordered: list[str] = []

    def visit(key: str) -> None:
        if key in ordered:
            return
        for spec in blueprints()[key]["fields"].values():
            if spec.get("to") in picked and spec["to"] != key:
                visit(spec["to"])
        ordered.append(key)

    for key in picked:
        visit(key)
    return ordered
