"""Trainer configs: `SFTConfig` and `GSPOConfig`, validated when built, loaded from YAML with overrides.

Like TRL's config dataclasses, every field is typed and carries its help text (`Field(description=…)`,
which the CLI shows for its flags) and a range check. Defaults are the paper's (CUA-Gym appendix C.2
for SFT, C.3 for GSPO) where it states them; the description says where a value is ours instead.
A YAML file names its trainer with `kind: sft|gspo`; unknown keys and bad values raise `ConfigError`
with the field, the value and what would be accepted.

Example:
    >>> load_config(None, {"kind": "gspo", "model": "var/ckpt/sft", "tuples": ["output/final"],
    ...                    "group_size": "4"}).group_size
    4
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from infra.errors import ConfigError

Family = Literal[
    "qwen3.5", "qwen3-vl", "qwen2.5-vl", "qwen2-vl"
]  # the chat/tool-call formats training can render


class _Common(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    model: str = Field(description="checkpoint to start from: a local save_pretrained folder or a hub id")
    family: Family = Field(
        "qwen3.5",
        description="model family: fixes the tool-call format (XML for qwen3.5, Hermes JSON otherwise) "
        "and the coordinate space the assistant turns are written in",
    )
    output_dir: Path = Field(Path("var/training"), description="checkpoints and run files go here")
    seed: int = Field(0, ge=0, description="seed for data order and sampling")
    bf16: bool = Field(False, description="bf16 mixed precision (the paper's; needs a GPU that has it)")
    gradient_checkpointing: bool = Field(
        False, description="recompute activations in the backward pass: less memory, ~30% more compute"
    )
    lora_rank: int = Field(
        0, ge=0, le=1024, description="LoRA rank through peft (training/adapters.py); 0: full fine-tuning"
    )
    lora_alpha: int = Field(32, ge=1, description="LoRA scaling numerator (alpha / rank scales the update)")
    lora_dropout: float = Field(0.05, ge=0, lt=1, description="dropout on the LoRA branch")
    lora_targets: tuple[str, ...] = Field(
        ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"),
        min_length=1,
        description="module names LoRA adapts: the language model's projections (the vision tower's "
        "fused qkv/proj are not among them and stay frozen)",
    )
    max_length: int = Field(
        262_144, ge=256, description="longest sample in tokens; longer slices are dropped and counted"
    )
    traj_slice_interval: int = Field(
        10, ge=1, le=100, description="a training sample every this many turn pairs (appendix C.1.2)"
    )
    max_screenshots: int = Field(
        20, ge=1, le=200, description="screenshots kept visible; older ones become a collapsed placeholder"
    )
    max_calls_per_turn: int = Field(
        10, ge=1, le=100, description="an assistant turn with more tool calls is not trained (C.1.2)"
    )
    eval_tuples: list[Path] = Field(
        default_factory=list,
        description="held-out bundles (or folders of bundles) the policy is played on before and "
        "during training, never trained on (training/evaluate.py)",
    )
    eval_episodes: int = Field(1, ge=1, le=64, description="episodes per held-out tuple per evaluation")
    eval_temperature: float = Field(
        0.0, ge=0, le=2.0, description="decoding temperature of evaluation (0: greedy)"
    )
    eval_max_steps: int = Field(15, ge=1, le=500, description="model steps per evaluation episode")
    eval_max_tokens: int = Field(256, ge=8, le=32_768, description="reply tokens per evaluation step")
    eval_workers: int = Field(2, ge=1, le=64, description="evaluation desktops side by side")
    save_steps: int = Field(50, ge=1, description="save a checkpoint every this many optimizer steps")
    logging_steps: int = Field(1, ge=1, description="record metrics every this many optimizer steps")

    @model_validator(mode="after")
    def _slices_fit_the_window(self) -> _Common:
        if self.traj_slice_interval > self.max_screenshots:
            raise ValueError(
                f"traj_slice_interval={self.traj_slice_interval} exceeds max_screenshots="
                f"{self.max_screenshots}: a slice would train turns whose screenshots are collapsed; "
                f"use traj_slice_interval <= {self.max_screenshots}"
            )
        return self


class SFTConfig(_Common):
    """Supervised warm-up on successful teacher trajectories (CUA-Gym appendix C.2).

    Masked assistant-token cross-entropy; AdamW with a cosine decay from `learning_rate` to
    `min_learning_rate`; only trajectories with reward == 1.0 (a null reward is never a 0, and never
    a success). The paper's batch is 512 sequences of 256K tokens on 512 GPUs; the default here is
    one sequence per step, reached to any size with `gradient_accumulation_steps`.
    """

    kind: Literal["sft"] = Field("sft", description="which trainer this file configures")
    datasets: list[Path] = Field(
        min_length=1, description="trajectory dataset folders (trajectories.jsonl + screenshot shards)"
    )
    learning_rate: float = Field(7e-6, gt=0, le=1.0, description="peak learning rate (C.2.2)")
    min_learning_rate: float = Field(7e-7, ge=0, le=1.0, description="the cosine decay ends here (C.2.2)")
    warmup_ratio: float = Field(0.0, ge=0, lt=1, description="share of steps warming up (ours: none)")
    weight_decay: float = Field(0.01, ge=0, le=1.0, description="AdamW weight decay (C.2.2)")
    epochs: float = Field(1.0, gt=0, le=100, description="passes over the samples (C.2.2: 1)")
    batch_size: int = Field(1, ge=1, description="samples per forward pass")
    gradient_accumulation_steps: int = Field(1, ge=1, description="forward passes per optimizer step")
    max_grad_norm: float = Field(1.0, gt=0, description="gradient clipping (ours: TRL's default)")
    fsdp: bool = Field(
        False,
        description="shard parameters, gradients and optimizer state over the launched processes (FSDP2 "
        "through transformers' Trainer, layers wrapped by the model's own no-split classes); launch with "
        "torchrun or accelerate (docs/training.md, Several processes)",
    )
    eval_steps: int | None = Field(
        None,
        ge=1,
        description="also evaluate on eval_tuples every this many optimizer steps (default: "
        "only before the first step and after the last)",
    )

    @model_validator(mode="after")
    def _decay_goes_down(self) -> SFTConfig:
        if self.min_learning_rate > self.learning_rate:
            raise ValueError(
                f"min_learning_rate={self.min_learning_rate} is above learning_rate={self.learning_rate}; "
                "the cosine decays from the peak to the minimum"
            )
        return self


class GSPOConfig(_Common):
    """GSPO on verified tuples with their programmatic rewards (CUA-Gym appendix C.3).

    Each iteration draws `tasks_per_iteration` tasks (frontier sampling), runs `group_size`
    rollouts of the current policy on each, mean-centres rewards per group (no std division:
    `scale_rewards="none"`), and takes `minibatches` optimizer steps over the slices. β = 0: no
    reference model is loaded at all (C.3.2), so there is no β to set.
    """

    kind: Literal["gspo"] = Field("gspo", description="which trainer this file configures")
    tuples: list[Path] = Field(
        min_length=1, description="bundle folders, or folders of bundles (output/final) to train on"
    )
    iterations: int = Field(100, ge=1, description="rollout + update rounds")
    tasks_per_iteration: int = Field(8, ge=1, description="tasks drawn per iteration (ours)")
    group_size: int = Field(16, ge=2, description="rollouts per task, G (C.3.3: 16)")
    minibatches: int = Field(4, ge=1, description="optimizer steps per rollout batch (C.3.1: 4)")
    learning_rate: float = Field(1e-6, gt=0, le=1.0, description="constant learning rate (ours)")
    weight_decay: float = Field(0.0, ge=0, le=1.0, description="AdamW weight decay (ours)")
    max_grad_norm: float = Field(1.0, gt=0, description="gradient clipping (ours: TRL's default)")
    epsilon_low: float = Field(3e-4, gt=0, lt=1, description="lower clip: ratio >= 1 - epsilon_low (GSPO)")
    epsilon_high: float = Field(4e-4, gt=0, lt=1, description="upper clip: ratio <= 1 + epsilon_high (GSPO)")
    importance_sampling_level: Literal["sequence", "token"] = Field(
        "sequence", description="sequence: GSPO's one ratio per sequence; token: per-token ratios"
    )
    scale_rewards: Literal["none", "group"] = Field(
        "none", description="none: mean-centred only (C.3.3); group: also divide by the group std"
    )
    temperature: float = Field(0.7, gt=0, le=2.0, description="rollout sampling temperature")
    max_tokens: int = Field(3072, ge=16, description="longest reply per step")
    max_steps: int = Field(80, ge=1, le=500, description="model steps per episode")
    rollout_workers: int = Field(
        1, ge=1, le=64, description="episodes run at once, each on its own desktop (ours)"
    )
    rollout_engine: Literal["transformers", "vllm"] = Field(
        "transformers", description="transformers generate (CPU, tiny models) or vLLM (GPU)"
    )
    vllm_url: str | None = Field(
        None, description="rollout_engine vllm: the vLLM server's address, e.g. http://127.0.0.1:8000"
    )
    vllm_weights_dir: Path | None = Field(
        None,
        description="rollout_engine vllm: the folder `vllm serve` was started on (a copy of `model`); "
        "GSPO saves the weights there before the first iteration and after every update, and the "
        "server reloads them",
    )
    vllm_model: str | None = Field(
        None, description="rollout_engine vllm: the served model name (default: vllm_weights_dir as given)"
    )
    vllm_timeout_s: float = Field(600.0, gt=0, description="rollout_engine vllm: seconds per server request")
    vllm_max_logp_gap: float = Field(
        0.2,
        gt=0,
        description="rollout_engine vllm: after each weight sync a probe reply is re-scored by the "
        "trainer; a mean |log-prob gap| per token above this stops the run (ours)",
    )
    eval_every: int = Field(1, ge=1, description="evaluate on eval_tuples after every this many iterations")
    frontier_sigma: float = Field(0.25, gt=0, le=1, description="width of the weight around 0.5 success")
    frontier_gamma: float = Field(0.2, ge=0, le=1, description="share of uniform draws mixed in")
    frontier_ema: float = Field(
        0.2, gt=0, le=1, description="weight of the newest success rate in the per-task EMA (ScaleCUA: α 0.2)"
    )

    @model_validator(mode="after")
    def _minibatches_divide_the_batch(self) -> GSPOConfig:
        rollouts = self.tasks_per_iteration * self.group_size
        if rollouts % self.minibatches:
            raise ValueError(
                f"tasks_per_iteration * group_size = {rollouts} rollouts do not split into "
                f"minibatches={self.minibatches}; use tasks_per_iteration={self.minibatches} or a "
                f"minibatches that divides {rollouts}"
            )
        return self

    @model_validator(mode="after")
    def _vllm_settings_fit_the_engine(self) -> GSPOConfig:
        given = [f for f in ("vllm_url", "vllm_weights_dir", "vllm_model") if getattr(self, f) is not None]
        if self.rollout_engine != "vllm":
            if given:
                raise ValueError(
                    f"{', '.join(given)} set but rollout_engine={self.rollout_engine!r}; set "
                    "rollout_engine: vllm, or remove them"
                )
            return self
        missing = [f for f in ("vllm_url", "vllm_weights_dir") if getattr(self, f) is None]
        if missing:
            raise ValueError(
                f"rollout_engine vllm needs {' and '.join(missing)}: the server's address and the folder "
                "it serves (see docs/training.md, GSPO on verified tuples)"
            )
        if Path(self.vllm_weights_dir).resolve() == Path(self.model).resolve():
            raise ValueError(
                f"vllm_weights_dir={self.vllm_weights_dir} is the checkpoint GSPO starts from, which every "
                "weight sync would overwrite; serve a copy of it and set vllm_weights_dir to the copy"
            )
        return self


CONFIGS: dict[str, type[SFTConfig | GSPOConfig]] = {"sft": SFTConfig, "gspo": GSPOConfig}


class TrainingParams(BaseModel):
    """Parameters of the training flow (`cuagym train`, the `sft` and `gspo` deployments): the
    trainer's config itself, its `kind` choosing which. Here rather than in tasks/models.py because
    tasks/ may not import training/ (tests/test_layering.py)."""

    model_config = ConfigDict(extra="forbid")

    config: Annotated[SFTConfig | GSPOConfig, Field(discriminator="kind")]
    warehouse: Path | None = Field(None, description="warehouse file (default: the settings' one)")


class TrainingSummary(BaseModel):
    """What a training flow run did (first and last loss: of the steps this invocation logged)."""

    run_id: str
    kind: str
    output_dir: str
    steps: int
    samples: int
    dropped: int
    resumed_from: int | None = None
    first_loss: float | None = None
    last_loss: float | None = None
    seconds: float = 0.0
    evaluations: list[dict[str, Any]] = Field(
        default_factory=list, description="held-out evaluations of this invocation (training/evaluate.py)"
    )


def load_config(
    path: Path | str | None, overrides: dict[str, Any] | None = None, *, kind: str | None = None
) -> SFTConfig | GSPOConfig:
    """The config in `path` (YAML) with `overrides` on top (flag name -> value; `-` reads as `_`).

    String override values are read as YAML, so `--datasets "[a, b]"` and `--bf16 true` work.
    `kind` (sft|gspo) comes from the argument, the overrides or the file, in that order.
    """
    data: dict[str, Any] = {}
    if path is not None:
        path = Path(path)
        try:
            loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError(f"cannot read config {path}: {exc.strerror}", hint="check the path") from None
        except yaml.YAMLError as exc:
            raise ConfigError(f"{path} is not valid YAML: {exc}", hint="fix the file's syntax") from None
        if not isinstance(loaded, dict | None):
            raise ConfigError(f"{path} holds a {type(loaded).__name__}", hint="write one key: value per line")
        data = dict(loaded or {})
    for key, value in (overrides or {}).items():
        data[key.replace("-", "_")] = yaml.safe_load(value) if isinstance(value, str) else value
    written = data.pop("kind", None)
    if kind and written and written != kind:  # `cuagym train sft` on a gspo file is a mistake, not a cast
        raise ConfigError(
            f"{path or 'overrides'} configures kind {written!r}, not {kind!r}",
            hint=f"use `cuagym train {written}`, or set kind: {kind}",
        )
    kind = kind or written
    if kind not in CONFIGS:
        raise ConfigError(f"unknown trainer kind {kind!r}", hint=f"set kind to one of: {', '.join(CONFIGS)}")
    return _build(CONFIGS[kind], data, source=str(path) if path is not None else "overrides")


def parse_overrides(pairs: tuple[str, ...] | list[str]) -> dict[str, str]:
    """`key=value` pairs as a dict (values stay strings: load_config reads them as YAML)."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--set {pair!r} is not key=value", hint="write e.g. --set epochs=2")
        out[key.strip()] = value
    return out


def _build(cls: type[SFTConfig | GSPOConfig], data: dict[str, Any], *, source: str) -> SFTConfig | GSPOConfig:
    known = set(cls.model_fields)
    unknown = sorted(set(data) - known)
    if unknown:
        near = {k: difflib.get_close_matches(k, known, n=1) for k in unknown}
        said = ", ".join(f"{k} (did you mean {near[k][0]}?)" if near[k] else k for k in unknown)
        raise ConfigError(
            f"{source}: unknown {cls.__name__} key(s): {said}", hint=f"valid keys: {', '.join(sorted(known))}"
        )
    try:
        return cls(**data)
    except ValidationError as exc:
        problems = "; ".join(_problem(e) for e in exc.errors())
        raise ConfigError(f"{source}: invalid {cls.__name__}: {problems}", hint=_hint(cls, exc)) from None


def _problem(error: dict[str, Any]) -> str:
    where = ".".join(str(p) for p in error["loc"]) or "config"
    got = f" (got {error['input']!r})" if error["type"] != "missing" and error["loc"] else ""
    return f"{where}: {error['msg']}{got}"


def _hint(cls: type[BaseModel], exc: ValidationError) -> str:
    fields = {str(e["loc"][0]) for e in exc.errors() if e["loc"]}
    helps = [f"{f}: {cls.model_fields[f].description}" for f in sorted(fields) if f in cls.model_fields]
    return "; ".join(helps) or "see the error above"


def open_run_store(
    warehouse,
    *,
    run_id: str,
    kind: str,
    config: BaseModel,
    output_dir: Path,
    resumed_from: int | None = None,
    samples: int = 0,
    dropped: int = 0,
):
    """The warehouse a training run records into, its run row started (None: no warehouse)."""
    from warehouse.store import Warehouse

    if warehouse is None:
        return None
    store = Warehouse(warehouse)
    store.start_training_run(
        {
            "run_id": run_id,
            "kind": kind,
            "model": config.model,
            "output_dir": str(output_dir.resolve()),
            "config": config.model_dump(mode="json"),
            "resumed_from": resumed_from,
            "samples": samples,
            "dropped": dropped,
        }
    )
    return store
