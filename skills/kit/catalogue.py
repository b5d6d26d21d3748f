"""Finding the families: every `skills/<app>/families/<name>.yaml` with its `<name>.py` beside it."""

from __future__ import annotations

import importlib.util
import sys
from functools import lru_cache
from pathlib import Path
from types import ModuleType

from infra.errors import ConfigError
from skills.kit.definition import load_definition
from skills.kit.family import Family


def load_families(skills_dir: Path) -> dict[str, Family]:
    """Every family under `skills_dir`, by id. A duplicate id, a YAML without its module (or the
    reverse) or an invalid definition is an error naming the file."""
    return dict(_load_cached(skills_dir.resolve()))


@lru_cache(maxsize=8)
def _load_cached(skills_dir: Path) -> tuple[tuple[str, Family], ...]:
    found: dict[str, Family] = {}
    for folder in sorted(skills_dir.glob("*/families")):
        yamls = {p.stem: p for p in folder.glob("*.yaml")}
        modules = {p.stem: p for p in folder.glob("*.py") if not p.name.startswith("_")}
        for stem in sorted(yamls.keys() ^ modules.keys()):
            have, lack = (yamls[stem], ".py") if stem in yamls else (modules[stem], ".yaml")
            raise ConfigError(
                f"{have} has no {stem}{lack} beside it",
                hint="a family is a pair: <name>.yaml (data) and <name>.py (code)",
            )
        for stem in sorted(yamls):
            definition = load_definition(yamls[stem])
            if definition.id in found:
                raise ConfigError(
                    f"family id {definition.id!r} defined twice ({yamls[stem]})", hint="ids must be unique"
                )
            found[definition.id] = Family(definition, _import(modules[stem], definition.id), yamls[stem])
    return tuple(sorted(found.items()))


def _import(path: Path, family_id: str) -> ModuleType:
    name = "cuagym_family_" + family_id.replace(".", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ConfigError(f"cannot import family module {path}", hint="is it a valid Python file?")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # inspect.getsource needs the module registered
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        sys.modules.pop(name, None)
        raise ConfigError(
            f"family module {path} fails to import: {type(exc).__name__}: {exc}",
            hint="run `python -c 'import ast; ast.parse(open(PATH).read())'` on it",
        ) from exc
    return module
