"""Where an engine app's generated documents live, and writing them (`cuagym hub docs`)."""

from __future__ import annotations

from pathlib import Path

from infra.apps import apps_dir, web_apps
from infra.hub.engine import DEFINITION, app_folder, load_definition
from infra.hub.engine.docs import app_notes, schema_md, skill_md


def engine_apps() -> list[str]:
    """The declared web apps built by the engine (a definition in their folder)."""
    return [name for name in web_apps() if (app_folder(name) / DEFINITION).is_file()]


def expected_docs(name: str, skills: Path | None = None) -> dict[Path, str]:
    """Each generated document of app `name` and the text it should hold."""
    definition = load_definition(app_folder(name) / DEFINITION)
    skill = (skills or apps_dir()) / name / "SKILL.md"
    notes = app_notes(skill.read_text(encoding="utf-8")) if skill.is_file() else ""
    return {app_folder(name) / "SCHEMA.md": schema_md(definition), skill: skill_md(definition, notes)}


def write_docs(name: str, *, check: bool = False) -> list[tuple[Path, str]]:
    """Write (or with `check`, only compare) the documents; (path, "written"|"current"|"stale") each."""
    done = []
    for path, text in expected_docs(name).items():
        current = path.read_text(encoding="utf-8") if path.is_file() else None
        if current == text:
            done.append((path, "current"))
        elif check:
            done.append((path, "stale"))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            done.append((path, "written"))
    return done
