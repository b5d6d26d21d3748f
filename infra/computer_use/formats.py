"""Tool calls in the two Qwen output formats (and OpenAI's), read and written.

- Hermes JSON (Qwen2.5-VL, Qwen3-VL): `<tool_call>{"name": "computer_use", "arguments": {…}}</tool_call>`,
  `arguments` possibly a JSON string;
- XML function form (Qwen3-Coder, Qwen3.5, the paper's models):
  `<tool_call><function=computer_use><parameter=action>left_click</parameter>…</function></tool_call>`,
  a value read as JSON when it looks like JSON (lists, numbers, booleans), else as text;
- OpenAI `tool_calls` (what an OpenAI-compatible server returns when it parses the calls itself).

A reply may hold several calls (RL-trained models batch them) and prose around them ("Action: …",
a `</think>` block). What cannot be read — no call, bad JSON, a truncated block, an unknown tool, a
huge reply — is returned as `errors`, never raised: the episode records a failed step and goes on.

Example:
    >>> parse_reply('Action: open it.\\n<tool_call>{"name": "computer_use", "arguments": {"action": "key", '
    ...             '"keys": ["ctrl", "o"]}}</tool_call>').calls
    [ToolCall(name='computer_use', arguments={'action': 'key', 'keys': ['ctrl', 'o']})]
"""

from __future__ import annotations

import json
import re
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, Field

TOOL_NAME = "computer_use"
MAX_REPLY_CHARS = 64_000  # a reply longer than this is a runaway generation, not a step
_BLOCK = re.compile(r"<tool_call>(.*?)</tool_call>", re.S)
_FUNCTION = re.compile(r"<function=([^>\s]+)>(.*?)</function>", re.S)
_PARAMETER = re.compile(r"<parameter=([^>\s]+)>(.*?)</parameter>", re.S)


class ToolFormat(StrEnum):
    HERMES = "hermes"  # Qwen2.5-VL, Qwen3-VL, Qwen3-Instruct
    XML = "xml"  # Qwen3-Coder, Qwen3.5


class ToolCall(BaseModel):
    name: str
    arguments: dict[str, Any]


class ParsedReply(BaseModel):
    calls: list[ToolCall] = Field(default_factory=list)
    errors: list[str] = Field(default_factory=list)


def parse_reply(text: str | None, openai_calls: list[dict] | None = None) -> ParsedReply:
    """Every tool call in a model reply, in order, and what could not be read."""
    text = text or ""
    if len(text) > MAX_REPLY_CHARS:
        return ParsedReply(
            errors=[f"reply is {len(text)} characters, over {MAX_REPLY_CHARS}: a runaway generation"]
        )
    reply = ParsedReply()
    for call in openai_calls or []:
        _add(reply, *_openai(call))
    for body in _BLOCK.findall(text):
        _add(reply, *(_xml(body) if "<function=" in body else _hermes(body)))
    tail = text.rsplit("</tool_call>", 1)[-1]
    if "<tool_call>" in tail:
        reply.errors.append("a <tool_call> block is not closed: the reply was cut off")
    if not reply.calls and not reply.errors:
        reply.errors.append("no tool call in the reply")
    return reply


def _add(reply: ParsedReply, call: ToolCall | None, error: str | None) -> None:
    if error is not None:
        reply.errors.append(error)
    elif call is not None and call.name != TOOL_NAME:
        reply.errors.append(f"unknown tool {call.name!r}; the only tool is {TOOL_NAME}")
    elif call is not None:
        reply.calls.append(call)


def _arguments(value: Any) -> tuple[dict | None, str | None]:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError as exc:
            return None, f"tool call arguments are not JSON: {exc}"
    if not isinstance(value, dict):
        return None, f"tool call arguments are a {type(value).__name__}, not an object"
    return value, None


def _hermes(body: str) -> tuple[ToolCall | None, str | None]:
    try:
        data = json.loads(body.strip())
    except ValueError as exc:
        return None, f"tool call is not JSON: {exc}: {body.strip()[:120]!r}"
    if not isinstance(data, dict) or "name" not in data:
        return None, f"tool call has no name: {body.strip()[:120]!r}"
    arguments, error = _arguments(data.get("arguments", data.get("parameters", {})))
    return (ToolCall(name=str(data["name"]), arguments=arguments), None) if error is None else (None, error)


def _xml(body: str) -> tuple[ToolCall | None, str | None]:
    match = _FUNCTION.search(body)
    if match is None:
        return None, f"tool call has no closed <function=…> element: {body.strip()[:120]!r}"
    name, inner = match.groups()
    arguments = {key: _xml_value(key, raw) for key, raw in _PARAMETER.findall(inner)}
    return ToolCall(name=name, arguments=arguments), None


def _xml_value(key: str, raw: str) -> Any:
    # One newline on each side is the form's framing (`<parameter=k>\nvalue\n</parameter>`); only that
    # is cut, as vLLM's qwen3_coder parser does, so a text ending in a newline (Enter) survives.
    value = raw.removeprefix("\n").removesuffix("\n")
    stripped = value.strip()
    # Models also quote a plain value (`<parameter=keys>"ctrl+l"</parameter>`): a JSON string is its text.
    looks_like_json = bool(stripped) and (
        stripped[0] in '[{0123456789-"' or stripped in ("true", "false", "null")
    )
    if key != "text" and looks_like_json:
        try:
            return json.loads(stripped)
        except ValueError:
            pass
    if key == "text":  # models write a newline or tab in type text as an escape
        return value.replace("\\n", "\n").replace("\\t", "\t")
    if len(stripped) > 1 and stripped[0] == stripped[-1] == "'":  # a Python-style quoted value
        return stripped[1:-1]
    return stripped


def _openai(call: dict) -> tuple[ToolCall | None, str | None]:
    function = call.get("function") or {}
    arguments, error = _arguments(function.get("arguments", "{}"))
    if error is not None:
        return None, error
    return ToolCall(name=str(function.get("name", "")), arguments=arguments), None


def render_calls(calls: list[dict[str, Any]], fmt: ToolFormat) -> str:
    """Tool calls written as a model of that format writes them (for SFT targets)."""
    blocks = []
    for arguments in calls:
        if fmt is ToolFormat.HERMES:
            blocks.append(json.dumps({"name": TOOL_NAME, "arguments": arguments}, ensure_ascii=False))
            continue
        params = "".join(
            f"<parameter={key}>\n{value if isinstance(value, str) else json.dumps(value)}\n</parameter>\n"
            for key, value in arguments.items()
        )
        blocks.append(f"<function={TOOL_NAME}>\n{params}</function>")
    return "\n".join(f"<tool_call>\n{block}\n</tool_call>" for block in blocks)
