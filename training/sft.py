"""Supervised fine-tuning on successful trajectories (CUA-Gym appendix C.2), on transformers' Trainer.

`run_sft(config)` reads the trajectory datasets into sliced chat samples (training/data.py), keeps
them on disk and encodes each when it is trained (training/sft_data.py: memory stays flat as the
dataset grows) with the policy's processor (training/collate.py: assistant-only labels of each slice's new
turns, screenshots as pixel inputs) and trains with `transformers.Trainer`: AdamW, a cosine decay from
`learning_rate` to `min_learning_rate` (`cosine_with_min_lr`), weight decay, gradient clipping and
accumulation, epochs, checkpoints every `save_steps` (model + processor via `save_pretrained`, plus
optimizer and scheduler state), and resuming from the output directory's last checkpoint when
re-run on it. Every logged step (loss, learning rate, grad norm, tokens, seconds) goes to the
warehouse (`training_steps`, view `training_curves`).

What is ours and why:
- the labels: TRL's `SFTTrainer` can mask prompts (`completion_only_loss`) or train every assistant
  turn (`assistant_only_loss`), not "only the assistant turns new in this slice", so samples arrive
  encoded with their labels and TRL's dataset preparation would have nothing left to do — hence
  `Trainer` itself, which takes ready inputs;
- resuming: `Trainer` reloads a checkpoint's weights without `from_pretrained`'s key mapping, which
  silently loads nothing for Qwen2-VL (see `_CountingTrainer._load_from_checkpoint`);
- token counting: `Trainer` counts input tokens but not the tokens that carry loss, so
  `_CountingTrainer.compute_loss` adds both up before calling the stock loss;
- the warehouse rows, written by a `TrainerCallback`.

Example:
    >>> result = run_sft(load_config("configs/sft-tiny.yaml"))  # doctest: +SKIP
    >>> result.last_loss < result.first_loss                      # doctest: +SKIP
    True
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch
from transformers import (
    AutoModelForImageTextToText,
    AutoProcessor,
    PrinterCallback,
    Trainer,
    TrainerCallback,
    TrainingArguments,
)
from transformers.trainer_utils import get_last_checkpoint

from infra.errors import ConfigError
from training.adapters import is_adapted, prepare_model, save_model
from training.collate import IGNORE, collate
from training.config import SFTConfig, open_run_store
from training.distributed import launched_ranks
from training.evaluate import (
    Evaluation,
    HeldOutEvaluator,
    check_held_out,
    dataset_task_ids,
    record_evaluation,
)
from training.sft_data import SliceDataset, build_slice_cache
from training.tiny import TINY_MODEL, ImageQwen2VLProcessor, tiny_policy
from warehouse.store import Warehouse

log = logging.getLogger(__name__)


@dataclass
class SFTResult:
    run_id: str
    output_dir: Path
    steps: int
    samples: int
    dropped: int
    resumed_from: int | None
    losses: list[float] = field(default_factory=list)  # per logged step, this invocation only
    model: Any = field(default=None, repr=False)  # the trained policy, as saved in output_dir
    evaluations: list[Evaluation] = field(default_factory=list)  # held-out, this invocation's

    @property
    def first_loss(self) -> float | None:
        return self.losses[0] if self.losses else None

    @property
    def last_loss(self) -> float | None:
        return self.losses[-1] if self.losses else None


def run_id_for(kind: str, output_dir: Path) -> str:
    """One run per output directory, so a resumed run keeps its id (and its warehouse rows)."""
    return f"{kind}-{hashlib.sha1(str(output_dir.resolve()).encode()).hexdigest()[:12]}"


def load_processor(path: str | Path) -> Any:
    """The processor saved in `path`: the tiny policy's image-only one, or whatever AutoProcessor finds."""
    saved = Path(path) / "processor_config.json"
    if (
        saved.exists()
        and json.loads(saved.read_text()).get("processor_class") == ImageQwen2VLProcessor.__name__
    ):
        return ImageQwen2VLProcessor.from_pretrained(path)
    return AutoProcessor.from_pretrained(path)


def load_policy(model: str, *, seed: int = 0, dtype: torch.dtype | None = None) -> tuple[Any, Any]:
    """`model` (a save_pretrained folder, a hub id, or `tiny:qwen2-vl`) and its processor."""
    if model == TINY_MODEL:
        return tiny_policy(seed)
    try:
        policy = AutoModelForImageTextToText.from_pretrained(model, dtype=dtype)
    except OSError as exc:
        raise ConfigError(
            f"cannot load model {model!r}: {exc}",
            hint=f"point `model` at a save_pretrained folder, or use {TINY_MODEL} for the CPU test policy",
        ) from None
    return policy, load_processor(model)


class FeatureDataset(torch.utils.data.Dataset):
    def __init__(self, features: list[dict[str, torch.Tensor]]) -> None:
        self.features = features

    def __len__(self) -> int:
        return len(self.features)

    def __getitem__(self, index: int) -> dict[str, torch.Tensor]:
        return self.features[index]


def encode_samples(config: SFTConfig, processor: Any) -> tuple[SliceDataset, int]:
    """Every successful trajectory's slices, checked once and kept on disk (training/sft_data.py);
    slices over `max_length` or with no trained token are dropped and counted before step 1. Each
    kept slice is encoded when the Trainer reads it, so memory does not grow with the dataset."""
    return build_slice_cache(config, processor)


class _CountingTrainer(Trainer):
    """`Trainer` that also counts the input tokens and the loss-carrying tokens it trains on."""

    tokens = 0
    trained_tokens = 0

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        self.tokens += int(inputs["attention_mask"].sum())
        self.trained_tokens += int((inputs["labels"] != IGNORE).sum())
        return super().compute_loss(model, inputs, return_outputs, num_items_in_batch)

    def _load_from_checkpoint(self, resume_from_checkpoint, model=None):
        # transformers 5.24's resume reads checkpoint-N/model.safetensors with a raw non-strict
        # `load_state_dict`; Qwen2-VL's save_pretrained writes its keys in the hub layout (`model.*`,
        # not `model.language_model.*`), so that loads nothing and only warns — the run would go on
        # from the base weights (huggingface/transformers#43701, open). `from_pretrained` applies the
        # key mapping; strict catches the rest.
        model = model if model is not None else self.model
        if is_adapted(model):  # a LoRA run's checkpoints hold its adapters (peft's save_pretrained)
            from peft import set_peft_model_state_dict
            from safetensors.torch import load_file

            set_peft_model_state_dict(model, load_file(f"{resume_from_checkpoint}/adapter_model.safetensors"))
            return
        dtype = next(model.parameters()).dtype
        saved = type(model).from_pretrained(resume_from_checkpoint, dtype=dtype)
        model.load_state_dict(saved.state_dict(), strict=True)


class _WarehouseSteps(TrainerCallback):
    """Writes each log event (one per `logging_steps` optimizer steps) as a `training_steps` row."""

    def __init__(self, trainer: _CountingTrainer, warehouse: Warehouse | None, run_id: str) -> None:
        self.trainer, self.warehouse, self.run_id = trainer, warehouse, run_id
        self.seconds, self.started = 0.0, 0.0
        self.losses: list[float] = []

    def on_step_begin(self, args, state, control, **kwargs):
        self.started = time.perf_counter()

    def on_step_end(self, args, state, control, **kwargs):
        self.seconds += time.perf_counter() - self.started

    def on_log(self, args, state, control, logs=None, **kwargs):
        if not logs or "loss" not in logs:
            return
        row = {
            "run_id": self.run_id,
            "step": state.global_step,
            "epoch": state.epoch,
            "loss": logs["loss"],
            "learning_rate": logs.get("learning_rate"),
            "grad_norm": logs.get("grad_norm"),
            "tokens": self.trainer.tokens,
            "trained_tokens": self.trainer.trained_tokens,
            "seconds": self.seconds,
        }
        self.losses.append(float(logs["loss"]))
        if self.warehouse is not None:
            self.warehouse.save_training_step(row)
            self.warehouse.refresh_snapshot()  # throttled: readers (`cuagym sql`) see the curve grow
        log.info(
            "sft step %d/%d loss=%.4f lr=%.3g tokens=%d trained=%d %.2fs",
            state.global_step, state.max_steps, row["loss"], row["learning_rate"] or 0.0,
            row["tokens"], row["trained_tokens"], row["seconds"],
        )  # fmt: skip
        self.trainer.tokens = self.trainer.trained_tokens = 0
        self.seconds = 0.0


class _HeldOutEvaluations(TrainerCallback):
    """Plays the policy on the held-out tuples every `eval_steps` optimizer steps (training/evaluate.py);
    the run evaluates before its first step and after its last itself."""

    def __init__(self, evaluate: HeldOutEvaluator, every: int, processor: Any, store, run_id: str) -> None:
        self.evaluate, self.every, self.processor = evaluate, every, processor
        self.store, self.run_id = store, run_id
        self.evaluations: list[Evaluation] = []

    def on_step_end(self, args, state, control, model=None, **kwargs):
        if state.global_step % self.every == 0 and state.global_step < state.max_steps:
            evaluation = self.evaluate(model, self.processor, step=state.global_step)
            self.evaluations.append(record_evaluation(self.store, self.run_id, evaluation))


def training_arguments(config: SFTConfig) -> TrainingArguments:
    gpu = torch.cuda.is_available()
    # without them a launch of CPU processes trains each on every sample (the Trainer would not see it
    # is distributed); with them, samples are split and gradients averaged over gloo
    placement = {"use_cpu": True, "ddp_backend": "gloo"} if launched_ranks().distributed and not gpu else {}
    if config.fsdp:  # FSDP2; without a class list the Trainer wraps the model's _no_split_modules
        placement |= {
            "fsdp": "full_shard auto_wrap",
            "fsdp_config": {"version": 2, "reshard_after_forward": True},
        }
    return TrainingArguments(
        **placement,
        output_dir=str(config.output_dir),
        num_train_epochs=config.epochs,
        per_device_train_batch_size=config.batch_size,
        gradient_accumulation_steps=config.gradient_accumulation_steps,
        learning_rate=config.learning_rate,
        lr_scheduler_type="cosine_with_min_lr",
        lr_scheduler_kwargs={"min_lr": config.min_learning_rate},
        warmup_steps=config.warmup_ratio,  # a float in [0, 1) is a ratio of the total steps
        weight_decay=config.weight_decay,
        max_grad_norm=config.max_grad_norm,
        optim="adamw_torch",
        logging_strategy="steps",
        logging_steps=config.logging_steps,
        save_strategy="steps",
        save_steps=config.save_steps,
        seed=config.seed,
        data_seed=config.seed,
        bf16=config.bf16,
        report_to=[],
        remove_unused_columns=False,  # the features are the model's inputs already
        dataloader_num_workers=0,
        dataloader_pin_memory=gpu,
        disable_tqdm=True,
    )


def sft_trainer(
    config: SFTConfig, model: Any, processor: Any, features: torch.utils.data.Dataset | list[dict]
) -> _CountingTrainer:
    """The `Trainer` `run_sft` trains with, on `features`: a dataset of encoded slices (what
    `encode_samples` returns) or a list of them (bench/training.py times this one)."""
    pad_id = processor.tokenizer.pad_token_id
    trainer = _CountingTrainer(
        model=model,
        args=training_arguments(config),
        train_dataset=features
        if isinstance(features, torch.utils.data.Dataset)
        else FeatureDataset(features),
        data_collator=lambda batch: collate(batch, pad_id),
        processing_class=processor,
    )
    trainer.remove_callback(PrinterCallback)  # it prints every log dict; _WarehouseSteps logs the steps
    return trainer


def check_sharding(config: SFTConfig, evaluate: HeldOutEvaluator | None) -> None:
    """Refuse what FSDP cannot do here, before any work: accelerate shards only on accelerators (on
    CPUs it would silently run the processes data-parallel instead), and a sharded policy cannot
    generate in one process, which held-out evaluation does."""
    if not config.fsdp:
        return
    if not torch.cuda.is_available():
        raise ConfigError(
            "fsdp: true needs GPUs: accelerate shards a model only on accelerators, and on CPUs the "
            "processes would run plain data parallelism instead",
            hint="drop fsdp on CPUs (a torchrun launch still trains data-parallel), or run on GPUs",
        )
    if evaluate is not None:
        raise ConfigError(
            "held-out evaluation plays the policy in one process, which an FSDP-sharded policy cannot",
            hint="drop eval_tuples from an fsdp run and evaluate its saved checkpoint afterwards",
        )


def run_sft(
    config: SFTConfig, *, warehouse: Path | None = None, evaluate: HeldOutEvaluator | None = None
) -> SFTResult:
    """Train `config.model` on `config.datasets`; resume if `config.output_dir` holds a checkpoint.

    Writes checkpoints to `output_dir/checkpoint-<step>` and the final model + processor to
    `output_dir` (both reload with `from_pretrained`), and one warehouse row per logged step when
    `warehouse` is given. With `evaluate` (held-out tuples, training/evaluate.py) the policy is
    played on them before the first step (unless resuming) and after the last. Raises `ConfigError`
    when no sample is left to train on, or when the held-out tuples are in the datasets.
    """
    output_dir = Path(config.output_dir)
    run_id = run_id_for("sft", output_dir)
    ranks = launched_ranks()
    check_sharding(config, evaluate)
    evaluate = evaluate if ranks.main else None  # rank 0 plays the held-out tuples for all
    model, processor = load_policy(config.model, seed=config.seed)
    model = prepare_model(model, config)  # LoRA, gradient checkpointing
    features, dropped = encode_samples(config, processor)
    if not features:
        raise ConfigError(
            f"no SFT samples in {', '.join(map(str, config.datasets))} (dropped {dropped})",
            hint="SFT trains on trajectories with reward 1.0; check the datasets, or raise max_length",
        )
    if evaluate is not None:
        check_held_out(evaluate.task_ids, dataset_task_ids(config.datasets))
    last = get_last_checkpoint(str(output_dir)) if output_dir.is_dir() else None
    resumed_from = int(Path(last).name.rsplit("-", 1)[1]) if last else None
    store = open_run_store(
        warehouse if ranks.main else None,  # several processes: rank 0 records for all
        run_id=run_id,
        kind="sft",
        config=config,
        output_dir=output_dir,
        resumed_from=resumed_from,
        samples=len(features),
        dropped=dropped,
    )
    trainer = sft_trainer(config, model, processor, features)
    steps = _WarehouseSteps(trainer, store, run_id)
    trainer.add_callback(steps)
    log.info("sft run %s: %d samples, resuming from %s", run_id, len(features), last or "scratch")
    evaluations = []
    during = None
    if evaluate is not None and config.eval_steps:
        during = _HeldOutEvaluations(evaluate, config.eval_steps, processor, store, run_id)
        trainer.add_callback(during)
    try:
        if evaluate is not None and last is None:
            evaluations.append(record_evaluation(store, run_id, evaluate(model, processor, step=0)))
        trainer.train(resume_from_checkpoint=last)
        evaluations += during.evaluations if during is not None else []
        save_model(trainer.model, output_dir)  # a plain model (a LoRA run's adapters merged)
        processor.save_pretrained(output_dir)
        if evaluate is not None:
            step = trainer.state.global_step
            evaluations.append(
                record_evaluation(store, run_id, evaluate(trainer.model, processor, step=step))
            )
    except BaseException as exc:
        if store is not None:
            store.finish_training_run(run_id, status="failed", summary={"error": repr(exc)})
            store.refresh_snapshot(force=True)
        raise
    result = SFTResult(
        run_id=run_id,
        output_dir=output_dir,
        steps=trainer.state.global_step,
        samples=len(features),
        dropped=dropped,
        resumed_from=resumed_from,
        losses=steps.losses,
        model=trainer.model,
        evaluations=evaluations,
    )
    if store is not None:
        store.finish_training_run(
            run_id,
            status="done",
            summary={"steps": result.steps, "first_loss": result.first_loss, "last_loss": result.last_loss},
        )
        store.refresh_snapshot(force=True)
    return result
