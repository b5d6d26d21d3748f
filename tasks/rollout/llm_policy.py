"""The LLM policy: any litellm model drives the desktop through the `computer_use` tool.

The model family is a parameter (`FAMILIES`), never guessed from the model string: it fixes the
tool-call format the prompt asks for and the reply is read in, and the coordinate space:

    family       format (prompt / reply)       space      screenshots sent as
    qwen3.5      XML function form             relative   the screen's pixels (the server resizes)
    qwen3-vl     Hermes JSON                   relative   the screen's pixels (the server resizes)
    qwen2.5-vl   Hermes JSON                   resized    smart_resize'd here, so its pixels are the model's
    openai       native `tools` / tool_calls   screen     the screen's pixels; calls in screen pixels

`openai` is for any model litellm can call with tools (OpenAI, Anthropic, a vLLM server with a tool
parser): it works in screen pixels, the convention of general-purpose computer-use models, and its
`assistant_raw` is the reply's text followed by its calls written as Hermes blocks (so `fmt` is
Hermes and the text re-parses to the same calls). `space=` overrides a family's space.

The scaffold (CUA-Gym appendix C.1; the families, the system prompt, the user-turn wrapping and the
collapse rule live in infra/computer_use/conversation.py, which training/data.py rebuilds contexts with):
- a constant system prompt (prompts/computer_use_system.md.j2) with the tool's schema
  (prompts/computer_use_tool.yaml.j2), the screen's resolution as the model sees it ("1000x1000"
  for the relative grid), the family's call grammar and what ends an episode. For `openai` the
  schema travels as the request's `tools` instead;
- the task instruction as the first user message, with the first screenshot;
- per step one assistant turn (the reply verbatim) and one user turn with the next screenshot,
  wrapped as a tool response: `<tool_response>\\n`, the image, `\\n</tool_response>` as content parts
  (what Qwen's chat templates render a tool message as). For `openai`, one `tool` message per call
  (its result as JSON) and a user message with the screenshot. When the previous step went wrong
  (unreadable reply, failed calls) the wrapper also says what (prompts/computer_use_feedback.md.j2);
- at most `max_screenshots` (20) screenshots stay visible; older ones become the text
  "This screenshot has been collapsed." in place of the image (inside the wrapper). They collapse
  `collapse_block` (10) at a time: at the 21st screenshot the first 10 collapse, at the 31st the
  next 10. Between collapses every request extends the previous one (prefix caches hit), and the
  contexts are exactly what training's slicing (traj_slice_interval = 10) rebuilds.
  `collapse_block=1` gives a plain sliding window.

A policy never raises for what the model wrote or for a provider that stays down: no tool call,
bad JSON/XML, a truncated or huge reply, an unknown tool, an empty choice, a transport error after
the gateway's retries — each is a `PolicyStep` with `errors` (the raw text in `assistant_raw`);
the runner records a failed step and asks again. `calls` holds every call that could be read, so a
reply with one good and one broken block has both. A reply enters the history verbatim, with two
exceptions: one over MAX_REPLY_CHARS is kept cut to HISTORY_CUT_CHARS, and a native tool call
whose arguments are not a JSON object is kept with `{}` (servers re-parse the history and would
reject every later request); the next user turn says what was wrong. A call that got no reply
leaves no turn: the next step shows its new screenshot in the unanswered one's place. Only a
misconfiguration every call would repeat (a rejected API key, an unknown model) raises `LLMError`.

Sampling: temperature 0.7, max_tokens 3072 (the rollouts dataset's), top_p when given; `api_base`
for OpenAI-compatible vLLM / SGLang servers (model `hosted_vllm/<served name>`). The step budget
(80) is the runner's. `PolicyStep.seconds` is the wall time of the model call, retries included.
Serve Qwen models without a reasoning parser: the gateway keeps `content` only, so thinking a
server splits off into `reasoning_content` would be missing from `assistant_raw` and the history.
"""

from __future__ import annotations

import base64
import json
import time
from dataclasses import dataclass, field
from typing import Any

from infra.computer_use.conversation import (  # shared with training/data.py: the same contexts
    COLLAPSED,
    FAMILIES,
    FEEDBACK_TEMPLATE,
    Family,
    collapsed_count,
    model_png,
    render_template,
    resolve_family,
    shown_part,
    system_prompt,
    tool_schema,
    user_content,
)
from infra.computer_use.coords import Geometry, Space
from infra.computer_use.formats import (
    MAX_REPLY_CHARS,
    TOOL_NAME,
    ParsedReply,
    ToolFormat,
    parse_reply,
    render_calls,
)
from infra.contracts.policy import Observation, PolicyStep
from infra.contracts.task import TaskSpec
from infra.errors import ConfigError
from infra.llm import CallRecord, CallSink, LLMClient, LLMError, LLMReply
from infra.llm_config import RoleConfig

__all__ = [
    "COLLAPSED",
    "FAMILIES",
    "Family",
    "LLMPolicy",
    "collapsed_count",
    "resolve_family",
    "system_prompt",
]

ROLE = "agent"  # the gateway's role name for these calls (CallRecord.role)
HISTORY_CUT_CHARS = 4_000  # a runaway reply stays in the history this long
FATAL_KINDS = {"auth", "not_found"}  # every later call would fail the same way: raise, not a failed step


def screenshot_url(png: bytes, space: Space | Geometry) -> str:
    """The screenshot as a data URL; for the resized space, at the geometry's seen frame."""
    return "data:image/png;base64," + base64.b64encode(model_png(png, space)).decode("ascii")


class _Client(LLMClient):
    """The gateway, with top_p among the sampling parameters (RoleConfig has none)."""

    def __init__(self, config: RoleConfig, *, top_p: float | None, sink: CallSink | None) -> None:
        super().__init__(config, sink=sink)
        self.top_p = top_p

    def _params(self) -> dict[str, Any]:
        params = super()._params()
        if self.top_p is not None:
            params["top_p"] = self.top_p
        return params


@dataclass
class _Turn:
    """One user turn and the assistant turn answering it (None until the model answered)."""

    image_url: str
    feedback: str = ""
    tool_messages: list[dict[str, Any]] = field(default_factory=list)  # native: results of the last calls
    assistant: dict[str, Any] | None = None


@dataclass
class _Read:
    """What one reply gave: the raw text, the calls, the errors, and per native tool call its result
    slot (index into the calls) or why it could not be read."""

    raw: str
    parsed: ParsedReply
    native: list[tuple[str, int | None, str | None]] = field(default_factory=list)  # (id, call index, error)


class LLMPolicy:
    """A Policy (infra/contracts/policy.py) backed by any litellm model.

    Example:
        policy = LLMPolicy("hosted_vllm/Qwen/Qwen3.5-9B", "qwen3.5", api_base="http://gpu:8000/v1")
        policy.start(task, (1920, 1080), desktop=None)
        step = policy.step(Observation(step=0, screenshot_png=png, screen=(1920, 1080)))
        step.calls  # [{"action": "left_click", "coordinate": [500, 300]}]: model space (policy.space)
    """

    name = "llm"

    def __init__(
        self,
        model: str,
        family: str,
        *,
        api_base: str | None = None,
        temperature: float = 0.7,
        top_p: float | None = None,
        max_tokens: int = 3072,
        timeout_s: float = 120.0,
        max_retries: int = 3,
        backoff_s: float = 2.0,
        cache_dir: str | None = None,
        space: Space | None = None,
        min_pixels: int | None = None,
        max_pixels: int | None = None,
        max_screenshots: int = 20,
        collapse_block: int = 10,
        sink: CallSink | None = None,
    ) -> None:
        if max_screenshots < 1 or not 1 <= collapse_block <= max_screenshots:
            raise ConfigError(
                f"max_screenshots={max_screenshots}, collapse_block={collapse_block}",
                hint="need 1 <= collapse_block <= max_screenshots",
            )
        self.family = resolve_family(family)
        self.model = model
        self.space = Space(space) if space is not None else self.family.space
        # the served processor's pixel budget (vLLM's --mm-processor-kwargs), else the family's stock one
        self.geometry = self.family.geometry(self.space, min_pixels=min_pixels, max_pixels=max_pixels)
        self.fmt = self.family.fmt
        self.temperature, self.top_p, self.max_tokens = temperature, top_p, max_tokens
        self.max_screenshots, self.collapse_block = max_screenshots, collapse_block
        self._user_sink = sink
        self._last_record: CallRecord | None = None
        config = RoleConfig(
            role=ROLE,
            model=model,
            api_base=api_base,
            temperature=temperature,
            max_tokens=max_tokens,
            timeout_s=timeout_s,
            max_retries=max_retries,
            backoff_s=backoff_s,
            cache_dir=cache_dir,
        )
        self.client = _Client(config, top_p=top_p, sink=self._record)
        self._task: TaskSpec | None = None
        self._screen: tuple[int, int] = (0, 0)
        self._system = ""
        self._tools: list[dict[str, Any]] | None = None
        self._turns: list[_Turn] = []
        self._pending: _Turn | None = None
        self._last: _Read | None = None

    def _record(self, record: CallRecord) -> None:
        self._last_record = record  # its error_kind tells a fatal LLMError from a failed step
        if self._user_sink is not None:
            self._user_sink(record)

    # -- the Policy protocol -------------------------------------------------------------------------

    def start(self, task: TaskSpec, screen: tuple[int, int], desktop: Any) -> None:
        self._task, self._screen = task, tuple(screen)
        self._system = system_prompt(self.family, self.geometry, self._screen)
        self._tools = [tool_schema(self.geometry, self._screen)] if self.family.native_tools else None
        self._turns, self._pending, self._last = [], None, None

    def step(self, observation: Observation) -> PolicyStep:
        if self._task is None:
            raise RuntimeError("LLMPolicy.step before start")
        image = screenshot_url(observation.screenshot_png, self.geometry)
        if self._pending is None:
            self._pending = self._next_turn(image, observation)
        else:  # the model never answered the last screenshot: show this one in its place
            self._pending.image_url = image
        tags = {"task_id": self._task.id, "step": observation.step}
        self._last_record = None
        t0 = time.monotonic()
        try:
            reply = self.client.complete(self.messages(), tools=self._tools, tags=tags)
        except LLMError as exc:
            if self._last_record is not None and self._last_record.error_kind in FATAL_KINDS:
                raise
            return PolicyStep(
                errors=[f"model call failed: {exc.message}"], seconds=round(time.monotonic() - t0, 4)
            )
        seconds = round(time.monotonic() - t0, 4)
        read = self._read(reply)
        self._pending.assistant = self._assistant_message(reply, read)
        self._turns.append(self._pending)
        self._pending, self._last = None, read
        return PolicyStep(
            assistant_raw=read.raw,
            calls=[call.arguments for call in read.parsed.calls],
            errors=read.parsed.errors,
            seconds=seconds,
        )

    def close(self) -> None:
        self._turns, self._pending, self._last = [], None, None

    # -- the conversation ----------------------------------------------------------------------------

    def messages(self) -> list[dict[str, Any]]:
        """The request for the next call: system prompt, then the turns, old screenshots collapsed."""
        turns = self._turns + ([self._pending] if self._pending is not None else [])
        folded = collapsed_count(len(turns), self.max_screenshots, self.collapse_block)
        out: list[dict[str, Any]] = [{"role": "system", "content": self._system}]
        for n, turn in enumerate(turns):
            shown = shown_part(
                {"type": "image_url", "image_url": {"url": turn.image_url}}, collapsed=n < folded
            )
            if n and self.family.native_tools:
                out.extend(turn.tool_messages)
                content = ([{"type": "text", "text": turn.feedback}] if turn.feedback else []) + [shown]
            else:
                assert self._task is not None
                content = user_content(n, shown, instruction=self._task.instruction, feedback=turn.feedback)
            out.append({"role": "user", "content": content})
            if turn.assistant is not None:
                out.append(turn.assistant)
        return out

    def _next_turn(self, image: str, observation: Observation) -> _Turn:
        if not self._turns or self._last is None:
            return _Turn(image_url=image)
        results = observation.last_results
        echo = "; ".join(self._last.parsed.errors)  # the runner records the reply's errors as a result too
        failed = [
            {"action": r.get("action", "?"), "error": r.get("error") or "it did not run"}
            for r in results
            if not r.get("ok", True) and not (r.get("action") == "invalid" and r.get("error") == echo)
        ]
        if not self.family.native_tools:
            feedback = render_template(
                FEEDBACK_TEMPLATE, errors=self._last.parsed.errors, failed=failed
            ).strip()
            return _Turn(image_url=image, feedback=feedback)
        tool_messages = []
        for call_id, index, error in self._last.native:
            if error is not None:
                result: dict[str, Any] = {"ok": False, "error": error}
            elif index is not None and index < len(results):
                r = results[index]
                result = {"ok": bool(r.get("ok", True))}
                if r.get("error"):
                    result["error"] = r["error"]
            else:
                result = {"ok": False, "error": "not executed"}
            tool_messages.append({"role": "tool", "tool_call_id": call_id, "content": json.dumps(result)})
        native_errors = {error for _, _, error in self._last.native if error is not None}
        reply_errors = [e for e in self._last.parsed.errors if e not in native_errors]
        feedback = render_template(FEEDBACK_TEMPLATE, errors=reply_errors, failed=[]).strip()
        return _Turn(image_url=image, feedback=feedback, tool_messages=tool_messages)

    # -- reading a reply -----------------------------------------------------------------------------

    def _read(self, reply: LLMReply) -> _Read:
        content = reply.content or ""
        native: list[tuple[str, int | None, str | None]] = []
        if reply.tool_calls and len(content) <= MAX_REPLY_CHARS:
            parsed = ParsedReply()
            for tc in reply.tool_calls:  # one by one: each native call needs its own tool result
                one = parse_reply(None, [_openai_call(tc.name, tc.arguments)])
                if one.calls:
                    native.append((tc.id, len(parsed.calls), None))
                    parsed.calls.extend(one.calls)
                else:
                    native.append((tc.id, None, one.errors[0]))
                    parsed.errors.extend(one.errors)
            text = parse_reply(content)
            parsed.calls.extend(text.calls)  # calls written in the text too (a server without a parser)
            parsed.errors.extend(e for e in text.errors if e != "no tool call in the reply")
        else:
            parsed = parse_reply(content)
            native = [(tc.id, None, "not read: the reply is a runaway generation") for tc in reply.tool_calls]
        raw = _raw_with_calls(content, reply.tool_calls, self.fmt)
        if parsed.errors and reply.finish_reason == "length":
            parsed.errors.append(f"the reply was cut off at max_tokens ({self.max_tokens})")
        return _Read(raw=raw, parsed=parsed, native=native)

    def _assistant_message(self, reply: LLMReply, read: _Read) -> dict[str, Any]:
        """The reply as the history keeps it: verbatim (a runaway one cut)."""
        if self.family.native_tools:
            message = reply.assistant_message()
            # None beside tool calls, as providers send it (some reject an empty text block)
            message["content"] = _cut(reply.content) if reply.content else (None if reply.tool_calls else "")
            for call in message.get("tool_calls", []):  # servers re-parse them: bad JSON would fail
                if not isinstance(_json_object(call["function"]["arguments"]), dict):  # every later call
                    call["function"]["arguments"] = "{}"  # its tool result says what was wrong
            return message
        return {"role": "assistant", "content": _cut(read.raw)}


def _json_object(text: str | None) -> Any:
    try:
        return json.loads(text or "{}")
    except ValueError:
        return None


def _openai_call(name: str, arguments: str) -> dict[str, Any]:
    return {"function": {"name": name, "arguments": arguments or "{}"}}


def _raw_with_calls(content: str, tool_calls: list, fmt: ToolFormat) -> str:
    """The reply's text, followed by its native tool calls written in `fmt` (so it re-parses)."""
    blocks = []
    for tc in tool_calls:
        try:
            arguments: Any = json.loads(tc.arguments or "{}")
        except ValueError:
            arguments = tc.arguments  # kept as the model wrote it; the parse error is in `errors`
        if fmt is ToolFormat.XML and isinstance(arguments, dict) and tc.name == TOOL_NAME:
            blocks.append(render_calls([arguments], fmt))
            continue
        body = json.dumps({"name": tc.name, "arguments": arguments}, ensure_ascii=False)
        blocks.append(f"<tool_call>\n{body}\n</tool_call>")
    return "\n".join([content] + blocks if content else blocks)


def _cut(text: str) -> str:
    if len(text) <= MAX_REPLY_CHARS:
        return text
    return f"{text[:HISTORY_CUT_CHARS]}… [{len(text) - HISTORY_CUT_CHARS:,} characters cut]"
