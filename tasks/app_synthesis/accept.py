"""When is a synthesized app definition accepted? When it validates, the hub's state contract holds on
it, and a real Chromium render check passes (infra/hub/engine/). Each failed check is a sentence the
writer gets back as review feedback."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from infra.hub.engine import AppDefinition, DefinitionError, parse_definition
from infra.hub.engine.contract_check import contract_problems
from infra.hub.engine.render_check import render_check, serving


@dataclass
class Verdict:
    definition: AppDefinition | None
    problems: list[str] = field(default_factory=list)
    checks: dict[str, str] = field(default_factory=dict)  # check -> "ok" | "failed" | "not run"

    @property
    def accepted(self) -> bool:
        return self.definition is not None and not self.problems


def judge_definition(data: Any, *, screenshot_dir: Path | None = None) -> Verdict:
    checks = {"validates": "not run", "state contract": "not run", "renders in Chromium": "not run"}
    try:
        definition = parse_definition(data, source="the synthesized definition")
    except DefinitionError as exc:
        checks["validates"] = "failed"
        return Verdict(None, [str(exc)], checks)
    checks["validates"] = "ok"
    with serving(definition) as base:
        problems = [f"state contract: {p}" for p in contract_problems(base, definition)]
    checks["state contract"] = "failed" if problems else "ok"
    rendered = [f"render check: {p}" for p in render_check(definition, screenshot_dir=screenshot_dir)]
    checks["renders in Chromium"] = "failed" if rendered else "ok"
    return Verdict(definition, problems + rendered, checks)
