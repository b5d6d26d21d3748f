"""App synthesis (`cuagym hub synth-app`): a new engine app definition from a short description.

Two writers: `procedural` composes one from the archetypes and entity pools (no model, for
`make demo`); `llm` asks a model through litellm, with up to five rounds of review feedback. Either
way a definition is accepted only when it validates, the state contract holds on it and it renders
in a real Chromium (accept.py). An accepted app is written to `<out>/<name>/`: definition.yaml,
SCHEMA.md, a screenshot per view and synthesis.json (every round's checks and problems); the hub
hosts it from there (`cuagym hub serve --apps <name>`, with <out> the default var/apps).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import yaml

from infra.hub.engine import AppDefinition
from infra.hub.engine.docs import schema_md
from tasks.app_synthesis.accept import judge_definition
from tasks.app_synthesis.llm_writer import Round, WriterResult, write_with_llm
from tasks.app_synthesis.procedural import compose

__all__ = ["SynthesizedApp", "Round", "synthesize_procedural", "write_with_llm", "save_app"]


@dataclass
class SynthesizedApp:
    definition: AppDefinition | None
    rounds: list[Round]
    folder: Path | None = None


def synthesize_procedural(
    description: str, *, seed: int = 0, name: str | None = None, screenshot_dir: Path | None = None
) -> WriterResult:
    verdict = judge_definition(compose(description, seed=seed, name=name), screenshot_dir=screenshot_dir)
    rounds = [Round(1, verdict.problems, verdict.checks, review="no reviewer")]
    return WriterResult(verdict.definition if verdict.accepted else None, rounds)


def save_app(result: WriterResult, description: str, out: Path, backend: str) -> Path:
    """Write an accepted app's files to `out/<name>/` and return the folder."""
    assert result.definition is not None
    definition = result.definition
    folder = out / definition.name
    folder.mkdir(parents=True, exist_ok=True)
    data = definition.model_dump(mode="json", exclude_none=True)
    (folder / "definition.yaml").write_text(
        f"# Synthesized by `cuagym hub synth-app --backend {backend}` from: {description}\n"
        + yaml.safe_dump(data, sort_keys=False, allow_unicode=True),
        encoding="utf-8",
    )
    (folder / "SCHEMA.md").write_text(schema_md(definition), encoding="utf-8")
    rounds = [
        {"round": r.number, "checks": r.checks, "review": r.review, "problems": r.problems}
        for r in result.rounds
    ]
    (folder / "synthesis.json").write_text(
        json.dumps({"like": description, "backend": backend, "rounds": rounds}, indent=2), encoding="utf-8"
    )
    return folder
