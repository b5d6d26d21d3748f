"""A local stand-in for `vllm serve`: real HTTP on 127.0.0.1, vLLM's protocol, a real model behind it.

It serves a save_pretrained folder the way vLLM does, on the CPU and with transformers instead of
vLLM's kernels: `GET /v1/models`; `POST /v1/chat/completions` rendering OpenAI-shaped messages
(image_url data URLs decoded, string contents as text parts — vLLM's "openai" content format)
with the folder's own chat template and processor, sampling from the full tempered distribution and
answering with vLLM's extra fields (`logprobs.content[].token` as `token_id:<id>` under
`return_tokens_as_token_ids`, `choices[].token_ids` and `prompt_token_ids` under `return_token_ids`);
and, like a server started with VLLM_SERVER_DEV_MODE=1, `POST /collective_rpc` (`reload_weights`
re-reads the folder) and `POST /reset_prefix_cache`. Log-probs are vLLM's `processed_logprobs`
(after the temperature) unless built with `logprobs_mode="raw_logprobs"`.

Knobs for failure tests: `served_name` (serve under another name), `dev_mode=False` (no dev
endpoints: 404), `logprobs=False` (a server that drops log-probs), `reloads=False` (a reload that
does nothing), `script(...)` (replies whose tokens are this text's, scored by the model), and
`fail_next(code)`. Every request body, reply and event is recorded for assertions.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import threading
import time
import uuid
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import torch
from PIL import Image

from training.sft import load_policy

MODEL_KEYS = ("input_ids", "attention_mask", "mm_token_type_ids", "pixel_values", "image_grid_thw")


def weights_digest(model: Any) -> str:
    """A digest of every parameter's values, to tell which weights a model holds."""
    digest = hashlib.sha256()
    for name, tensor in sorted(model.state_dict().items()):
        digest.update(name.encode())
        digest.update(tensor.detach().float().cpu().numpy().tobytes())
    return digest.hexdigest()[:16]


class FakeVLLM:
    """`with FakeVLLM(folder) as server:` — `server.url` is the address to give the client."""

    def __init__(
        self,
        folder: Path,
        *,
        served_name: str | None = None,
        dev_mode: bool = True,
        logprobs: bool = True,
        logprobs_mode: str = "processed_logprobs",
        reloads: bool = True,
        port: int = 0,
    ) -> None:
        self.folder, self.served_name = Path(folder), served_name or str(folder)
        self.dev_mode, self.logprobs, self.logprobs_mode, self.reloads = (
            dev_mode,
            logprobs,
            logprobs_mode,
            reloads,
        )
        self.model, self.processor = load_policy(str(folder))
        self.model.eval()
        self.requests: list[dict[str, Any]] = []  # chat request bodies
        self.replies: list[dict[str, Any]] = []  # chat replies sent
        self.events: list[str] = []  # "chat", "reload", "reset_prefix_cache", in order
        self._script: deque[str] = deque()
        self._failures: deque[int] = deque()
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                fake._route(self, "GET", None)

            def do_POST(self) -> None:
                # one intra-op thread per request thread: two OpenMP teams spinning on a small machine
                # (the test's and the server's) slow each other down many times over
                torch.set_num_threads(1)
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length)
                fake._route(self, "POST", json.loads(raw) if raw else {})

        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def script(self, *texts: str) -> None:
        """The next chat replies' texts (tokenized, closed with <|im_end|>, cut at max_tokens)."""
        self._script.extend(texts)

    def fail_next(self, code: int) -> None:
        self._failures.append(code)

    def digest(self) -> str:
        with self._lock:
            return weights_digest(self.model)

    # -- routing -------------------------------------------------------------------------------------

    def _route(self, handler: BaseHTTPRequestHandler, method: str, body: dict | None) -> None:
        path = handler.path.split("?")[0]
        if self._failures and path.startswith("/v1/chat"):
            code = self._failures.popleft()
            return _send(
                handler, code, {"error": {"message": "scripted failure", "type": "InternalServerError"}}
            )
        if method == "GET" and path == "/v1/models":
            return _send(handler, 200, self._models())
        if method == "POST" and path == "/v1/chat/completions":
            try:
                return _send(handler, *self._chat(body or {}))
            except (KeyError, ValueError) as exc:  # vLLM answers a malformed request with a 400
                return _send(handler, 400, {"error": {"message": str(exc), "type": "BadRequestError"}})
        if method == "POST" and self.dev_mode and path == "/collective_rpc":
            return _send(handler, *self._rpc(body or {}))
        if method == "POST" and self.dev_mode and path == "/reset_prefix_cache":
            self.events.append("reset_prefix_cache")
            return _send(handler, 200, None)
        _send(handler, 404, {"detail": "Not Found"})

    def _models(self) -> dict[str, Any]:
        entry = {"id": self.served_name, "object": "model", "created": int(time.time()), "owned_by": "vllm",
                 "root": str(self.folder), "parent": None, "max_model_len": 4096}  # fmt: skip
        return {"object": "list", "data": [entry]}

    def _rpc(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if body.get("method") != "reload_weights":
            return 500, {"error": {"message": f"worker has no method {body.get('method')!r}"}}
        with self._lock:
            if self.reloads:
                fresh, _ = load_policy(str(self.folder))
                self.model.load_state_dict(fresh.state_dict())
            self.events.append("reload")
        return 200, {"results": [None]}

    # -- chat ----------------------------------------------------------------------------------------

    def _chat(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if body.get("model") != self.served_name:
            return 404, {"error": {"message": f"The model `{body.get('model')}` does not exist.",
                                   "type": "NotFoundError", "param": "model", "code": 404}}  # fmt: skip
        messages, images = [], []
        for message in body["messages"]:
            content = message["content"]
            if isinstance(content, str):  # vLLM's "openai" content format: text parts
                content = [{"type": "text", "text": content}]
            parts = []
            for part in content:
                if part.get("type") == "image_url":
                    images.append(_decode_data_url(part["image_url"]["url"]))
                    parts.append({"type": "image"})
                else:
                    parts.append({"type": "text", "text": part["text"]})
            messages.append({"role": message["role"], "content": parts})
        text = self.processor.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        enc = self.processor(text=[text], images=images or None, return_tensors="pt")
        prompt = {k: enc[k] for k in MODEL_KEYS if k in enc}
        temperature = float(body.get("temperature", 1.0))
        max_tokens = int(body.get("max_tokens") or 16)
        stop = list(body.get("stop_token_ids") or []) + [self.processor.tokenizer.eos_token_id]
        with self._lock:
            self.requests.append(body)
            self.events.append("chat")
            if self._script:
                ids, logits = self._score(prompt, self._script.popleft(), max_tokens)
            else:
                ids, logits = self._generate(prompt, temperature, max_tokens, stop)
        scaled = logits / temperature if self.logprobs_mode == "processed_logprobs" else logits
        logps = torch.log_softmax(scaled.float(), -1).gather(-1, ids[:, None])[:, 0].tolist()
        reply = self._reply(body, prompt["input_ids"][0].tolist(), ids.tolist(), logps, stop, max_tokens)
        self.replies.append(reply)
        return 200, reply

    def _generate(self, prompt: dict, temperature: float, max_tokens: int, stop: list[int]):
        with torch.no_grad():
            out = self.model.generate(
                **prompt, do_sample=True, temperature=temperature, top_k=0, top_p=1.0,
                max_new_tokens=max_tokens, eos_token_id=stop,
                pad_token_id=self.processor.tokenizer.pad_token_id,
                return_dict_in_generate=True, output_logits=True,
            )  # fmt: skip
        ids = out.sequences[0, prompt["input_ids"].shape[1] :]
        return ids, torch.stack([step[0] for step in out.logits])

    def _score(self, prompt: dict, text: str, max_tokens: int):
        """A scripted reply's tokens and the model's logits at each of them (teacher-forced)."""
        tokenizer = self.processor.tokenizer
        ids = tokenizer(text, add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id]
        ids = torch.tensor(ids[:max_tokens])
        n = prompt["input_ids"].shape[1]
        inputs = dict(prompt, input_ids=torch.cat([prompt["input_ids"], ids[None]], 1))
        inputs["attention_mask"] = torch.ones_like(inputs["input_ids"])
        if "mm_token_type_ids" in prompt:  # the reply's tokens are text
            inputs["mm_token_type_ids"] = torch.nn.functional.pad(prompt["mm_token_type_ids"], (0, len(ids)))
        with torch.no_grad():
            logits = self.model(**inputs, use_cache=False).logits[0, n - 1 : -1]
        return ids, logits

    def _reply(self, body, prompt_ids, ids, logps, stop, max_tokens) -> dict[str, Any]:
        tokenizer = self.processor.tokenizer
        stopped = bool(ids) and ids[-1] in stop
        choice: dict[str, Any] = {
            "index": 0,
            "message": {"role": "assistant", "content": tokenizer.decode(ids, skip_special_tokens=True)},
            "logprobs": None,
            "finish_reason": "stop" if stopped or len(ids) < max_tokens else "length",
            "stop_reason": ids[-1] if stopped else None,
        }
        if body.get("logprobs") and self.logprobs:
            as_ids = body.get("return_tokens_as_token_ids")
            choice["logprobs"] = {"content": [
                {"token": f"token_id:{i}" if as_ids else tokenizer.decode([i]), "logprob": lp,
                 "bytes": list(tokenizer.decode([i]).encode()), "top_logprobs": []}
                for i, lp in zip(ids, logps, strict=True)
            ]}  # fmt: skip
        reply: dict[str, Any] = {
            "id": f"chatcmpl-{uuid.uuid4().hex[:12]}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": self.served_name,
            "choices": [choice],
            "usage": {
                "prompt_tokens": len(prompt_ids),
                "completion_tokens": len(ids),
                "total_tokens": len(prompt_ids) + len(ids),
            },  # fmt: skip
            "prompt_logprobs": None,
        }
        if body.get("return_token_ids"):
            choice["token_ids"] = ids
            reply["prompt_token_ids"] = prompt_ids
        return reply

    def __enter__(self) -> FakeVLLM:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _decode_data_url(url: str) -> Image.Image:
    head, _, data = url.partition(",")
    if not head.startswith("data:image/") or not head.endswith(";base64"):
        raise ValueError(f"fake vLLM: only base64 image data URLs, got {head[:40]!r}")
    with Image.open(io.BytesIO(base64.b64decode(data))) as image:
        return image.convert("RGB")


def _send(handler: BaseHTTPRequestHandler, code: int, payload: dict | None) -> None:
    data = b"" if payload is None else json.dumps(payload).encode()
    try:
        handler.send_response(code)
        handler.send_header("content-type", "application/json")
        handler.send_header("content-length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)
    except (BrokenPipeError, ConnectionResetError):
        pass
