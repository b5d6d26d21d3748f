"""Training step throughput, ours vs TRL 1.16's trainers (issue 14: target ours / TRL >= 1.0x).

Same tiny Qwen2-VL (training/tiny.py, float32, same seed weights), same samples, same batch, in one
run with the two sides interleaved, so machine noise hits both alike. Tokens are counted the same way
for both: prompt + completion tokens the step runs through the model (padding excluded).

- SFT: `run_sft`'s own Trainer (training/sft.py `sft_trainer`: transformers Trainer on the features
  `encode_samples` made, our collator) against `trl.SFTTrainer` on the same slices as a
  conversational vision dataset (messages + images), which its collator renders and processes per
  batch — TRL's way for VLMs. Same TrainingArguments (copied from ours), same sample order; the
  tokens of every step are checked equal. Per step: the time from one step's end to the next (batch
  fetch and collation, forward, backward, clip, AdamW, scheduler, logging), median tokens/s.
- GSPO: `GSPOUpdate.update` (one forward pass per slice of an episode, training/shared_context.py),
  the same with one pass per reply (as it ran before), on a fixed set of rollouts of 4 replies
  sampled once by the tiny policy (`LocalPolicy`, screenshots of a blank 1280x800 screen), and
  GRPOTrainer's update on the same
  completions: its `compute_loss` (beta=0, importance_sampling_level="sequence", loss_type="grpo",
  scale_rewards="none") on the prepared minibatches, backward, clip and AdamW — no generation on
  either side. Rewards give every rollout a non-zero advantage, so both sides run every sample;
  TRL's log-probs of the sampled tokens are first checked against the sampling ones. Per update
  (`minibatches` optimizer steps over all samples), median tokens/s over the repeats.

Run: `.venv/bin/python bench/training.py [REPEATS]` (default 3; 40 s on 2 quiet cores, minutes when loaded).
"""

# ruff: noqa: E402  (the imports below must come after the sys.path fix)
from __future__ import annotations

import sys
from pathlib import Path

# `python bench/training.py` puts bench/ first on sys.path, where this very file would shadow the
# `training` package it measures
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import copy
import dataclasses
import io
import statistics
import tempfile
import time
import types

import torch
from PIL import Image
from rich.console import Console
from rich.table import Table
from transformers import PrinterCallback, TrainerCallback, TrainingArguments

from infra.computer_use.conversation import resolve_family
from infra.computer_use.coords import Geometry
from infra.library_env import apply_library_defaults
from infra.trajectories import Trajectory, TrajectoryStep, TrajectoryWriter
from training.collate import sample_images
from training.config import load_config
from training.data import sft_samples
from training.gspo import GSPOUpdate, Rollout, rollout_advantages
from training.local_policy import LocalPolicy
from training.sft import encode_samples, sft_trainer, training_arguments
from training.tiny import tiny_policy

SCREEN = (1280, 800)
FAMILY = "qwen2.5-vl"
REPLIES = 4  # replies per episode: one slice, so a pass per slice scores 4 replies at once


def screenshot(step: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", SCREEN, (step * 20 % 256, 120, 200)).save(out, format="PNG")
    return out.getvalue()


def write_trajectories(out: Path, count: int, steps: int) -> Path:
    """`count` successful scripted-teacher episodes of `steps` clicks then terminate (DESIGN §3.4)."""
    with TrajectoryWriter(out) as writer:
        for n in range(count):
            rid = f"calc.bench-{n:04d}__r0"
            records, shots = [], {}
            for k in range(steps + 1):
                member = f"{rid}/step_{k:03d}.png"
                shots[member] = screenshot(k + n)
                done = k == steps
                args = {"action": "terminate", "status": "success"} if done else {
                    "action": "left_click", "coordinate": [40 * k + 7, 25 * k + 3]}  # fmt: skip
                records.append(
                    TrajectoryStep(
                        step=k, model_step=k, screenshot=f"screenshots/step_{k:03d}.png", shard="",
                        member=member, cursor_before=None if done else (0, 0), action=args["action"],
                        coordinate_screen=None if done else tuple(args["coordinate"]), raw_action_args=args,
                        assistant_raw="Done." if done else f"I click cell {k} of column B.",
                    )
                )  # fmt: skip
            writer.write(
                Trajectory(task_id=rid, instruction="Fill column B with the totals of each row.", reward=1.0,
                           terminated=True, screen=SCREEN, model="scripted", steps=records, policy="scripted",
                           coordinate_space="screen"),
                shots,
            )  # fmt: skip
    return out


class StepClock(TrainerCallback):
    """The wall time between consecutive optimizer-step ends (so step 1, with its warm-up, is left out)."""

    def __init__(self) -> None:
        self.ends: list[float] = []

    def on_step_end(self, args, state, control, **kwargs):
        self.ends.append(time.perf_counter())

    def intervals(self) -> list[float]:
        return [b - a for a, b in zip(self.ends, self.ends[1:], strict=False)]


def count_tokens(trainer) -> list[int]:
    """Wrap `trainer.compute_loss` (the same wrapper on both sides) to count each batch's tokens."""
    counts: list[int] = []
    inner = trainer.compute_loss

    def counted(model, inputs, *args, **kwargs):
        counts.append(int(inputs["attention_mask"].sum()))
        return inner(model, inputs, *args, **kwargs)

    trainer.compute_loss = counted
    return counts


def trl_conversation(sample) -> dict:
    """A slice as TRL's conversational vision example: image placeholders in the messages, images apart
    (every content a list of {type, text} parts: an Arrow column holds one type; renders the same)."""

    def parts(content) -> list[dict]:
        if isinstance(content, str):
            return [{"type": "text", "text": content}]
        return [{"type": "image", "text": None} if p["type"] == "image" else p for p in content]

    messages = [{"role": m["role"], "content": parts(m["content"])} for m in sample.messages]
    return {"messages": messages, "images": sample_images(sample)}


def trl_sft_trainer(ours: TrainingArguments, model, processor, samples, output_dir: Path):
    from datasets import Dataset
    from trl import SFTConfig, SFTTrainer

    same = {f.name: getattr(ours, f.name) for f in dataclasses.fields(TrainingArguments) if f.init}
    # TRL's own defaults differ (bf16 and gradient checkpointing on, 1,024-token truncation): ours win
    args = SFTConfig(**same | {"output_dir": str(output_dir), "max_length": None})
    dataset = Dataset.from_list([trl_conversation(s) for s in samples])
    trainer = SFTTrainer(model=model, args=args, train_dataset=dataset, processing_class=processor)
    trainer.remove_callback(PrinterCallback)  # as sft_trainer does: no printing of every step's logs
    return trainer


@dataclasses.dataclass
class Side:
    name: str
    note: str = ""
    tokens: list[int] = dataclasses.field(default_factory=list)
    seconds: list[float] = dataclasses.field(default_factory=list)

    def rates(self) -> list[float]:
        return [t / s for t, s in zip(self.tokens, self.seconds, strict=True)]

    def median(self) -> float:
        return statistics.median(self.rates())


def bench_sft(repeats: int, tmp: Path) -> tuple[Side, Side]:
    data = write_trajectories(tmp / "sft-data", count=3, steps=11)
    config = load_config(None, {"kind": "sft", "model": "tiny:qwen2-vl", "family": FAMILY, "datasets": [str(data)],
                                "output_dir": str(tmp / "sft-ours"), "traj_slice_interval": 4, "max_screenshots": 4,
                                "batch_size": 2, "epochs": 1, "save_steps": 100_000, "learning_rate": 1e-4,
                                "min_learning_rate": 1e-5})  # fmt: skip
    model, processor = tiny_policy(config.seed)
    started = time.perf_counter()
    features, _ = encode_samples(config, processor)
    encode_s = time.perf_counter() - started
    geometry = Geometry.from_processor(processor, resolve_family(FAMILY).space)  # as encode_samples does
    samples = list(sft_samples(list(config.datasets), FAMILY, interval=config.traj_slice_interval,
                               max_screenshots=config.max_screenshots, max_calls=config.max_calls_per_turn,
                               geometry=geometry))  # fmt: skip
    assert len(samples) == len(features), "encode_samples dropped a slice: the two sides would differ"
    weights = copy.deepcopy(model.state_dict())
    ours, trl = Side("ours: Trainer + our collator"), Side("TRL SFTTrainer")
    for _ in range(repeats):
        for side in (ours, trl):
            model, processor = tiny_policy(config.seed)
            model.load_state_dict(weights)
            if side is ours:
                trainer = sft_trainer(config, model, processor, features)
            else:
                trainer = trl_sft_trainer(
                    training_arguments(config), model, processor, samples, tmp / "sft-trl"
                )
            clock, counts = StepClock(), count_tokens(trainer)
            trainer.add_callback(clock)
            trainer.train()
            side.tokens += counts[1:]
            side.seconds += clock.intervals()
    if ours.tokens != trl.tokens:
        raise AssertionError(f"SFT steps saw different tokens: ours {ours.tokens} vs TRL {trl.tokens}")
    ours.note = (
        f"ours checks its {len(features)} slices once before step 1 and keeps them on disk ({encode_s:.2f} s), "
        "then encodes each when a step reads it (training/sft_data.py)"
    )
    return ours, trl


def sample_rollouts(model, processor, config) -> list[list[Rollout]]:
    """One group of G episodes, REPLIES replies each, sampled once; rewards give each a non-zero
    advantage."""
    rewards = [1.0, 0.0] * (config.group_size // 2)
    group = []
    for repeat, reward in enumerate(rewards):
        policy = LocalPolicy(
            model, processor, FAMILY, temperature=config.temperature, max_tokens=config.max_tokens
        )
        policy.start(
            types.SimpleNamespace(id="bench", instruction="Fill column B with the totals."), SCREEN, None
        )
        for step in range(REPLIES):
            policy.step(types.SimpleNamespace(step=step, screenshot_png=screenshot(step), last_results=[]))
        policy.close()
        group.append(Rollout("bench", repeat, reward, list(policy.turns)))
    return [group]


def trl_minibatch(turns, advantages: list[float], pad_id: int) -> dict:
    """What GRPOTrainer's generation step hands its loss: prompts left-padded, completions right-padded."""
    width = max(t.prompt_tokens for t in turns)
    length = max(len(t.completion_ids) for t in turns)

    def left(x, value):
        return torch.nn.functional.pad(x[0], (width - x.shape[1], 0), value=value)

    def right(x, value):
        return torch.nn.functional.pad(x, (0, length - len(x)), value=value)

    prompt_ids = torch.stack([left(t.prompt["input_ids"], pad_id) for t in turns])
    completion_ids = torch.stack([right(t.completion_ids, pad_id) for t in turns])
    mm = torch.stack([left(t.prompt["mm_token_type_ids"], 0) for t in turns])
    return {
        "prompt_ids": prompt_ids,
        "prompt_mask": torch.stack([left(t.prompt["attention_mask"], 0) for t in turns]),
        "completion_ids": completion_ids,
        "completion_mask": torch.stack([right(torch.ones_like(t.completion_ids), 0) for t in turns]),
        "old_per_token_logps": torch.stack([right(t.old_logps, 0.0) for t in turns]),
        "advantages": torch.tensor(advantages),
        "pixel_values": torch.cat([t.prompt["pixel_values"] for t in turns]),
        "image_grid_thw": torch.cat([t.prompt["image_grid_thw"] for t in turns]),
        "num_images": [int(t.prompt["image_grid_thw"].shape[0]) for t in turns],
        "mm_token_type_ids": torch.cat([mm, torch.zeros_like(completion_ids)], dim=1),
    }


def grpo_trainer(model, processor, config, tmp: Path):
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    args = GRPOConfig(
        output_dir=str(tmp / "gspo-trl"), beta=0.0, importance_sampling_level=config.importance_sampling_level,
        loss_type="grpo", scale_rewards=config.scale_rewards, epsilon=config.epsilon_low,
        epsilon_high=config.epsilon_high, temperature=config.temperature, num_generations=config.group_size,
        per_device_train_batch_size=config.group_size, max_completion_length=config.max_tokens,
        learning_rate=config.learning_rate, weight_decay=config.weight_decay, max_grad_norm=config.max_grad_norm,
        optim="adamw_torch", bf16=False, gradient_checkpointing=False, use_cpu=True, report_to="none",
    )  # fmt: skip
    trainer = GRPOTrainer(
        model=model,
        reward_funcs=lambda completions, **kw: [0.0] * len(completions),  # never called: no generation here
        args=args,
        train_dataset=Dataset.from_dict({"prompt": ["unused"] * config.group_size}),
        processing_class=processor,
    )
    trainer.current_gradient_accumulation_steps = 1  # set by its training loop, which is not run
    return trainer


def trl_update(trainer, optimizer, batches: list[dict], max_grad_norm: float) -> None:
    model = trainer.model
    model.train()
    for batch in batches:
        loss = trainer.compute_loss(model, batch)
        trainer.accelerator.backward(loss)
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
    model.eval()


def check_same_logps(trainer, batch: dict, turns) -> None:
    """TRL's view of the batch (padding, positions, images, temperature) gives the sampling log-probs."""
    with torch.no_grad():
        logps, _, _ = trainer._get_per_token_logps_and_entropies(
            trainer.model, torch.cat([batch["prompt_ids"], batch["completion_ids"]], 1),
            torch.cat([batch["prompt_mask"], batch["completion_mask"]], 1), batch["completion_ids"].shape[1],
            pixel_values=batch["pixel_values"], image_grid_thw=batch["image_grid_thw"],
            num_images=batch["num_images"], mm_token_type_ids=batch["mm_token_type_ids"],
        )  # fmt: skip
    for row, turn in zip(logps, turns, strict=True):
        torch.testing.assert_close(row[: len(turn.old_logps)], turn.old_logps, atol=1e-3, rtol=1e-3)


def bench_gspo(repeats: int, tmp: Path) -> tuple[Side, Side]:
    config = load_config(None, {"model": "tiny:qwen2-vl", "tuples": ["unused"], "family": FAMILY, "group_size": 4,
                                "tasks_per_iteration": 1, "minibatches": 2, "learning_rate": 1e-4, "max_tokens": 32,
                                "temperature": 1.0}, kind="gspo")  # fmt: skip
    model, processor = tiny_policy(config.seed)
    model.eval()
    torch.manual_seed(config.seed)
    groups = sample_rollouts(model, processor, config)
    weights = copy.deepcopy(model.state_dict())
    rollouts = groups[0]
    advantages, _ = rollout_advantages(groups, config.scale_rewards)
    chunks = [rollouts[i :: config.minibatches] for i in range(config.minibatches)]
    pad_id = processor.tokenizer.pad_token_id
    batches = [
        trl_minibatch(
            [t for r in c for t in r.turns], [advantages[r.repeat] for r in c for _ in r.turns], pad_id
        )
        for c in chunks
    ]
    trl_tokens = sum(int(b["prompt_mask"].sum() + b["completion_mask"].sum()) for b in batches)
    ours = Side("ours: GSPOUpdate.update, a pass per slice")
    each = Side("ours before: a pass per reply")
    trl = Side("TRL GRPOTrainer loss + step")
    for rep in range(repeats):
        for side in (ours, each, trl):
            model, processor = tiny_policy(config.seed)
            model.load_state_dict(weights)
            if side is not trl:
                updater = GSPOUpdate(config, model, processor, shared_context=side is ours)
                started = time.perf_counter()
                stats = updater.update(groups)
                side.seconds.append(time.perf_counter() - started)
                assert stats.trained_samples == stats.samples, "a sample was skipped: the sides would differ"
                side.tokens.append(stats.tokens)
                side.note = f"{side.name}: {updater.forwards} forward passes for {stats.samples} replies"
            else:
                trainer = grpo_trainer(model, processor, config, tmp)
                optimizer = trainer.create_optimizer()
                if rep == 0:
                    check_same_logps(trainer, batches[0], [t for r in chunks[0] for t in r.turns])
                started = time.perf_counter()
                trl_update(trainer, optimizer, batches, config.max_grad_norm)
                side.seconds.append(time.perf_counter() - started)
                side.tokens.append(trl_tokens)
    if set(ours.tokens) != {trl_tokens} or set(each.tokens) != {trl_tokens}:
        raise AssertionError(f"GSPO updates saw different tokens: ours {ours.tokens} vs TRL {trl_tokens}")
    return ours, each, trl


def main(repeats: int = 3) -> None:
    apply_library_defaults()
    torch.manual_seed(0)
    tmp = Path(tempfile.mkdtemp(prefix="bench-training-"))
    started = time.perf_counter()
    results = {"SFT step": bench_sft(repeats, tmp), "GSPO update": bench_gspo(repeats, tmp)}
    table = Table(title=f"training throughput, tiny Qwen2-VL on CPU ({torch.get_num_threads()} threads), "
                        f"{repeats} interleaved repeats")  # fmt: skip
    for col in ("what", "side", "timed", "tokens each", "median tokens/s", "min–max tokens/s"):
        table.add_column(col, justify="left" if col in ("what", "side") else "right")
    for what, sides in results.items():
        for side in sides:
            rates = side.rates()
            table.add_row(
                what, side.name, str(len(rates)), f"{statistics.median(side.tokens):.0f}", f"{side.median():.0f}",
                f"{min(rates):.0f}–{max(rates):.0f}",
            )  # fmt: skip
    console = Console()
    console.print(table)
    for sides in results.values():
        for side in sides:
            if side.note:
                console.print(side.note)
    ratios = {what: sides[0].median() / sides[-1].median() for what, sides in results.items()}
    ours, each, _ = results["GSPO update"]
    console.print(
        "ours / TRL (median tokens/s): "
        + ", ".join(f"{what} {ratio:.2f}x" for what, ratio in ratios.items())
        + f" (target >= 1.0x); GSPO a pass per slice / a pass per reply {ours.median() / each.median():.2f}x; "
        + f"{time.perf_counter() - started:.0f} s in all"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
