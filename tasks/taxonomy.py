"""Feature taxonomies: per-app trees of UI capabilities (skills/<app>/taxonomy.yaml).

File shape:

    app: calc
    name: LibreOffice Calc
    tree:
      formulas:                       # an inner node is a mapping
        text_functions:
          pad_with_text: Zero-pad numbers into fixed-width codes with TEXT()   # a leaf: one line

Leaf ids are slash paths starting with the app: "calc/formulas/text_functions/pad_with_text".
The paper bounds trees at depth <= 4 and branching <= 12; a tree that breaks a bound, or a node
that is neither a mapping nor a one-line description, fails with the path of the bad node.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from infra.errors import ConfigError

MAX_DEPTH = 4
MAX_BRANCHING = 12


@dataclass(frozen=True)
class Taxonomy:
    app: str
    name: str
    leaves: dict[str, str]  # leaf id -> description


class TaxonomyError(ConfigError):
    """A taxonomy.yaml is malformed."""


def parse_taxonomy(text: str, *, source: str) -> Taxonomy:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise TaxonomyError(f"{source}: not valid YAML: {exc}", hint="fix the YAML syntax") from None
    if not isinstance(data, dict) or not {"app", "name", "tree"} <= set(data):
        raise TaxonomyError(f"{source}: needs top-level keys app, name, tree", hint="see tasks/taxonomy.py")
    app = str(data["app"])
    leaves: dict[str, str] = {}
    _walk(data["tree"], [app], leaves, source)
    if not leaves:
        raise TaxonomyError(f"{source}: the tree has no leaves", hint="add at least one capability")
    return Taxonomy(app=app, name=str(data["name"]), leaves=leaves)


def _walk(node: object, path: list[str], leaves: dict[str, str], source: str) -> None:
    where = "/".join(path)
    depth = len(path) - 1
    if isinstance(node, str):
        if depth == 0 or not node.strip() or "\n" in node.strip():
            raise TaxonomyError(f"{source}: leaf {where} needs a one-line description", hint="write one line")
        leaves[where] = node.strip()
        return
    if not isinstance(node, dict) or not node:
        raise TaxonomyError(
            f"{source}: node {where} is {type(node).__name__}, expected a mapping or a one-line description",
            hint="inner nodes map names to children; leaves are strings",
        )
    if depth >= MAX_DEPTH:
        raise TaxonomyError(f"{source}: node {where} is deeper than {MAX_DEPTH}", hint="flatten the tree")
    if len(node) > MAX_BRANCHING:
        raise TaxonomyError(
            f"{source}: node {where} has {len(node)} children (max {MAX_BRANCHING})",
            hint="group children under intermediate nodes",
        )
    for key, child in node.items():
        if not isinstance(key, str) or not key.replace("_", "").isalnum():
            raise TaxonomyError(f"{source}: bad node name {key!r} under {where}", hint="use snake_case names")
        _walk(child, [*path, key], leaves, source)


@lru_cache(maxsize=32)
def load_taxonomy(path: Path) -> Taxonomy:
    tax = parse_taxonomy(path.read_text(encoding="utf-8"), source=str(path))
    if tax.app != path.parent.name:
        raise TaxonomyError(
            f"{path}: app {tax.app!r} does not match folder {path.parent.name!r}",
            hint="the app key must equal the skill folder name",
        )
    return tax


def load_taxonomies(skills_dir: Path) -> dict[str, Taxonomy]:
    return {p.parent.name: load_taxonomy(p.resolve()) for p in sorted(skills_dir.glob("*/taxonomy.yaml"))}
