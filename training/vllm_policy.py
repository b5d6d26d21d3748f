"""GSPO rollouts sampled by a vLLM server, and the weight sync after each update.

`VLLMPolicy` is `LocalPolicy` with another sampler: the same conversation (system prompt, user
turns, tool-response wrapping, the collapse rule), the same prompt encoding (`encode_prompt`, what
GSPO re-scores), the same reading of the reply (`parse_reply`: garbage becomes `errors` and the
episode goes on) and the same `SampledTurn`s — so `GSPOUpdate` trains on them unchanged. Only the
tokens come from the server: the conversation goes as chat messages with each visible screenshot
as a PNG data URL (lossless: the server decodes the pixels the trainer encoded), and the reply's
token ids and their log-probs are the sampler's own (`logprobs` + `return_tokens_as_token_ids`).

What makes those log-probs the `old_logps` GSPO needs:
- the server runs with `--logprobs-mode processed_logprobs`: log-probs after the temperature, i.e.
  of the distribution the tokens were drawn from (vLLM's default, `raw_logprobs`, is before it);
- every request pins the sampler to the full tempered distribution (`top_k=-1`, `top_p=1`, no
  penalties): vLLM otherwise fills unset fields from the checkpoint's generation_config.json, and
  Qwen-VL's set top_k, top_p and a repetition penalty;
- the reply's `prompt_token_ids` must equal the trainer's own encoding of the same messages, or the
  step fails loudly (`VLLMError`): a server rendering another chat template or resizing images
  differently would have sampled in a context the trainer never re-scores.

`VLLMEngine` is the rollout side of a GSPO run on such a server: it checks the server before the
model loads, builds the policies, and `sync(updater)` pushes the current weights (before the first
iteration and after every update): `save_pretrained` into `vllm_weights_dir`, the folder the server
serves, then `reload_weights` (training/vllm_server.py says why this route). It then samples one
probe reply and re-scores it with the trainer's model: the mean |log-prob gap| per token is logged
every sync and stops the run above `vllm_max_logp_gap` (the server samples from other weights, or
with raw log-probs).

Example:
    >>> engine = VLLMEngine(config, model_name="gspo:run")   # doctest: +SKIP
    >>> engine.sync(updater)                                   # doctest: +SKIP
    >>> collect(engine.policy, iteration)                      # doctest: +SKIP
"""

from __future__ import annotations

import base64
import io
import logging
import time
import types
from dataclasses import dataclass
from typing import Any

import torch
from PIL import Image

from training.config import GSPOConfig
from training.local_policy import LocalPolicy, SampledTurn, encode_prompt
from training.shared_context import chain_logps
from training.vllm_server import VLLMError, VLLMServer

log = logging.getLogger(__name__)

TOKEN_ID_PREFIX = "token_id:"  # how vLLM writes a token when return_tokens_as_token_ids is set
PROBE_TOKENS = 64  # the sync probe's reply length: enough tokens for a stable mean gap


def sampling_fields(temperature: float, max_tokens: int, stop_token_id: int) -> dict[str, Any]:
    """The request fields that make vLLM sample what GSPO assumes it sampled (see the module docstring)."""
    return {
        "temperature": temperature,
        "top_p": 1.0,
        "top_k": -1,
        "min_p": 0.0,
        "repetition_penalty": 1.0,
        "presence_penalty": 0.0,
        "frequency_penalty": 0.0,
        "max_tokens": max_tokens,
        "stop_token_ids": [stop_token_id],
        "n": 1,
        "logprobs": True,
        "top_logprobs": 0,
        "return_tokens_as_token_ids": True,
        "return_token_ids": True,
    }


def png_data_url(image: Image.Image) -> str:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode("ascii")


def sampled_tokens(reply: dict[str, Any], prompt_ids: list[int]) -> tuple[torch.Tensor, torch.Tensor]:
    """The completion's token ids and log-probs (T,) from a vLLM chat reply to a prompt the trainer
    encoded as `prompt_ids`; VLLMError when the reply cannot be trained on."""
    choices = reply.get("choices") or []
    if not choices:
        raise VLLMError("the vLLM reply has no choices", hint="check the server's log for the request")
    choice = choices[0]
    content = (choice.get("logprobs") or {}).get("content")
    if content is None:
        raise VLLMError(
            "the vLLM reply carries no log-probs of its tokens",
            hint="GSPO needs the sampling log-probs: use a vLLM server (its chat API returns them "
            "when asked with logprobs: true)",
        )
    ids, logps = [], []
    for item in content:
        token = str(item.get("token", ""))
        if not token.startswith(TOKEN_ID_PREFIX):
            raise VLLMError(
                f"the vLLM reply names a token as {token!r}, not {TOKEN_ID_PREFIX}<id>",
                hint="the server ignored return_tokens_as_token_ids: upgrade vLLM (>= 0.10.2)",
            )
        ids.append(int(token[len(TOKEN_ID_PREFIX) :]))
        logps.append(float(item["logprob"]))
    if choice.get("token_ids") is not None and list(choice["token_ids"]) != ids:
        raise VLLMError(
            "the vLLM reply's token_ids disagree with the tokens of its log-probs",
            hint="report it with the server's version; the sample cannot be trained on",
        )
    served = reply.get("prompt_token_ids")
    if served is None:
        raise VLLMError(
            "the vLLM reply has no prompt_token_ids",
            hint="GSPO checks the server's prompt against the trainer's: upgrade vLLM (>= 0.10.2, "
            "return_token_ids)",
        )
    if list(served) != prompt_ids:
        at = next((i for i, (a, b) in enumerate(zip(served, prompt_ids, strict=False)) if a != b), None)
        where = f"first differing at token {at}" if at is not None else "one a prefix of the other"
        raise VLLMError(
            f"the vLLM server tokenized the prompt into {len(served)} tokens, the trainer into "
            f"{len(prompt_ids)} ({where})",
            hint="serve a copy of the checkpoint the trainer loads (same chat template and "
            "preprocessor_config.json) with --chat-template-content-format openai",
        )
    return torch.tensor(ids, dtype=torch.long), torch.tensor(logps, dtype=torch.float32)


class VLLMPolicy(LocalPolicy):
    """The policy being trained, sampled by a vLLM server (see the module docstring)."""

    name = "vllm"

    def __init__(self, server: VLLMServer, processor: Any, family: str, **kwargs: Any) -> None:
        kwargs.pop("lock", None)  # the server batches concurrent episodes itself
        super().__init__(None, processor, family, **kwargs)
        self.server = server
        self._urls: dict[int, str] = {}  # screenshot -> data URL, encoded once per episode

    def start(self, task: Any, screen: tuple[int, int], desktop: Any) -> None:
        super().start(task, screen, desktop)
        self._urls = {}

    def request_messages(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """`messages` in the OpenAI chat shape: each image part as an image_url part."""
        out = []
        for message in messages:
            content = message["content"]
            if isinstance(content, list):
                content = [self._part(p) for p in content]
            out.append({"role": message["role"], "content": content})
        return out

    def _part(self, part: dict[str, Any]) -> dict[str, Any]:
        if "image" not in part:
            return part
        image = part["image"]
        url = self._urls.get(id(image))
        if url is None:
            url = self._urls[id(image)] = png_data_url(image)
        return {"type": "image_url", "image_url": {"url": url}}

    def _sample(
        self, messages: list[dict[str, Any]]
    ) -> tuple[dict[str, torch.Tensor], torch.Tensor, torch.Tensor]:
        prompt = encode_prompt(self.processor, messages)
        fields = sampling_fields(self.temperature, self.max_tokens, int(self._eos[0]))
        reply = self.server.chat({"messages": self.request_messages(messages), **fields})
        completion, logps = sampled_tokens(reply, prompt["input_ids"][0].tolist())
        return prompt, completion, logps


@dataclass
class SyncStats:
    seconds: float
    logp_gap: float  # mean |server - trainer| log-prob per token of the probe reply
    probe_tokens: int


class VLLMEngine:
    """The rollout side of GSPO on a vLLM server: policies that sample there, and the weight sync."""

    def __init__(self, config: GSPOConfig, *, model_name: str) -> None:
        if config.vllm_url is None or config.vllm_weights_dir is None:  # GSPOConfig checks it
            raise ValueError("VLLMEngine needs a GSPOConfig with rollout_engine: vllm")
        self.config, self.model_name = config, model_name
        self.weights_dir = config.vllm_weights_dir
        served = config.vllm_model or str(config.vllm_weights_dir)
        self.server = VLLMServer(config.vllm_url, served, timeout_s=config.vllm_timeout_s)
        self.served = self.server.check()  # before the model loads: a missing server fails in seconds
        self._updater: Any = None

    def policy(self, *, max_tokens: int | None = None) -> VLLMPolicy:
        """A policy for one episode (GSPO's `make_policy`); needs a `sync` first."""
        if self._updater is None:
            raise RuntimeError("VLLMEngine.policy before the first sync: the server's weights are unknown")
        cfg = self.config
        return VLLMPolicy(
            self.server,
            self._updater.processor,
            cfg.family,
            model_name=self.model_name,
            temperature=cfg.temperature,
            max_tokens=max_tokens or cfg.max_tokens,
            max_screenshots=cfg.max_screenshots,
            collapse_block=cfg.traj_slice_interval,
        )

    def sync(self, updater: Any) -> SyncStats:
        """Push `updater`'s current weights to the server and check it now samples from them."""
        started = time.perf_counter()
        self._updater = updater
        updater.save(self.weights_dir)
        self.server.reload_weights()
        gap, tokens = self._probe_gap()
        stats = SyncStats(round(time.perf_counter() - started, 4), gap, tokens)
        log.info(
            "vllm sync (step %d): weights reloaded from %s in %.1fs; probe log-prob gap %.2e over %d tokens",
            updater.step, self.weights_dir, stats.seconds, gap, tokens,
        )  # fmt: skip
        if gap > self.config.vllm_max_logp_gap:
            raise VLLMError(
                f"after the weight sync the server's log-probs differ from the trainer's by {gap:.3g} per "
                f"token (vllm_max_logp_gap={self.config.vllm_max_logp_gap})",
                hint="start vllm serve on vllm_weights_dir with --logprobs-mode processed_logprobs; "
                "check that reload_weights reached every worker (the server's log)",
            )
        return stats

    def _probe_gap(self) -> tuple[float, int]:
        policy = self.policy(max_tokens=min(PROBE_TOKENS, self.config.max_tokens))
        screen = (1280, 800)
        out = io.BytesIO()
        Image.new("RGB", screen, "white").save(out, format="PNG")
        task = types.SimpleNamespace(id="vllm-sync-probe", instruction="Open the file manager.")
        policy.start(task, screen, None)
        policy.step(types.SimpleNamespace(step=0, screenshot_png=out.getvalue(), last_results=[]))
        turn: SampledTurn = policy.turns[-1]
        if not len(turn.completion_ids):
            return 0.0, 0
        model = self._updater.model
        was_training = model.training
        model.eval()
        with torch.no_grad():
            logps = chain_logps(model, [turn], self.config.temperature)[0].float()
        model.train(was_training)
        return float((logps - turn.old_logps).abs().mean()), len(turn.completion_ids)
