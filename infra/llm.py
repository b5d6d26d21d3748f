"""The LLM gateway: every model call of every role goes through `LLMClient.complete`.

One client per role (its `RoleConfig` says model, api_base, timeout, retries, cache). A call:
- may be answered from the on-disk response cache, keyed by (model, messages, tools, params), so a
  rerun of the same prompts is reproducible and free;
- otherwise goes to litellm with the role's timeout and litellm's own retries off: this module
  retries, with exponential backoff (and the server's Retry-After when it sends one), only on
  429, 5xx, timeouts and dropped connections. Anything else (bad key, unknown model, bad request,
  context too long) fails at once, because a retry can only repeat it;
- marks the stable prefix for providers whose prompt cache needs explicit marks (Anthropic's
  `cache_control`, through litellm's injection points): the system message (the same for every task
  of an app) and the newest message (so a tool loop's next step reads the conversation so far from
  cache). OpenAI, vLLM and SGLang cache prefixes by themselves and get no marks;
- reports one `CallRecord` per try to the `sink` (token counts, cost when litellm knows the
  model's price, latency, outcome). infra imports nothing from tasks or warehouse: the tasks layer
  passes a sink that writes the records to the warehouse.

Raises `LLMUnavailableError` (a TransientError) when every try failed on something transient, and
`LLMError` for the rest; both carry the provider's message and a hint.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import random
import time
import uuid
import warnings
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from infra.errors import CuagymError, TransientError
from infra.library_env import apply_library_defaults
from infra.llm_config import RoleConfig

apply_library_defaults()  # before litellm is imported anywhere: it would fetch its price map online

log = logging.getLogger(__name__)

ERROR_TEXT_CHARS = 500


class LLMError(CuagymError):
    """A model call failed in a way retrying cannot fix (auth, unknown model, bad request)."""


class LLMUnavailableError(LLMError, TransientError):
    """Rate limits, 5xx or timeouts outlasted every retry; later may work."""


class ToolCall(BaseModel):
    id: str
    name: str
    arguments: str  # raw JSON text as the model wrote it: parsing (and failing) is the caller's job


class LLMReply(BaseModel):
    """One assistant turn. `content` may be None (tool calls only) or arbitrarily large."""

    content: str | None = None
    tool_calls: list[ToolCall] = Field(default_factory=list)
    finish_reason: str | None = None
    model: str = ""
    input_tokens: int = 0
    cached_input_tokens: int = 0  # of input_tokens, what the provider's prompt cache served
    output_tokens: int = 0
    cost_usd: float | None = None
    cached: bool = False

    def assistant_message(self) -> dict[str, Any]:
        """This reply as the next request's assistant message (OpenAI shape)."""
        msg: dict[str, Any] = {"role": "assistant", "content": self.content}
        if self.tool_calls:
            msg["tool_calls"] = [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                for c in self.tool_calls
            ]
        return msg


class CallRecord(BaseModel):
    """One try of one call, as the warehouse stores it. status: ok | cached | retry | error."""

    call_id: str = Field(default_factory=lambda: uuid.uuid4().hex)
    role: str
    model: str
    status: str
    error_kind: str | None = None
    error: str | None = None
    try_no: int = 1
    input_tokens: int = 0
    cached_input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None
    latency_s: float = 0.0
    started_at: datetime = Field(default_factory=lambda: datetime.now(UTC))
    tags: dict[str, Any] = Field(default_factory=dict)  # task_id, round, step: where the call belongs


CallSink = Callable[[CallRecord], None]


# litellm's pydantic models warn about TypedDict qualifiers when first built: noise for our users.
warnings.filterwarnings("ignore", message=r".*using the `ReadOnly` qualifier", category=UserWarning)


def _litellm():
    import litellm

    litellm.suppress_debug_info = True  # its "Give Feedback" banner on every exception
    litellm.drop_params = True  # a provider that lacks e.g. temperature gets the call without it
    return litellm


# Providers whose prompt cache serves only prefixes marked with `cache_control` (Claude on Anthropic's
# API, on Bedrock and on Vertex AI); two of the four marks Anthropic allows per request are used.
_MARKED_CACHE_PROVIDERS = frozenset({"anthropic", "bedrock", "vertex_ai", "vertex_ai_beta"})
CACHE_MARKS = ({"location": "message", "role": "system"}, {"location": "message", "index": -1})


def cache_marks(model: str) -> list[dict[str, Any]]:
    """The litellm `cache_control_injection_points` a call to `model` gets: none where the provider
    caches prefixes by itself (an unmarked request costs nothing there)."""
    try:
        _, provider, _, _ = _litellm().get_llm_provider(model)
    except Exception:  # a model string litellm cannot place: the call itself will say why
        return []
    if provider == "anthropic" or (provider in _MARKED_CACHE_PROVIDERS and "claude" in model.lower()):
        return [dict(mark) for mark in CACHE_MARKS]
    return []


def classify(exc: Exception) -> tuple[str, bool]:
    """(error kind, retryable) for an exception raised by litellm.completion."""
    ll = _litellm()
    status = getattr(exc, "status_code", None)
    for kind, types, retry in (
        ("timeout", (ll.Timeout,), True),
        ("rate_limited", (ll.RateLimitError,), True),
        ("context_window", (ll.ContextWindowExceededError,), False),
        ("auth", (ll.AuthenticationError, ll.PermissionDeniedError), False),
        ("not_found", (ll.NotFoundError,), False),
        ("bad_request", (ll.BadRequestError, ll.UnprocessableEntityError), False),
        ("server_error", (ll.InternalServerError, ll.ServiceUnavailableError, ll.BadGatewayError), True),
        ("connection", (ll.APIConnectionError,), True),
    ):
        if isinstance(exc, types):
            return kind, retry
    if isinstance(status, int) and (status >= 500 or status in (408, 429)):
        return "server_error", True
    return (f"http_{status}" if isinstance(status, int) else "unexpected"), False


def _retry_after(exc: Exception) -> float | None:
    """The server's Retry-After in seconds, if it sent one (litellm keeps the raw headers aside)."""
    for headers in (
        getattr(exc, "litellm_response_headers", None),
        getattr(getattr(exc, "response", None), "headers", None),
    ):
        try:
            return float((headers or {}).get("retry-after"))
        except (TypeError, ValueError, AttributeError):
            continue
    return None


class ResponseCache:
    """Replies on disk, one JSON file per key; writes are atomic (a killed run leaves no half file)."""

    def __init__(self, root: Path) -> None:
        self.root = root

    @staticmethod
    def key(model: str, messages: Sequence[dict], tools: Sequence[dict] | None, params: dict) -> str:
        blob = json.dumps(
            {"model": model, "messages": messages, "tools": tools, "params": params},
            sort_keys=True,
            default=str,
        )
        return hashlib.sha256(blob.encode()).hexdigest()

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> LLMReply | None:
        try:
            return LLMReply.model_validate_json(self._path(key).read_text())
        except FileNotFoundError:
            return None
        except ValueError:  # a corrupt entry is a miss, and the fresh reply replaces it
            log.warning("ignoring unreadable cache entry %s", self._path(key))
            return None

    def put(self, key: str, reply: LLMReply) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}")
        tmp.write_text(reply.model_dump_json())
        os.replace(tmp, path)


class LLMClient:
    """Calls one role's model. Thread-safe: no state is kept between calls besides the config."""

    def __init__(
        self, config: RoleConfig, *, sink: CallSink | None = None, sleep: Callable[[float], None] = time.sleep
    ) -> None:
        self.config = config
        self.sink = sink
        self.sleep = sleep
        self.cache = ResponseCache(Path(config.cache_dir)) if config.cache_dir else None

    @property
    def role(self) -> str:
        return self.config.role

    @property
    def model(self) -> str:
        return self.config.model

    def _params(self) -> dict[str, Any]:
        params: dict[str, Any] = {"max_tokens": self.config.max_tokens}
        if self.config.temperature is not None:
            params["temperature"] = self.config.temperature
        return params

    def _emit(self, record: CallRecord) -> None:
        if self.sink is not None:
            self.sink(record)

    def complete(
        self,
        messages: list[dict[str, Any]],
        *,
        tools: list[dict] | None = None,
        tags: dict[str, Any] | None = None,
    ) -> LLMReply:
        """One assistant turn for `messages` (OpenAI chat format), offering `tools` if given.

        Raises LLMUnavailableError when 1 + max_retries tries all failed on something transient,
        LLMError at once on anything else. Every try is reported to the sink, successful or not.
        """
        cfg, tags = self.config, dict(tags or {})
        params = self._params()
        key = ResponseCache.key(cfg.model, messages, tools, params) if self.cache else ""
        if self.cache and (hit := self.cache.get(key)) is not None:
            self._emit(
                CallRecord(
                    role=cfg.role,
                    model=cfg.model,
                    status="cached",
                    input_tokens=hit.input_tokens,
                    output_tokens=hit.output_tokens,
                    cost_usd=0.0,
                    tags=tags,
                )
            )
            return hit.model_copy(update={"cached": True, "cost_usd": 0.0})
        tries = 1 + cfg.max_retries
        for try_no in range(1, tries + 1):
            started, t0 = datetime.now(UTC), time.monotonic()
            try:
                reply = self._call(messages, tools, params)
            except Exception as exc:  # litellm raises many types; classify() sorts them
                kind, retryable = classify(exc)
                last = try_no == tries or not retryable
                text = f"{type(exc).__name__}: {exc}"[:ERROR_TEXT_CHARS]
                self._emit(
                    CallRecord(
                        role=cfg.role,
                        model=cfg.model,
                        status="error" if last else "retry",
                        error_kind=kind,
                        error=text,
                        try_no=try_no,
                        started_at=started,
                        latency_s=round(time.monotonic() - t0, 4),
                        tags=tags,
                    )
                )
                if not retryable:
                    raise LLMError(
                        f"{cfg.role} model {cfg.model} failed ({kind}): {text}", hint=_hint(kind, cfg)
                    ) from None
                if last:
                    raise LLMUnavailableError(
                        f"{cfg.role} model {cfg.model} failed {tries} time(s), last ({kind}): {text}",
                        hint="the provider is overloaded or down; retry later, or raise "
                        "max_retries / timeout_s",
                    ) from None
                delay = min(cfg.max_backoff_s, _retry_after(exc) or cfg.backoff_s * 2 ** (try_no - 1))
                log.info("%s call to %s: %s, retrying in %.1f s", cfg.role, cfg.model, kind, delay)
                self.sleep(
                    delay * (1 + random.random() * 0.1)
                )  # jitter: parallel workers do not retry in step
                continue
            self._emit(
                CallRecord(
                    role=cfg.role,
                    model=cfg.model,
                    status="ok",
                    try_no=try_no,
                    started_at=started,
                    input_tokens=reply.input_tokens,
                    cached_input_tokens=reply.cached_input_tokens,
                    output_tokens=reply.output_tokens,
                    cost_usd=reply.cost_usd,
                    latency_s=round(time.monotonic() - t0, 4),
                    tags=tags,
                )
            )
            if self.cache:
                self.cache.put(key, reply)
            return reply
        raise AssertionError("unreachable: the loop returns or raises")

    def _call(self, messages: list[dict], tools: list[dict] | None, params: dict) -> LLMReply:
        ll = _litellm()
        kwargs: dict[str, Any] = {
            "model": self.config.model,
            "messages": messages,
            "timeout": self.config.timeout_s,
            "num_retries": 0,
            "max_retries": 0,
            **params,
        }
        if self.config.api_base:
            kwargs["api_base"] = self.config.api_base
        if tools:
            kwargs["tools"] = tools
        if marks := cache_marks(self.config.model):
            kwargs["cache_control_injection_points"] = marks
        response = ll.completion(**kwargs)
        choice = response.choices[0]
        message = choice.message
        calls = [
            ToolCall(id=c.id or f"call_{i}", name=c.function.name or "", arguments=c.function.arguments or "")
            for i, c in enumerate(message.tool_calls or [])
        ]
        usage = getattr(response, "usage", None)
        try:
            cost = float(ll.completion_cost(completion_response=response))
        except Exception:  # litellm has no price for this model (a local server): unknown, not zero
            cost = None
        return LLMReply(
            content=message.content,
            tool_calls=calls,
            finish_reason=choice.finish_reason,
            model=self.config.model,
            input_tokens=getattr(usage, "prompt_tokens", 0) or 0,
            cached_input_tokens=prompt_cache_hits(usage),
            output_tokens=getattr(usage, "completion_tokens", 0) or 0,
            cost_usd=cost,
        )


def prompt_cache_hits(usage: Any) -> int:
    """Input tokens the provider's prompt cache served: litellm reports them in OpenAI's shape
    (`prompt_tokens_details.cached_tokens`) for OpenAI, vLLM and DeepSeek, and Anthropic's
    `cache_read_input_tokens` next to it."""
    details = getattr(usage, "prompt_tokens_details", None)
    cached = getattr(details, "cached_tokens", None) or getattr(usage, "cache_read_input_tokens", None)
    return int(cached or 0)


def _hint(kind: str, cfg: RoleConfig) -> str:
    return {
        "auth": "set the provider's API key env var (e.g. ANTHROPIC_API_KEY, OPENAI_API_KEY) for this process",
        "not_found": f"check the model name {cfg.model!r} (litellm form: provider/model) and --api-base",
        "context_window": "the conversation outgrew the model's context; lower the step budget or use a larger model",
        "bad_request": "the provider rejected the request; check the model supports tool calling",
    }.get(kind, "see the provider's message above")


def provider_env(model: str, environ: dict[str, str] | None = None) -> dict[str, str]:
    """The env vars a process calling `model` needs (its provider's keys and base URLs), e.g.
    ANTHROPIC_API_KEY for `anthropic/…`: what the sandboxed Discriminator worker is handed
    explicitly, since its environment is otherwise cleared."""
    environ = dict(os.environ if environ is None else environ)
    try:
        provider = _litellm().get_llm_provider(model)[1]
    except Exception:  # an unknown provider prefix: the call itself will say so, with its hint
        return {}
    prefixes = {provider.upper() + "_"}
    if provider in ("openai", "hosted_vllm", "text-completion-openai"):
        prefixes.add("OPENAI_")  # OpenAI-compatible servers fall back to OPENAI_API_KEY / _BASE_URL
    return {
        k: v
        for k, v in environ.items()
        if any(k.startswith(p) for p in prefixes)
        and k.endswith(("_API_KEY", "_API_BASE", "_BASE_URL", "_KEY", "_REGION_NAME", "_PROJECT"))
    }
