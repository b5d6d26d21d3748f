"""A client for the parts of vLLM's OpenAI-compatible server that GSPO rollouts use.

- `GET /v1/models`: which model the server serves (GSPO refuses a server serving another one);
- `POST /v1/chat/completions` with vLLM's extra fields: `logprobs` with `return_tokens_as_token_ids`
  (each sampled token comes back as `token_id:<id>` with its log-prob) and `return_token_ids`
  (the reply carries `prompt_token_ids`, the prompt exactly as the server tokenized it, images
  expanded into their placeholder tokens);
- the weight reload, through the development endpoints (`VLLM_SERVER_DEV_MODE=1`):
  `POST /collective_rpc {"method": "reload_weights"}` makes every worker re-read the weights of the
  folder the server was started on, and `POST /reset_prefix_cache` drops the KV blocks the old
  weights computed, so no later request reuses them.

Why a reload from disk and not NCCL or CUDA IPC (TRL's `trl vllm-serve` `/init_communicator/` +
`/update_named_param/`, vLLM's `/init_weight_transfer_engine` + `/update_weights`): those need the
trainer and the server on separate GPUs (NCCL refuses two ranks on one device) or a pickled-handle
protocol that has changed shape across vLLM releases, and neither can be exercised without GPUs.
`reload_weights` over `/collective_rpc` has kept its shape across releases, works on one GPU or
several, across processes and machines sharing a file system, and its cost — one
`save_pretrained` plus one read per update — is seconds next to the minutes of desktop rollouts
an update costs.

Example:
    >>> server = VLLMServer("http://127.0.0.1:8000", "var/gspo/vllm-weights")  # doctest: +SKIP
    >>> server.check()["root"]                                                   # doctest: +SKIP
    'var/gspo/vllm-weights'
"""

from __future__ import annotations

from typing import Any

import httpx

from infra.errors import ConfigError, CuagymError, TransientError

SERVE_HINT = (
    "start it with `VLLM_SERVER_DEV_MODE=1 vllm serve WEIGHTS_DIR --logprobs-mode processed_logprobs "
    "--chat-template-content-format openai` and set vllm_url to its address"
)


class VLLMError(CuagymError):
    """The vLLM server refused a request or answered something GSPO cannot train on."""


class VLLMUnavailableError(VLLMError, TransientError):
    """The vLLM server could not be reached, timed out, or failed with a 5xx."""


def server_root(url: str) -> str:
    """The server's root URL: the OpenAI routes live under /v1, the development ones at the root."""
    root = url.rstrip("/")
    return root[: -len("/v1")] if root.endswith("/v1") else root


class VLLMServer:
    """One vLLM server serving `model` (thread-safe: episodes in threads share it)."""

    def __init__(self, url: str, model: str, *, timeout_s: float = 600.0) -> None:
        self.url, self.model = server_root(url), model
        self._http = httpx.Client(base_url=self.url, timeout=httpx.Timeout(timeout_s, connect=10.0))

    def close(self) -> None:
        self._http.close()

    def check(self) -> dict[str, Any]:
        """The served model's `/v1/models` entry; ConfigError if the server serves another model."""
        served = self._request("GET", "/v1/models").get("data") or []
        for entry in served:
            if entry.get("id") == self.model:
                return entry
        names = ", ".join(repr(e.get("id")) for e in served) or "nothing"
        raise ConfigError(
            f"the vLLM server at {self.url} serves {names}, not {self.model!r}",
            hint="set vllm_model to the served name, or restart `vllm serve` on vllm_weights_dir "
            "(its --served-model-name defaults to the folder as given)",
        )

    def chat(self, body: dict[str, Any]) -> dict[str, Any]:
        """POST /v1/chat/completions with `body` (its model is this server's) and the reply."""
        return self._request("POST", "/v1/chat/completions", json={**body, "model": self.model})

    def reload_weights(self) -> None:
        """Every worker re-reads the served folder's weights; cached KV of the old weights is dropped."""
        self._request("POST", "/collective_rpc", json={"method": "reload_weights"}, dev=True)
        self._request("POST", "/reset_prefix_cache", dev=True)

    def _request(self, method: str, path: str, *, dev: bool = False, **kwargs: Any) -> dict[str, Any]:
        try:
            response = self._http.request(method, path, **kwargs)
        except httpx.TimeoutException as exc:
            raise VLLMUnavailableError(
                f"the vLLM server at {self.url} did not answer {method} {path} in time: {exc}",
                hint="raise vllm_timeout_s, or check the server's log for a stuck request",
            ) from None
        except httpx.TransportError as exc:
            raise VLLMUnavailableError(
                f"cannot reach the vLLM server at {self.url} ({type(exc).__name__}: {exc})", hint=SERVE_HINT
            ) from None
        if response.status_code == 404 and dev:
            raise VLLMError(
                f"the vLLM server at {self.url} has no {path}: its development endpoints are off",
                hint="restart it with VLLM_SERVER_DEV_MODE=1 in its environment (GSPO reloads weights there)",
            )
        if response.status_code >= 400:
            error = _error_text(response)
            kind = VLLMUnavailableError if response.status_code >= 500 else VLLMError
            raise kind(
                f"the vLLM server at {self.url} answered {method} {path} with {response.status_code}: {error}",
                hint="see the server's log; a 400 names the request field it rejected",
            )
        if not response.content:
            return {}
        try:
            return response.json()
        except ValueError:
            raise VLLMError(
                f"the server at {self.url} answered {method} {path} with non-JSON: {response.text[:200]!r}",
                hint="vllm_url must point at a vLLM OpenAI-compatible server",
            ) from None


def _error_text(response: httpx.Response) -> str:
    try:
        body = response.json()
    except ValueError:
        return response.text[:300]
    error = body.get("error", body) if isinstance(body, dict) else body
    if isinstance(error, dict):
        return str(error.get("message") or error.get("detail") or error)[:300]
    return str(error)[:300]
