"""A local fake OpenAI-compatible chat server: real HTTP on 127.0.0.1, scripted replies. It also
speaks Anthropic's Messages API (`POST /v1/messages`, what litellm sends for `anthropic/…` models),
with Anthropic's explicit prompt cache: a prefix ending at a `cache_control` block is written once and
read by later requests.

It stands in for a paid provider or a vLLM server at the network edge, and nothing else is faked:
litellm talks to it over its real OpenAI-compatible code path. Replies are scripted per model name
(so the Generator, the Discriminator in its sandboxed worker and the critics each get their own
queue, whatever order their calls interleave in), and every request is recorded for assertions.

Script items:
    Reply(content=…, tool_calls=[("name", {args} or "raw json text")], finish_reason=…)
    Status(500) / Status(429, headers={"retry-after": "0"})   an HTTP error body
    Hang(seconds)                                            sleep before answering (timeouts)
    Raw({...}, code=200)                                     this JSON body as it is (malformed replies)
An exhausted queue answers 418 with a message, so a test that under-scripts fails loudly.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections import defaultdict, deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import litellm


@dataclass
class Reply:
    content: str | None = None
    tool_calls: list[tuple[str, Any]] = field(default_factory=list)
    finish_reason: str | None = None


@dataclass
class Status:
    code: int
    message: str = "scripted failure"
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Hang:
    seconds: float
    then: Reply | None = None


@dataclass
class Raw:
    payload: dict[str, Any]
    code: int = 200


def _count_tokens(messages: list[dict], text: str | None = None) -> int:
    # litellm ships its tokenizers, so the usage the server reports is a real token count.
    if text is not None:
        return litellm.token_counter(model="gpt-4o", text=text)
    return litellm.token_counter(model="gpt-4o", messages=messages)


# OpenAI's automatic prompt caching: a prompt's longest prefix seen before in a request to the same
# model is served from cache, counted in steps of 128 tokens once it reaches 1,024
# (usage.prompt_tokens_details.cached_tokens); vLLM's and SGLang's prefix caches behave alike.
CACHE_MIN_TOKENS, CACHE_STEP = 1024, 128


def _prompt_tokens(body: dict) -> list[int]:
    """The request's messages as one token sequence (the tools are left out, as `prompt_tokens` is)."""
    parts = []
    for m in body.get("messages", []):
        content = m.get("content") or ""
        text = content if isinstance(content, str) else json.dumps(content)  # parts: text and images
        parts += [m.get("role", ""), text, json.dumps(m.get("tool_calls") or [])]
    return litellm.encode(model="gpt-4o", text="\x1e".join(parts))


def _common_prefix(a: list[int], b: list[int]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def opening_text(request: dict) -> str:
    """A request's opening messages (a system prompt, then the first user message) as one text."""
    opening = []
    for message in request["messages"]:
        content = message.get("content") or ""
        opening.append(content if isinstance(content, str) else json.dumps(content))
        if message["role"] == "user":
            break
    return "\n\n".join(opening)


def tool(name: str, **args: Any) -> tuple[str, Any]:
    return (name, args)


class FakeOpenAI:
    """Start with `with FakeOpenAI() as server:`; `server.base_url` is the `--api-base` to use."""

    def __init__(self) -> None:
        self.queues: dict[str, deque] = defaultdict(deque)
        self.requests: list[dict] = []
        self._seen: dict[str, list[list[int]]] = defaultdict(list)  # model -> earlier prompts' tokens
        self._written: dict[str, set[str]] = defaultdict(set)  # model -> prefixes in Anthropic's cache
        self._scope: dict[str, str] = {}  # model -> the model whose prompt cache it uses
        self._lock = threading.Lock()
        self._closing = threading.Event()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # keep pytest output clean
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                body["_headers"] = {k.lower(): v for k, v in self.headers.items()}  # for auth assertions
                body["_path"] = self.path
                anthropic = self.path.rstrip("/").endswith("/messages")
                fake._answer(self, body, fake._anthropic_message if anthropic else fake._completion)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def script(self, model: str, *items: Reply | Status | Hang | Raw) -> None:
        """Queue replies for requests whose `model` is `model` (the name after the provider prefix)."""
        with self._lock:
            self.queues[model].extend(items)

    def pending(self, model: str | None = None) -> int:
        with self._lock:
            return sum(len(q) for m, q in self.queues.items() if model in (None, m))

    def requests_for(self, model: str) -> list[dict]:
        return [r for r in self.requests if r.get("model") == model]

    def serve_as_one(self, *models: str) -> None:
        """Give `models` one prompt cache: they stand for roles of one model on one server (what
        `--model M` gives every role), whose replies are still scripted apart."""
        with self._lock:
            self._scope.update({m: models[0] for m in models})

    def _answer(self, handler: BaseHTTPRequestHandler, body: dict, render: Any) -> None:
        model = body.get("model", "")
        with self._lock:
            self.requests.append(body)
            queue = self.queues[model]
            item = queue.popleft() if queue else None
        if item is None:
            return self._send(
                handler, 418, {"error": {"message": f"fake server: no scripted reply left for {model!r}"}}
            )
        if isinstance(item, Hang):
            self._closing.wait(item.seconds)
            if item.then is None:
                return self._send(handler, 504, {"error": {"message": "hung"}})
            item = item.then
        if isinstance(item, Raw):
            return self._send(handler, item.code, item.payload)
        if isinstance(item, Status):
            return self._send(
                handler, item.code, {"error": {"message": item.message, "type": "server_error"}}, item.headers
            )
        self._send(handler, 200, render(model, body, item))

    def clear_prompt_cache(self) -> None:
        """Forget every prompt seen: the next request of each model is a cold one."""
        with self._lock:
            self._seen.clear()
            self._written.clear()

    def _cached_tokens(self, model: str, body: dict) -> int:
        tokens = _prompt_tokens(body)
        with self._lock:
            model = self._scope.get(model, model)
            seen = max((_common_prefix(tokens, earlier) for earlier in self._seen[model]), default=0)
            self._seen[model].append(tokens)
        return seen // CACHE_STEP * CACHE_STEP if seen >= CACHE_MIN_TOKENS else 0

    def _completion(self, model: str, body: dict, reply: Reply) -> dict:
        message: dict[str, Any] = {"role": "assistant", "content": reply.content}
        calls = []
        for name, args in reply.tool_calls:
            arguments = args if isinstance(args, str) else json.dumps(args)
            calls.append(
                {
                    "id": f"call_{uuid.uuid4().hex[:12]}",
                    "type": "function",
                    "function": {"name": name, "arguments": arguments},
                }
            )
        if calls:
            message["tool_calls"] = calls
        prompt = _count_tokens(body.get("messages", []))
        cached = self._cached_tokens(model, body)
        completion = _count_tokens(
            [], text=(reply.content or "") + "".join(c["function"]["arguments"] for c in calls)
        )
        return {
            "id": f"chatcmpl-{uuid.uuid4().hex[:12]}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": reply.finish_reason or ("tool_calls" if calls else "stop"),
                }
            ],
            "usage": {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
                "prompt_tokens_details": {"cached_tokens": min(cached, prompt)},
            },
        }

    def _anthropic_cache(self, model: str, body: dict) -> tuple[int, int, int]:
        """(uncached input, cache read, cache write) tokens of a Messages request: Anthropic caches the
        prefix (tools, system, messages, in that order) that ends at a `cache_control` block."""
        blocks: list[tuple[str, bool]] = [
            (json.dumps(t), "cache_control" in t) for t in body.get("tools", [])
        ]
        system = body.get("system") or []
        for part in [{"type": "text", "text": system}] if isinstance(system, str) else system:
            blocks.append((part.get("text", ""), "cache_control" in part))
        for message in body.get("messages", []):
            content = message.get("content")
            for part in [{"type": "text", "text": content}] if isinstance(content, str) else content or []:
                plain = {k: v for k, v in part.items() if k != "cache_control"}
                blocks.append((message["role"] + json.dumps(plain), "cache_control" in part))

        def prefix(i: int) -> str:
            return "\x1e".join(t for t, _ in blocks[: i + 1])

        total = _count_tokens([], text=prefix(len(blocks) - 1))
        marks = [i for i, (_, marked) in enumerate(blocks) if marked]
        # a breakpoint also finds what was written at any of the 20 block boundaries before it
        lookback = sorted({j for m in marks for j in range(max(0, m - 19), m + 1)})
        with self._lock:
            written = self._written[self._scope.get(model, model)]
            hits = [prefix(j) for j in lookback if prefix(j) in written]
            read = max((_count_tokens([], text=p) for p in hits), default=0)
            at_marks = {prefix(i): _count_tokens([], text=prefix(i)) for i in marks}
            fresh = [n for p, n in at_marks.items() if p not in written and n >= CACHE_MIN_TOKENS]
            write = max(0, max(fresh, default=0) - read)
            written.update(p for p, n in at_marks.items() if n >= CACHE_MIN_TOKENS)
        return total - read - write, read, write

    def _anthropic_message(self, model: str, body: dict, reply: Reply) -> dict:
        content: list[dict[str, Any]] = [{"type": "text", "text": reply.content}] if reply.content else []
        for name, args in reply.tool_calls:
            arguments = json.loads(args) if isinstance(args, str) else args
            content.append(
                {"type": "tool_use", "id": f"toolu_{uuid.uuid4().hex[:12]}", "name": name, "input": arguments}
            )
        uncached, read, write = self._anthropic_cache(model, body)
        output = _count_tokens(
            [], text=(reply.content or "") + "".join(json.dumps(a) for _, a in reply.tool_calls)
        )
        stop = {"length": "max_tokens"}.get(
            reply.finish_reason or "", "tool_use" if reply.tool_calls else "end_turn"
        )
        return {
            "id": f"msg_{uuid.uuid4().hex[:12]}",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": content,
            "stop_reason": stop,
            "usage": {
                "input_tokens": uncached,
                "output_tokens": output,
                "cache_read_input_tokens": read,
                "cache_creation_input_tokens": write,
            },
        }

    @staticmethod
    def _send(handler: BaseHTTPRequestHandler, code: int, payload: dict, headers: dict | None = None) -> None:
        data = json.dumps(payload).encode()
        try:
            handler.send_response(code)
            handler.send_header("content-type", "application/json")
            handler.send_header("content-length", str(len(data)))
            for key, value in (headers or {}).items():
                handler.send_header(key, value)
            handler.end_headers()
            handler.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout test): nothing to answer

    def __enter__(self) -> FakeOpenAI:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._closing.set()
        self.httpd.shutdown()
        self.httpd.server_close()
