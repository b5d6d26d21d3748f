"""Rollouts over many tuples: which episodes to run, and one episode start to finish.

An episode is a fresh desktop set up from the tuple's bundle (its config.json, as OSWorld would),
driven by the policy, graded by the bundle's reward.py, then written to the dataset (screenshots and
record) and to the warehouse. With a judge, the judge model also rules on the final state (its files,
and what changed since the initial state), and a verdict that differs from reward == 1.0 is flagged
`reward_judge_disagree`. What already finished — a line in the dataset and a row in the
warehouse for the same model — is not run again, so a killed run resumes. A desktop that fails to
start is retried once; any other failure becomes a recorded rollout with `reward: null` and the error,
never a lost batch.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from infra.contracts.policy import Policy
from infra.envs.base import StateView
from infra.envs.desktop import APP_HOUSEKEEPING, DesktopProvider
from infra.errors import ConfigError, CuagymError, TransientError
from infra.llm import LLMError
from infra.trajectories import Trajectory, TrajectoryWriter, rollout_id
from skills.kit import Family
from tasks.agents.base import AgentOutputError
from tasks.export import read_bundle
from tasks.judge import JudgeVerdict
from tasks.models import RolloutOutcome, RolloutParams, TaskSpec
from tasks.rollout.runner import Episode, run_episode
from tasks.rollout.scripted import ScriptedPolicy
from tasks.rollout.standby import Standby, set_up_desktop
from warehouse.store import Warehouse

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RolloutJob:
    bundle: Path
    spec: TaskSpec
    repeat: int

    @property
    def rollout_id(self) -> str:
        return rollout_id(self.spec.id, self.repeat)


@dataclass
class RolloutContext:
    params: RolloutParams
    run_id: str
    provider: DesktopProvider
    writer: TrajectoryWriter | None  # None where episodes are only played (a Dask worker)
    warehouse: Warehouse | None
    families: dict[str, Family]
    llm_policy: object | None = None  # a factory () -> Policy for `--policy llm`
    judge: Callable[[TaskSpec, StateView, StateView], JudgeVerdict] | None = None  # (spec, initial, final)
    standby: Standby | None = None  # desktops set up ahead for the next episode of a tuple (--standby)


@dataclass
class JudgeRuling:
    """The judge on one rollout: its verdict (None when it gave none) and whether it disagrees."""

    success: bool | None = None
    reason: str | None = None
    disagree: bool | None = None


@dataclass
class Judged:
    episode: Episode
    ruling: JudgeRuling = field(default_factory=JudgeRuling)


def rollout_run_id(params: RolloutParams) -> str:
    """Same parameters, same run id (a re-run resumes it)."""
    key = params.model_dump(mode="json", exclude={"workers", "runner", "dask_address", "standby"})
    return "rollouts-" + hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:12]


def model_name(params: RolloutParams, family: Family | None) -> str:
    return f"scripted:{family.id}" if params.policy == "scripted" and family else (params.model or "llm")


def plan_jobs(params: RolloutParams, warehouse: Warehouse, families: dict[str, Family]) -> tuple[list, list]:
    """(jobs, skipped): k episodes of every selected tuple; tuples the policy cannot run are skipped
    with the reason (no GUI teacher for a scripted policy, an unreadable bundle)."""
    if params.bundles:
        bundles = [Path(b) for b in params.bundles]
    else:
        rows = warehouse.rollout_candidates(
            status=params.status.value,
            ids=params.task_ids or None,
            app=params.app,
            family=params.family,
            run_id=params.run_id,
        )
        bundles = [Path(r["bundle_path"]) for r in rows]
    jobs, skipped = [], []
    for bundle in bundles:
        try:
            spec, _ = read_bundle(bundle)
        except CuagymError as exc:
            skipped.append((str(bundle), exc.message))
            continue
        family = families.get(spec.family)
        if params.policy == "scripted" and (family is None or family.teacher is None):
            skipped.append((spec.id, f"family {spec.family} has no GUI teacher"))
            continue
        if params.limit is not None and len(jobs) >= params.limit * params.k:  # `limit` runnable tuples
            break
        jobs += [RolloutJob(bundle, spec, repeat) for repeat in range(params.k)]
    return jobs, skipped


def pending(jobs: list[RolloutJob], ctx: RolloutContext) -> list[RolloutJob]:
    """Jobs not finished yet by the same model (the dataset and the warehouse both hold them)."""
    written = ctx.writer.done()
    left = []
    for job in jobs:
        model = model_name(ctx.params, ctx.families.get(job.spec.family))
        if job.rollout_id not in written or job.rollout_id not in ctx.warehouse.done_rollouts(
            model, str(ctx.writer.out)
        ):
            left.append(job)
    return left


def run_rollout(job: RolloutJob, ctx: RolloutContext) -> RolloutOutcome:
    """One episode, recorded; never raises for what the desktop, the policy or the reward do."""
    return record_rollout(play_rollout(job, ctx), ctx)


@dataclass
class Played:
    """One episode as played, before it is recorded (plain data: it comes back from a Dask worker)."""

    job: RolloutJob
    trajectory: Trajectory
    screenshots: dict[str, bytes]
    overhead_s: float = 0.0
    ruling: JudgeRuling = field(default_factory=JudgeRuling)
    error: str | None = None  # why the episode failed (its trajectory then has no reward)


def play_rollout(job: RolloutJob, ctx: RolloutContext) -> Played:
    """Play one episode on a fresh desktop; uses the context's provider, policy and judge, never its
    writer or warehouse (so a worker can play it)."""
    family = ctx.families.get(job.spec.family)
    policy = _policy(ctx, family)
    for attempt in (1, 2):
        try:
            judged = _episode(job, ctx, policy)
            break
        except TransientError as exc:  # e.g. a desktop that did not come up
            if attempt == 2:
                return _failed(job, ctx, policy, f"{type(exc).__name__}: {exc}")
            log.warning("%s: %s; retrying once", job.rollout_id, exc)
        except (CuagymError, OSError) as exc:
            return _failed(job, ctx, policy, f"{type(exc).__name__}: {exc}")
    episode = judged.episode
    return Played(
        job, episode.trajectory, episode.screenshots, episode.timings.overhead_per_step_s, judged.ruling
    )


def record_rollout(played: Played, ctx: RolloutContext) -> RolloutOutcome:
    """Write a played episode to the dataset and the warehouse; its outcome."""
    job, t = played.job, played.trajectory
    ctx.writer.write(t, played.screenshots)
    _save(ctx, job, t, played.overhead_s, played.ruling)
    if played.error is not None:
        return RolloutOutcome(
            rollout_id=job.rollout_id,
            tuple_id=job.spec.id,
            family=job.spec.family,
            reward=None,
            error=played.error[:500],
        )
    return RolloutOutcome(
        rollout_id=t.task_id,
        tuple_id=job.spec.id,
        family=job.spec.family,
        reward=t.reward,
        model_steps=len({s.model_step for s in t.steps}),
        seconds=t.seconds,
        judge_disagree=played.ruling.disagree,
    )


def _policy(ctx: RolloutContext, family: Family | None) -> Policy:
    if ctx.params.policy == "scripted":
        return ScriptedPolicy(family)
    if ctx.llm_policy is None:
        raise ConfigError("the llm policy is not configured", hint="pass --model (and --api-base)")
    return ctx.llm_policy()


def _episode(job: RolloutJob, ctx: RolloutContext, policy: Policy) -> Judged:
    if ctx.standby is not None:
        desktop = ctx.standby.take(job.spec, job.bundle)
    else:
        desktop = set_up_desktop(ctx.provider, job.spec, job.bundle)
    views: dict[str, StateView] = {}
    try:
        if ctx.judge is not None:
            views["initial"] = desktop.state_view()
        reward_py = (job.bundle / "reward.py").read_text(encoding="utf-8")
        episode = run_episode(
            desktop,
            job.spec,
            reward_py,
            policy,
            repeat=job.repeat,
            max_steps=ctx.params.max_steps,
            before_grading=(lambda env: views.update(final=env.state_view())) if ctx.judge else None,
        )
    finally:
        desktop.close()
    if ctx.judge is None:
        return Judged(episode)
    return Judged(episode, _rule(ctx, job, episode, views))


def _rule(ctx: RolloutContext, job: RolloutJob, episode: Episode, views: dict[str, StateView]) -> JudgeRuling:
    """The judge's verdict on the final state; a judge that gives none leaves the flag unset."""
    try:
        initial, final = (views[k].without(APP_HOUSEKEEPING) for k in ("initial", "final"))
        verdict = ctx.judge(job.spec, initial, final)
    except (AgentOutputError, LLMError) as exc:
        log.warning("%s: the judge gave no verdict: %s", job.rollout_id, exc)
        return JudgeRuling(reason=f"no verdict: {exc}"[:1000])
    solved = episode.trajectory.reward == 1.0
    disagree = None if episode.trajectory.reward is None else verdict.success != solved
    return JudgeRuling(success=verdict.success, reason=verdict.reason[:1000], disagree=disagree)


def _failed(job: RolloutJob, ctx: RolloutContext, policy: Policy, why: str) -> Played:
    log.warning("%s failed: %s", job.rollout_id, why)
    trajectory = Trajectory(
        task_id=job.rollout_id,
        instruction=job.spec.instruction,
        reward=None,
        terminated=False,
        screen=(ctx.provider.config.width, ctx.provider.config.height),
        model=policy.model,
        tuple_id=job.spec.id,
        repeat=job.repeat,
        policy=policy.name,
        coordinate_space=policy.space.value,
        reward_error=f"episode failed: {why}"[:1000],
    )
    return Played(job, trajectory, {}, error=why)


def _save(
    ctx: RolloutContext, job: RolloutJob, t: Trajectory, overhead_s: float, ruling: JudgeRuling | None = None
) -> None:
    row, steps = rollout_rows(t, job.spec, ctx.run_id, str(ctx.writer.out), overhead_s, ruling)
    ctx.warehouse.save_rollout(row, steps)


def rollout_rows(
    t: Trajectory,
    spec: TaskSpec,
    run_id: str,
    dataset: str,
    overhead_s: float,
    ruling: JudgeRuling | None = None,
) -> tuple[dict, list[dict]]:
    """The `rollouts` row and `rollout_steps` rows of one recorded trajectory (every caller that
    writes episodes to a dataset — this flow, GSPO — keeps the warehouse the same way)."""
    ruling = ruling or JudgeRuling()
    row = {
        "rollout_id": t.task_id,
        "model": t.model,
        "tuple_id": t.tuple_id,
        "family": spec.family,
        "app": spec.primary_app,
        "repeat": t.repeat,
        "run_id": run_id,
        "policy": t.policy,
        "coordinate_space": t.coordinate_space,
        "reward": t.reward,
        "reward_error": t.reward_error,
        "terminated": t.terminated,
        "status": t.status,
        "model_steps": len({s.model_step for s in t.steps}),
        "calls": len(t.steps),
        "failed_calls": sum(not s.ok for s in t.steps),
        "seconds": t.seconds,
        "overhead_s": round(overhead_s, 4),
        "judge_success": ruling.success,
        "judge_reason": ruling.reason,
        "reward_judge_disagree": ruling.disagree,
        "dataset": dataset,
    }
    steps = [
        {
            "step": s.step,
            "model_step": s.model_step,
            "action": s.action,
            "ok": s.ok,
            "error": s.error,
            "x": s.coordinate_screen[0] if s.coordinate_screen else None,
            "y": s.coordinate_screen[1] if s.coordinate_screen else None,
        }
        for s in t.steps
    ]
    return row, steps
