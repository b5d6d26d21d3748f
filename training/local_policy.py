"""A local policy: the model being trained drives the desktop, sampled in-process with `generate`.

`LocalPolicy` implements the rollout `Policy` protocol (infra/contracts/policy.py: `name`, `model`,
`space`, `geometry`, `fmt`, `start`/`step`/`close`; `step` returns a `PolicyStep`), so the episode
loop (tasks/rollout/runner.py) drives it as it drives the LLM and scripted policies. It builds the
same conversation as the LLM policy (infra/computer_use/conversation.py: system prompt, first user
turn with the instruction, later screenshots wrapped as tool responses with feedback, the collapse
rule), samples a reply with transformers `generate` at the rollout temperature, and reads it with
`parse_reply`: garbage becomes `errors`, as for the LLM policy, and the episode goes on.

For GSPO every step also keeps a `SampledTurn`: the encoded prompt (token ids and pixel inputs, as
the processor made them), the sampled completion ids and their log-probabilities under the
sampling policy (`old_logps`, from `generate`'s raw logits at the same temperature, the
distribution the tokens were actually drawn from: top-k and top-p are off). training/gspo.py
recomputes the same log-probs under the current weights for the importance ratio.

Example:
    >>> policy = LocalPolicy(model, processor, "qwen2.5-vl", temperature=0.7, max_tokens=64)  # doctest: +SKIP
    >>> policy.start(task, (1280, 800), desktop=None)                                         # doctest: +SKIP
    >>> step = policy.step(observation); policy.turns[-1].old_logps.shape                     # doctest: +SKIP
    torch.Size([64])
"""

from __future__ import annotations

import io
import threading
import time
from dataclasses import dataclass
from typing import Any

import torch
from PIL import Image

from infra.computer_use.conversation import (
    FEEDBACK_TEMPLATE,
    collapsed_count,
    model_png,
    render_template,
    shown_part,
    system_prompt,
    user_content,
)
from infra.computer_use.coords import Geometry
from infra.computer_use.formats import parse_reply
from infra.contracts.policy import Observation, Policy, PolicyStep
from infra.contracts.task import TaskSpec
from training.data import trainable_family
from training.losses import sampled_logps
from training.shared_context import PromptBuilder

PROMPT_KEYS = ("input_ids", "attention_mask", "pixel_values", "image_grid_thw", "mm_token_type_ids")


@dataclass
class SampledTurn:
    """What GSPO needs of one sampled reply: its prompt as model inputs, the tokens, their old log-probs."""

    prompt: dict[str, torch.Tensor]  # processor outputs for the prompt, batch dim 1
    completion_ids: torch.Tensor  # (T,) sampled token ids (the closing <|im_end|> included when sampled)
    old_logps: torch.Tensor  # (T,) log-probs of those tokens under the sampling policy, at `temperature`
    step: int

    @property
    def prompt_tokens(self) -> int:
        return int(self.prompt["input_ids"].shape[1])


@dataclass
class _Turn:
    image: Image.Image
    feedback: str = ""
    assistant: str | None = None


def encode_prompt(processor: Any, messages: list[dict[str, Any]]) -> dict[str, torch.Tensor]:
    """The processor's model inputs (PROMPT_KEYS, batch dim 1) for `messages` with the generation prompt:
    what the policy samples from and what GSPO re-scores, whichever engine sampled."""
    text = processor.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    images = [
        p["image"] for m in messages if isinstance(m["content"], list) for p in m["content"] if "image" in p
    ]
    enc = processor(text=[text], images=images or None, return_tensors="pt")
    return {k: enc[k] for k in PROMPT_KEYS if k in enc}


class LocalPolicy(Policy):
    """The trained model as a rollout policy (see the module docstring)."""

    name = "local"

    def __init__(
        self,
        model: Any,
        processor: Any,
        family: str,
        *,
        model_name: str = "local",
        temperature: float = 0.7,
        max_tokens: int = 3072,
        max_screenshots: int = 20,
        collapse_block: int = 10,
        lock: threading.Lock | None = None,
    ) -> None:
        self.family = trainable_family(family)
        self.space, self.fmt = self.family.space, self.family.fmt
        self.geometry = Geometry.from_processor(processor, self.space)  # what this processor makes of a frame
        self.model, self._model, self.processor = model_name, model, processor
        self.temperature, self.max_tokens = temperature, max_tokens
        self.max_screenshots, self.collapse_block = max_screenshots, collapse_block
        self._lock = lock or threading.Lock()  # one generate at a time when episodes run in threads
        self._instruction, self._system = "", ""
        self._turns: list[_Turn] = []
        self._errors: list[str] = []
        self.turns: list[SampledTurn] = []  # every sampled reply of the episode, for the update
        self._prompts = PromptBuilder(processor, encode_prompt)  # each prompt extends the last one

    # -- the Policy protocol -------------------------------------------------------------------------

    def start(self, task: TaskSpec, screen: tuple[int, int], desktop: Any) -> None:
        self._instruction = task.instruction
        self._system = system_prompt(self.family, self.geometry, tuple(screen))
        self._turns, self._errors, self.turns = [], [], []
        self._prompts.reset()

    def step(self, observation: Observation) -> PolicyStep:
        png = model_png(observation.screenshot_png, self.geometry)
        with Image.open(io.BytesIO(png)) as image:
            turn = _Turn(image=image.convert("RGB"), feedback=self._feedback(observation))
        self._turns.append(turn)
        t0 = time.monotonic()
        prompt, completion, logps = self._sample(self.messages())
        text = self.processor.tokenizer.decode(completion, skip_special_tokens=True)
        self._prompts.replied(prompt, completion, text)
        parsed = parse_reply(text)
        if parsed.errors and (completion[-1:] != self._eos).all():
            parsed.errors.append(f"the reply was cut off at max_tokens ({self.max_tokens})")
        turn.assistant = text
        self._errors = parsed.errors
        self.turns.append(SampledTurn(prompt, completion, logps, observation.step))
        return PolicyStep(
            assistant_raw=text,
            calls=[c.arguments for c in parsed.calls],
            errors=parsed.errors,
            seconds=round(time.monotonic() - t0, 4),
        )

    def close(self) -> None:
        self._turns = []  # `turns` (the samples) stay for the update

    # -- the conversation ----------------------------------------------------------------------------

    def messages(self) -> list[dict[str, Any]]:
        """System prompt, then (user, assistant) turns with old screenshots collapsed, as LLMPolicy."""
        folded = collapsed_count(len(self._turns), self.max_screenshots, self.collapse_block)
        out: list[dict[str, Any]] = [{"role": "system", "content": self._system}]
        for n, turn in enumerate(self._turns):
            shown = shown_part({"type": "image", "image": turn.image}, collapsed=n < folded)
            content = user_content(n, shown, instruction=self._instruction, feedback=turn.feedback)
            out.append({"role": "user", "content": content})
            if turn.assistant is not None:
                out.append({"role": "assistant", "content": turn.assistant})
        return out

    def _feedback(self, observation: Any) -> str:
        if not self._turns:
            return ""
        echo = "; ".join(self._errors)  # the runner records the reply's errors as a result too
        failed = [
            {"action": r.get("action", "?"), "error": r.get("error") or "it did not run"}
            for r in observation.last_results
            if not r.get("ok", True) and not (r.get("action") == "invalid" and r.get("error") == echo)
        ]
        return render_template(FEEDBACK_TEMPLATE, errors=self._errors, failed=failed).strip()

    # -- sampling ------------------------------------------------------------------------------------

    @property
    def _eos(self) -> torch.Tensor:
        return torch.tensor([self.processor.tokenizer.convert_tokens_to_ids("<|im_end|>")])

    def _sample(
        self, messages: list[dict[str, Any]]
    ) -> tuple[dict[str, torch.Tensor], torch.Tensor, torch.Tensor]:
        # kept on the CPU, as the update reads it; the newest user turn's screenshot is all it encodes
        prompt = self._prompts.prompt(messages, [self._turns[-1].image] if self._turns else [])
        device = next(self._model.parameters()).device
        tokenizer = self.processor.tokenizer
        # sample from the full tempered distribution (top-k and top-p off): old_logps are exactly it;
        # temperature 0 decodes greedily (held-out evaluation: nothing trains on those replies)
        sampling = {"do_sample": True, "temperature": self.temperature, "top_k": 0, "top_p": 1.0}
        with self._lock, torch.no_grad():
            out = self._model.generate(
                **{k: v.to(device) for k, v in prompt.items()},
                **(sampling if self.temperature > 0 else {"do_sample": False}),
                max_new_tokens=self.max_tokens,
                eos_token_id=tokenizer.convert_tokens_to_ids("<|im_end|>"),
                pad_token_id=tokenizer.pad_token_id,
                return_dict_in_generate=True,
                output_logits=True,
            )
        completion = out.sequences[0, prompt["input_ids"].shape[1] :].cpu()
        logits = torch.stack([step[0] for step in out.logits]).cpu()  # (T, V), raw
        return prompt, completion, sampled_logps(logits, completion, self.temperature or 1.0)
