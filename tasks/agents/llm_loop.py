"""The bounded tool-calling loop of the LLM agents, and the parsing that keeps model output honest.

An agent turn: the model gets the conversation and the tool schemas; each tool call it makes is run
and its result appended; it ends by calling `submit` (validated by the role) or by answering in
text, whose fenced code blocks are then the submission. The loop is bounded by `max_steps` model
calls.

Everything a model can return that is not usable raises `AgentOutputError` with the parse error in
its message — the co-generation loop turns that into a failed round whose REVIEW quotes it to the
model: an empty reply, a reply truncated at the token limit, an oversized reply, tool arguments
that are not a JSON object, a text answer without the expected code blocks, a spent step budget.
A tool that fails (a snippet that crashes, a file that does not exist, a submission that does not
parse) is *not* a malformed reply: its error goes back to the model as the tool's result.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from infra.llm import LLMClient, LLMReply, ToolCall
from tasks.agents.base import AgentOutputError

T = TypeVar("T")

MAX_REPLY_CHARS = 200_000  # a script is a few KB; a reply this long is a runaway model, not a script
MAX_TOOL_RESULT_CHARS = 6_000  # what one tool result may add to the conversation (tokens cost money)
QUOTE_CHARS = 200  # how much of a bad reply an error quotes back
# A tool result is re-sent with every later call of the turn. Once the model has taken FRESH_STEPS more
# steps after it, a long one is cut to its head: the model acted on it already, and can call the tool
# again. Cut once, the message stays the same, so a server's prefix cache hits again from the next call.
FRESH_STEPS = 2
STALE_RESULT_CHARS = 600
_STALE_MARK = "… [the rest of this earlier tool output"

_FENCE = re.compile(
    r"^(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=fence)[ \t]*$",
    re.MULTILINE | re.DOTALL,
)


class ToolError(Exception):
    """A tool could not do what the model asked; the message goes back to the model."""


@dataclass
class Tool:
    """One function the model may call. `run` returns the result text or raises ToolError."""

    name: str
    description: str
    parameters: dict[str, Any]
    run: Callable[[dict[str, Any]], str]

    def schema(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }


def params_schema(
    required: dict[str, str],
    optional: dict[str, str] | None = None,
    enums: dict[str, list[str]] | None = None,
) -> dict[str, Any]:
    """A JSON schema of string parameters: {name: description}."""
    props: dict[str, Any] = {}
    for name, text in {**required, **(optional or {})}.items():
        props[name] = {"type": "string", "description": text}
        if enums and name in enums:
            props[name]["enum"] = enums[name]
    return {"type": "object", "properties": props, "required": list(required)}


@dataclass
class Submit:
    """The terminal tool: `validate` turns its arguments into the result or raises ToolError."""

    description: str
    parameters: dict[str, Any]
    validate: Callable[[dict[str, Any]], Any]
    parse_text: Callable[[str], Any]  # fallback for a text answer; raises AgentOutputError

    def tool(self) -> Tool:
        return Tool("submit", self.description, self.parameters, lambda args: "")


def _quote(text: str) -> str:
    text = text.strip()
    return repr(text[:QUOTE_CHARS] + ("…" if len(text) > QUOTE_CHARS else ""))


def drop_stale_tool_output(messages: list[dict[str, Any]], *, fresh_steps: int = FRESH_STEPS) -> int:
    """Cut tool results older than the last `fresh_steps` assistant turns to STALE_RESULT_CHARS, in
    place (a cut one is marked and never cut again); returns how many characters were dropped."""
    turns = [i for i, m in enumerate(messages) if m.get("role") == "assistant"]
    if len(turns) <= fresh_steps:
        return 0
    horizon = turns[-fresh_steps]
    dropped = 0
    for message in messages[:horizon]:
        text = message.get("content")
        if message.get("role") != "tool" or not isinstance(text, str) or len(text) <= STALE_RESULT_CHARS:
            continue
        if _STALE_MARK in text:
            continue
        head = text[: STALE_RESULT_CHARS - 200]
        message["content"] = (
            f"{head}\n{_STALE_MARK} ({len(text) - len(head):,} characters) was dropped to keep the "
            "conversation short; call the tool again if you need it]"
        )
        dropped += len(text) - len(message["content"])
    return dropped


def check_reply(reply: LLMReply, *, max_chars: int = MAX_REPLY_CHARS) -> None:
    """Raise AgentOutputError for a reply that is empty, truncated or oversized."""
    size = len(reply.content or "") + sum(len(c.arguments) for c in reply.tool_calls)
    if size > max_chars:
        raise AgentOutputError(
            f"the reply is {size:,} characters long, over the limit of {max_chars:,}; "
            f"it starts {_quote(reply.content or reply.tool_calls[0].arguments)}",
            hint="reply with the scripts only, well under the limit",
        )
    if reply.finish_reason == "length":
        raise AgentOutputError(
            f"the reply was cut off at the token limit (finish_reason=length) after {size:,} characters",
            hint="write shorter scripts; do not repeat data the script can generate",
        )
    if not reply.tool_calls and not (reply.content or "").strip():
        raise AgentOutputError(
            "the reply was empty: no text and no tool call",
            hint="call a tool, or answer with the fenced code blocks asked for",
        )


def parse_arguments(call: ToolCall) -> dict[str, Any]:
    """The call's arguments as a dict; AgentOutputError quoting the JSON error otherwise."""
    text = call.arguments.strip() or "{}"
    try:
        args = json.loads(text)
    except json.JSONDecodeError as exc:
        raise AgentOutputError(
            f"the arguments of tool call `{call.name}` are not valid JSON ({exc.msg} at "
            f"character {exc.pos}): {_quote(text)}",
            hint="tool arguments must be one JSON object; escape newlines and quotes in code",
        ) from None
    if not isinstance(args, dict):
        raise AgentOutputError(
            f"the arguments of tool call `{call.name}` are a JSON {type(args).__name__}, "
            f"not an object: {_quote(text)}",
            hint="pass arguments as a JSON object",
        )
    return args


@dataclass
class CodeBlock:
    info: str  # the text after the opening fence (language and maybe a file name)
    body: str
    before: str  # up to 200 characters preceding the block (a heading naming the file)


def code_blocks(text: str) -> list[CodeBlock]:
    """Every closed fenced code block of `text`; raises AgentOutputError for an unclosed one."""
    blocks, last_end = [], 0
    for m in _FENCE.finditer(text):
        blocks.append(
            CodeBlock(
                m.group("info").strip(), m.group("body"), text[max(last_end, m.start() - 200) : m.start()]
            )
        )
        last_end = m.end()
    if re.search(r"^(`{3,}|~{3,})", text[last_end:], re.MULTILINE):
        raise AgentOutputError(
            f"a fenced code block is opened but never closed (truncated reply?): {_quote(text[last_end:])}",
            hint="close every ``` block",
        )
    return blocks


def no_code_error(text: str, wanted: str) -> AgentOutputError:
    return AgentOutputError(
        f"no fenced code block in the reply (expected {wanted}); the reply was {_quote(text)}",
        hint="call `submit`, or answer with the fenced ```python blocks asked for",
    )


@dataclass
class AgentLoop:
    """Runs one agent turn to a submission. `tags` go on every call record (task_id, round)."""

    client: LLMClient
    tools: list[Tool]
    submit: Submit
    max_steps: int = 12
    tags: dict[str, Any] = field(default_factory=dict)
    steps_used: int = 0

    def _answer(self, call: ToolCall, args: dict[str, Any], by_name: dict[str, Tool]) -> str:
        tool = by_name.get(call.name)
        if tool is None:
            return f"error: no tool named {call.name!r}; available: {', '.join(sorted(by_name))}"
        try:
            result = tool.run(args)
        except ToolError as exc:
            result = f"error: {exc}"
        except (KeyError, TypeError) as exc:  # a missing or mistyped argument: tell the model which
            result = f"error: bad arguments for {call.name}: {type(exc).__name__}: {exc}"
        if len(result) > MAX_TOOL_RESULT_CHARS:
            half = MAX_TOOL_RESULT_CHARS // 2
            result = f"{result[:half]}\n… [{len(result) - MAX_TOOL_RESULT_CHARS:,} characters cut] …\n{result[-half:]}"
        return result

    def run(self, messages: list[dict[str, Any]]) -> Any:
        """The validated submission; raises AgentOutputError (malformed reply, budget spent) or LLMError."""
        by_name = {t.name: t for t in self.tools}
        schemas = [t.schema() for t in self.tools] + [self.submit.tool().schema()]
        last_rejection = ""
        for step in range(1, self.max_steps + 1):
            self.steps_used = step
            drop_stale_tool_output(messages)
            reply = self.client.complete(messages, tools=schemas, tags={**self.tags, "step": step})
            check_reply(reply)
            if not reply.tool_calls:
                return self.submit.parse_text(reply.content or "")
            messages.append(reply.assistant_message())
            for call in reply.tool_calls:
                args = parse_arguments(call)
                if call.name == "submit":
                    try:
                        return self.submit.validate(args)
                    except ToolError as exc:
                        last_rejection = str(exc)
                        result = f"submission rejected: {exc}"
                else:
                    result = self._answer(call, args, by_name)
                messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
            if step == self.max_steps - 1:  # one call left: say so, or the budget runs out mid-exploration
                messages.append({"role": "user", "content": "You have one step left: call `submit` now."})
        why = f"; the last submission was rejected: {last_rejection}" if last_rejection else ""
        raise AgentOutputError(
            f"no accepted submission within the step budget of {self.max_steps} model calls{why}",
            hint="test less and submit earlier; fix what the last rejection names",
        )
