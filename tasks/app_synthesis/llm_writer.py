"""The LLM app writer: a model writes the definition, the checks and a reviewer model answer it, for
at most `rounds` rounds (as co-generation's Generator and Discriminator do for tuples).

Each round's reply is parsed (one YAML block), judged (accept.py), and, once the mechanical checks
pass, reviewed by the app_reviewer role for fit to the description. Whatever failed goes back to the
writer as the next user message; a malformed reply is a failed round with a clear reason, never a
crash.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from infra.hub.engine import APPS_DIR, AppDefinition
from infra.hub.engine.definition import Archetype
from infra.llm import LLMClient
from tasks.app_synthesis.accept import Verdict, judge_definition
from tasks.prompts import render_messages

EXAMPLE_APP = "deskly"
_YAML_BLOCK = re.compile(r"```(?:yaml|yml)?\s*\n(.*?)```", re.DOTALL)


@dataclass
class Round:
    number: int
    problems: list[str]
    checks: dict[str, str]
    review: str = "not run"


@dataclass
class WriterResult:
    definition: AppDefinition | None
    rounds: list[Round] = field(default_factory=list)

    @property
    def accepted(self) -> bool:
        return self.definition is not None


def parse_reply(text: str | None) -> Any:
    """The definition a reply carries: its ```yaml block (or the whole reply), as data."""
    if not text or not text.strip():
        raise ValueError("the reply was empty")
    match = _YAML_BLOCK.search(text)
    try:
        data = yaml.safe_load(match.group(1) if match else text)
    except yaml.YAMLError as exc:
        raise ValueError(f"the reply's YAML does not parse: {str(exc)[:300]}") from None
    if not isinstance(data, dict):
        raise ValueError(f"the reply holds a {type(data).__name__}, not a mapping of the definition's fields")
    return data


def parse_review(text: str | None) -> tuple[bool, list[str]]:
    """(accept?, problems) from the reviewer's JSON; an unreadable review asks for nothing."""
    try:
        start, end = (text or "").index("{"), (text or "").rindex("}") + 1
        review = json.loads(text[start:end])
        problems = [str(p) for p in review.get("problems", []) if str(p).strip()]
        return review.get("verdict") != "revise" or not problems, problems
    except (ValueError, AttributeError):
        return True, []


def write_with_llm(
    writer: LLMClient,
    description: str,
    *,
    name: str | None = None,
    rounds: int = 5,
    reviewer: LLMClient | None = None,
    screenshot_dir: Path | None = None,
) -> WriterResult:
    schema = json.dumps(AppDefinition.model_json_schema(), separators=(",", ":"))
    example = (APPS_DIR / EXAMPLE_APP / "definition.yaml").read_text(encoding="utf-8")
    messages = render_messages(
        "app_writer",
        schema=schema,
        archetypes=", ".join(a.value for a in Archetype),
        example=example,
        description=description,
        name=name,
    )
    result = WriterResult(None)
    for number in range(1, rounds + 1):
        reply = writer.complete(messages, tags={"round": number, "app": name or ""})
        messages.append({"role": "assistant", "content": reply.content or ""})
        try:
            data = parse_reply(reply.content)
            if name:
                data["name"] = name
            verdict = judge_definition(data, screenshot_dir=screenshot_dir)
        except ValueError as exc:
            verdict = Verdict(None, [str(exc)], {"validates": "failed"})
        entry = Round(number, list(verdict.problems), dict(verdict.checks))
        result.rounds.append(entry)
        if verdict.accepted and reviewer is not None:
            assert verdict.definition is not None
            ok, asks = _review(reviewer, description, verdict.definition, number)
            entry.review = "accept" if ok else "revise"
            if not ok:
                entry.problems = [f"review: {p}" for p in asks]
        elif verdict.accepted:
            entry.review = "no reviewer"
        if verdict.accepted and not entry.problems:
            result.definition = verdict.definition
            return result
        feedback = "\n".join(f"- {p}" for p in entry.problems)
        messages.append(
            {
                "role": "user",
                "content": f"The definition was not accepted:\n{feedback}\nReply with the whole corrected definition.",
            }
        )
    return result


def _review(reviewer: LLMClient, description: str, definition: AppDefinition, number: int):
    text = yaml.safe_dump(definition.model_dump(mode="json", exclude_none=True), sort_keys=False)
    reply = reviewer.complete(
        render_messages("app_reviewer", description=description, definition=text), tags={"round": number}
    )
    return parse_review(reply.content)
