"""GSPO on verified tuples (CUA-Gym appendix C.3): rollouts of the current policy, group advantages,
the clipped sequence-ratio update, every iteration in the warehouse.

`run_gspo(config, collect, task_ids)` runs `config.iterations` rounds. Each round draws
`tasks_per_iteration` of `task_ids` by frontier sampling (training/frontier.py: Gaussian weights of
each task's success EMA around 0.5, a γ share uniform, without replacement, seeded by (seed,
iteration)); `collect(make_policy, iteration, drawn)` — the environment side, given by
training/episodes.py's `EpisodeCollector` — runs G episodes per drawn task with
policies from `make_policy()` (a `LocalPolicy` on the current weights) and returns the groups of
`Rollout`s, each with the reward its bundle's reward.py gave. The groups' scored rewards update the
drawn tasks' EMAs (table gspo_frontier_emas, view gspo_frontier). Then `GSPOUpdate.update(groups)`:

- advantages: `group_advantages` per group (mean-centred; `scale_rewards="group"` divides by the
  std), a null reward left out of its group's mean and given advantage 0 (never a 0 reward);
  groups with no reward spread are counted (`zero_variance_groups`) — their advantages are all 0;
- samples: every sampled reply of a rollout is one sample, trained in exactly the context it was
  sampled in, carrying its rollout's advantage (a per-step version of C.1.2's slices: each
  assistant turn trained once, in its own context);
- the update: the rollouts are split into `minibatches` chunks, one AdamW step each (gradient
  clipping at `max_grad_norm`); per sample the completion's log-probs under the current weights
  (`completion_logps`, same temperature as sampling) against the sampling-time `old_logps`, into
  `gspo_loss` (training/losses.py) at `importance_sampling_level`. The loss of a minibatch is the
  mean over its samples, each scaled by 1/B; the replies of one slice of an episode (prompts that
  extend one another) are scored in one forward pass and backpropagated together
  (training/shared_context.py), so shared screenshots are encoded once per slice, not once per
  reply — the same gradient as the batched loss, one slice's activations in memory at a time. A
  sample with advantage 0 adds 0 to loss and gradient; it is counted in B but not run through the
  model;
- the checkpoint: `save_pretrained` (model + processor) into `output_dir` after every iteration;
  a resumable one (training/checkpoint.py: weights, AdamW state, RNG states, iteration and step,
  written atomically) into `output_dir/checkpoint-<step>` every `save_steps` optimizer steps and
  after the last iteration.

Resuming: `run_gspo` on an `output_dir` that holds a checkpoint reloads its weights, AdamW state,
step and RNG states, reads the EMAs as of its iteration from the warehouse, and goes on with the
next iteration under the same run id (`resumed_from`: the checkpoint's step). An iteration is
recorded in the warehouse before its checkpoint is written, and every row is keyed by iteration, so
a kill in between only means that iteration is redone (same draw) and its rows replaced.

What is ours and why (not TRL's `GRPOTrainer`): its rollouts are single-turn generations of a
prompt dataset, scored by reward functions of the text; ours are multi-turn episodes on real desktops
scored by each bundle's reward.py after the episode, so generation and scoring are the rollout
runner's. The loss itself is proven equal to TRL's (tests/training/test_losses.py).
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from infra.errors import ConfigError
from training.adapters import load_adapter_weights, prepare_model, save_model
from training.checkpoint import Checkpoint, CheckpointError, find_checkpoint, write_checkpoint
from training.config import GSPOConfig, open_run_store
from training.distributed import (
    Ranks,
    average_gradients,
    broadcast_weights,
    finish,
    gather,
    gather_iteration,
    init_ranks,
    seed_sampling,
    shard,
)
from training.episodes import Rollout
from training.evaluate import Evaluation, HeldOutEvaluator, check_held_out, record_evaluation
from training.frontier import TaskFrontier, draw_tasks
from training.gspo_dataset import record_rollouts
from training.gspo_records import IterationStats, frontier_state, observe_groups, record_iteration
from training.local_policy import LocalPolicy, SampledTurn
from training.losses import group_advantages, gspo_loss, zero_variance_groups
from training.shared_context import chain_logps, chains

log = logging.getLogger(__name__)

OPTIMIZER = "optimizer.pt"  # in a checkpoint folder: the AdamW state_dict
RNG = "rng_state.pt"  # the minibatch shuffle's and torch's generator states


def completion_logps(model: Any, turn: SampledTurn, temperature: float) -> torch.Tensor:
    """Log-probs (T,) of the turn's sampled tokens under `model`, at the sampling temperature (one
    forward pass over its prompt and reply; a slice of turns shares one: `chain_logps`)."""
    return chain_logps(model, [turn], temperature)[0]


def rollout_advantages(groups: list[list[Rollout]], scale: str = "none") -> tuple[list[float], int]:
    """Per rollout (groups flattened in order) its advantage, and the zero-variance group count."""
    advantages: list[float] = []
    zero = 0
    for group in groups:
        rewards = torch.tensor([float("nan") if r.reward is None else r.reward for r in group])
        advantages += group_advantages(rewards, len(group), scale=scale).tolist()  # type: ignore[arg-type]
        zero += zero_variance_groups(rewards, len(group))
    return advantages, zero


class GSPOUpdate:
    """The optimizer side of GSPO: owns the model, the AdamW state and the step count."""

    def __init__(
        self, config: GSPOConfig, model: Any, processor: Any, *, shared_context: bool = True
    ) -> None:
        self.config, self.model, self.processor = config, model, processor
        self.optimizer = torch.optim.AdamW(
            [p for p in model.parameters() if p.requires_grad],
            lr=config.learning_rate,
            weight_decay=config.weight_decay,
        )
        self.step = 0
        self._rng = random.Random(config.seed)
        # one forward per slice (training/shared_context.py); False scores each reply on its own, the
        # reference the shared pass is tested and benchmarked against
        self.shared_context = shared_context
        self.forwards = 0  # forward passes the update ran (for the bench and the tests)
        self.ranks = Ranks()  # a multi-process launch (training/distributed.py): set by run_gspo

    def _passes(self, turns: list[SampledTurn]) -> list[list[SampledTurn]]:
        """The rollout's turns grouped into forward passes: chains of extending prompts, or one each."""
        runs = chains(turns) if self.shared_context else [[i] for i in range(len(turns))]
        return [[turns[i] for i in run] for run in runs]

    def _logps(self, run: list[SampledTurn]) -> list[torch.Tensor]:
        return chain_logps(self.model, run, self.config.temperature)

    def _autocast(self):
        """bf16 autocast on a GPU when the config asks for it (fp32 master weights and optimizer
        state, as transformers' Trainer does with `bf16=True`); a no-op on the CPU."""
        device = next(self.model.parameters()).device
        return torch.autocast(
            device.type, dtype=torch.bfloat16, enabled=self.config.bf16 and device.type == "cuda"
        )

    def update(self, groups: list[list[Rollout]], iteration: int = 0) -> IterationStats:
        cfg = self.config
        started = time.perf_counter()
        rollouts = [r for group in groups for r in group]
        advantages, zero = rollout_advantages(groups, cfg.scale_rewards)
        order = list(range(len(rollouts)))
        self._rng.shuffle(order)
        chunks = [c for c in (order[i :: cfg.minibatches] for i in range(cfg.minibatches)) if c]
        losses: list[float] = []
        ratios: list[float] = []
        tokens = trained_tokens = trained_samples = clipped_low = clipped_high = 0
        grad_norm = None
        self.model.train()
        for chunk in chunks:
            samples = [(turn, advantages[i]) for i in chunk for turn in rollouts[i].turns]
            if not samples and not self.ranks.distributed:  # ranks step in lockstep, even on nothing
                continue
            self.optimizer.zero_grad(set_to_none=True)
            loss_sum = 0.0
            for i in chunk:
                if advantages[i] == 0.0:
                    continue  # contributes exactly 0 to loss and gradient
                for run in self._passes(rollouts[i].turns):
                    with self._autocast():
                        all_logps = self._logps(run)
                    loss = torch.zeros(())
                    for turn, logps in zip(run, all_logps, strict=True):
                        if not len(turn.completion_ids):
                            continue
                        logps, old, adv = logps[None], turn.old_logps[None], torch.tensor([advantages[i]])
                        loss = loss + gspo_loss(
                            logps, old, adv, torch.ones_like(logps),
                            epsilon_low=cfg.epsilon_low, epsilon_high=cfg.epsilon_high,
                            level=cfg.importance_sampling_level,
                        ) / len(samples)  # fmt: skip
                        low, high, ratio = _clipped(logps.detach(), old, advantages[i], cfg)
                        clipped_low, clipped_high = clipped_low + low, clipped_high + high
                        ratios.append(ratio)
                        trained_samples += 1
                        trained_tokens += len(turn.completion_ids)
                        tokens += turn.prompt_tokens + len(turn.completion_ids)
                    if loss.requires_grad:
                        loss.backward()  # one pass's activations in memory at a time
                        loss_sum += float(loss.detach())
                        self.forwards += 1
            average_gradients(self.model, self.ranks)
            if trained_samples or self.ranks.distributed:
                grad_norm = float(torch.nn.utils.clip_grad_norm_(self.model.parameters(), cfg.max_grad_norm))
            self.optimizer.step()
            self.step += 1
            losses.append(loss_sum)
        self.model.eval()
        return IterationStats(
            iteration=iteration,
            step=self.step,
            loss=sum(losses) / len(losses) if losses else 0.0,
            rewards=[r.reward for r in rollouts],
            advantages=advantages,
            groups=len(groups),
            zero_variance_groups=zero,
            samples=sum(len(r.turns) for r in rollouts),
            trained_samples=trained_samples,
            tokens=tokens,
            trained_tokens=trained_tokens,
            ratio_mean=sum(ratios) / len(ratios) if ratios else None,
            clip_low_fraction=clipped_low / trained_tokens if trained_tokens else 0.0,
            clip_high_fraction=clipped_high / trained_tokens if trained_tokens else 0.0,
            grad_norm=grad_norm,
            seconds=round(time.perf_counter() - started, 4),
        )

    def save(self, path: Path) -> Path:
        path.mkdir(parents=True, exist_ok=True)
        save_model(self.model, path)  # a plain model (adapters merged), and the adapters beside it
        self.processor.save_pretrained(path)
        return path

    def checkpoint(self, path: Path, iteration: int) -> Path:
        """A resumable checkpoint in `path` (written atomically, see training/checkpoint.py)."""

        def write(folder: Path) -> None:
            self.save(folder)
            torch.save(self.optimizer.state_dict(), folder / OPTIMIZER)
            rng = {"python": self._rng.getstate(), "torch": torch.get_rng_state()}
            if torch.cuda.is_available():
                rng["cuda"] = torch.cuda.get_rng_state_all()
            torch.save(rng, folder / RNG)

        return write_checkpoint(path, write, {"kind": "gspo", "iteration": iteration, "step": self.step})

    def restore(self, checkpoint: Checkpoint) -> None:
        """The AdamW state, step count and RNG states saved in `checkpoint` (the weights are loaded
        with the model). The config's learning rate and weight decay win over the saved ones, so a
        resumed run can change them."""
        try:
            self.optimizer.load_state_dict(torch.load(checkpoint.path / OPTIMIZER, weights_only=True))
            rng = torch.load(checkpoint.path / RNG, weights_only=True)
        except (OSError, RuntimeError, ValueError, KeyError) as exc:
            raise CheckpointError(
                f"cannot restore the training state of {checkpoint.path}: {exc}",
                hint=f"remove {checkpoint.path} to resume from the checkpoint before it",
            ) from exc
        for group in self.optimizer.param_groups:
            group["lr"], group["weight_decay"] = self.config.learning_rate, self.config.weight_decay
        self.step = checkpoint.step
        self._rng.setstate(rng["python"])
        torch.set_rng_state(rng["torch"])
        if "cuda" in rng and torch.cuda.is_available():
            torch.cuda.set_rng_state_all(rng["cuda"])


def _clipped(
    logps: torch.Tensor, old: torch.Tensor, advantage: float, cfg: GSPOConfig
) -> tuple[int, int, float]:
    """Tokens clipped below / above (TRL's definition: the ratio out of the band on the side where
    the clip binds, i.e. low with A < 0, high with A > 0) and the sample's mean ratio."""
    log_ratio = logps - old
    if cfg.importance_sampling_level == "sequence":
        log_ratio = log_ratio.mean(-1, keepdim=True).expand_as(logps)
    ratio = log_ratio.exp()
    low = int(((ratio < 1 - cfg.epsilon_low) & (advantage < 0)).sum())
    high = int(((ratio > 1 + cfg.epsilon_high) & (advantage > 0)).sum())
    return low, high, float(ratio.mean())


@dataclass
class GSPOResult:
    run_id: str
    output_dir: Path
    steps: int
    iterations: list[IterationStats] = field(default_factory=list)  # this invocation's only
    resumed_from: int | None = None  # the checkpoint step this invocation went on from
    model: Any = field(default=None, repr=False)
    evaluations: list[Evaluation] = field(default_factory=list)  # held-out, this invocation's

    @property
    def losses(self) -> list[float]:
        return [s.loss for s in self.iterations]


# collect(make_policy, iteration, drawn task ids) -> one group of G rollouts per drawn task
Collect = Callable[[Callable[[], LocalPolicy], int, list[str]], list[list[Rollout]]]


def run_gspo(
    config: GSPOConfig,
    collect: Collect,
    task_ids: list[str],
    *,
    warehouse: Path | None = None,
    evaluate: HeldOutEvaluator | None = None,
) -> GSPOResult:
    """`config.iterations` rounds of frontier draws from `task_ids`, rollouts (`collect`, see the
    module docstring) and updates; resumes from `config.output_dir`'s last checkpoint if it has one.
    With `evaluate` (held-out tuples, training/evaluate.py), rank 0 plays the policy on them before
    the first iteration and after every `eval_every`-th and the last. Raises `CheckpointError` when
    it has checkpoints but none can be resumed from, `ConfigError` when a held-out tuple is trained on."""
    from training.sft import load_policy, run_id_for  # sft imports Trainer: only when training

    pool = list(dict.fromkeys(task_ids))
    if not pool:
        raise ConfigError("GSPO has no tasks to draw from", hint="point `tuples` at verified bundles")
    if evaluate is not None:
        check_held_out(evaluate.task_ids, set(pool))
    ranks = init_ranks()
    if ranks.distributed and config.rollout_engine == "vllm":
        raise ConfigError(
            "a multi-process GSPO run samples with transformers only",
            hint="launch one process with rollout_engine: vllm, or use rollout_engine: transformers",
        )
    output_dir = Path(config.output_dir)
    run_id = run_id_for("gspo", output_dir)
    resume = find_checkpoint(output_dir)
    engine = None
    if config.rollout_engine == "vllm":  # before the model loads: a missing server fails in seconds
        from training.vllm_policy import VLLMEngine

        engine = VLLMEngine(config, model_name=f"gspo:{run_id}")
    model, processor = _load_model(config, resume, load_policy)
    model.to("cuda" if torch.cuda.is_available() else "cpu")  # sampling and the update on one device
    model.eval()
    broadcast_weights(model, ranks)
    updater = GSPOUpdate(config, model, processor)
    updater.ranks = ranks
    if resume is not None:
        updater.restore(resume)
    seed_sampling(ranks, config.seed, updater.step)
    done = resume.iteration if resume is not None else 0
    store = open_run_store(
        warehouse if ranks.main else None,  # rank 0 records for all
        run_id=run_id,
        kind="gspo",
        config=config,
        output_dir=output_dir,
        resumed_from=resume.step if resume is not None else None,
        samples=0,
        dropped=0,
    )
    frontier = gather(frontier_state(store, run_id, done), ranks)[0]  # rank 0's: the warehouse's
    log.info(
        "gspo run %s: %d tasks, iterations %d-%d, resuming from %s",
        run_id, len(pool), done + 1, config.iterations, resume.path if resume else "scratch",
    )  # fmt: skip

    lock = threading.Lock()  # episodes may run in threads: one generate at a time on the model

    def make_policy() -> LocalPolicy:
        return LocalPolicy(
            model,
            processor,
            config.family,
            model_name=f"gspo:{run_id}",
            temperature=config.temperature,
            max_tokens=config.max_tokens,
            max_screenshots=config.max_screenshots,
            collapse_block=config.traj_slice_interval,
            lock=lock,
        )

    result = GSPOResult(
        run_id=run_id,
        output_dir=output_dir,
        steps=updater.step,
        resumed_from=resume.step if resume is not None else None,
        model=model,
    )

    def evaluated(iteration: int) -> None:
        if evaluate is not None and ranks.main:
            result.evaluations.append(
                record_evaluation(
                    store, run_id, evaluate(model, processor, step=updater.step, iteration=iteration)
                )
            )

    try:
        if done == 0:
            evaluated(0)
        for iteration in range(done + 1, config.iterations + 1):
            drawn = draw_tasks(
                pool,
                [frontier.get(t, TaskFrontier()).success_ema for t in pool],
                config.tasks_per_iteration,
                sigma=config.frontier_sigma,
                gamma=config.frontier_gamma,
                seed=config.seed,
                iteration=iteration,
            )
            log.debug("gspo iteration %d draws %s", iteration, drawn)
            if engine is not None:  # the server samples from exactly the weights being trained
                engine.sync(updater)
            t0 = time.perf_counter()
            groups = collect(engine.policy if engine else make_policy, iteration, shard(drawn, ranks))
            rollout_seconds = round(time.perf_counter() - t0, 4)
            before = updater.step
            stats = updater.update(groups, iteration)
            stats.rollout_seconds = rollout_seconds
            stats, groups = gather_iteration(stats, groups, ranks)
            result.iterations.append(stats)
            observed = observe_groups(frontier, groups, config, iteration)
            frontier |= observed
            if ranks.main:
                updater.save(output_dir)
            if store is not None:  # before the checkpoint: a kill in between redoes this iteration
                record_iteration(store, run_id, stats, groups, observed, config)
                record_rollouts(store, output_dir, run_id, iteration, groups)
            if iteration % config.eval_every == 0 or iteration == config.iterations:
                evaluated(iteration)
            crossed = stats.step // config.save_steps > before // config.save_steps
            if ranks.main and (crossed or iteration == config.iterations):
                updater.checkpoint(output_dir / f"checkpoint-{stats.step}", iteration)
            log.info(
                "gspo iteration %d: step %d loss=%.6f reward=%s zero-variance %d/%d trained %d/%d samples "
                "%d tokens clip low/high %.3f/%.3f rollouts %.1fs update %.1fs",
                iteration, stats.step, stats.loss, stats.reward_mean, stats.zero_variance_groups,
                stats.groups, stats.trained_samples, stats.samples, stats.trained_tokens,
                stats.clip_low_fraction, stats.clip_high_fraction, rollout_seconds, stats.seconds,
            )  # fmt: skip
    except BaseException as exc:
        if store is not None:
            store.finish_training_run(run_id, status="failed", summary={"error": repr(exc)})
            store.refresh_snapshot(force=True)
        raise
    result.steps = updater.step
    if store is not None:
        store.finish_training_run(
            run_id,
            status="done",
            summary={"steps": result.steps, "iterations": len(result.iterations), "losses": result.losses},
        )
        store.refresh_snapshot(force=True)
    finish(ranks)
    return result


def _load_model(config: GSPOConfig, resume: Checkpoint | None, load_policy) -> tuple[Any, Any]:
    """The policy to train: the checkpoint's weights when resuming, else `config.model`, prepared as
    the config asks (LoRA, gradient checkpointing). A LoRA run resumes from `config.model` with the
    checkpoint's adapters, so the saved AdamW state meets the very parameters it was taken on."""
    if resume is None:
        model, processor = load_policy(config.model, seed=config.seed)
        return prepare_model(model, config), processor
    try:
        if config.lora_rank:
            model, processor = load_policy(config.model, seed=config.seed)
            model = prepare_model(model, config)
            load_adapter_weights(model, resume.path)
            return model, processor
        model, processor = load_policy(str(resume.path), seed=config.seed)
        return prepare_model(model, config), processor
    except (ConfigError, OSError, ValueError) as exc:
        message = exc.message if isinstance(exc, ConfigError) else str(exc)
        raise CheckpointError(
            f"cannot load the weights of {resume.path}: {message}",
            hint=f"remove {resume.path} to resume from the checkpoint before it",
        ) from exc
