"""One tuple, end to end: co-generate, record every round, export if verified.

This is the coarse unit the flow schedules (one Prefect task per tuple: per-round tasks would cost
more in orchestration than the rounds themselves). It is resumable: a tuple that is already
finished in the warehouse is read back, not recomputed; one that was cut off mid-way (a killed run)
starts a new attempt, keeping the old attempt's rounds.
"""

from __future__ import annotations

import json
import logging
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from infra.errors import TransientError
from tasks.cogen import CogenDeps, cogenerate
from tasks.export import write_bundle
from tasks.models import FINISHED, Provenance, RejectReason, Round, TaskSpec, TupleOutcome, TupleStatus
from tasks.skills import Skill, load_skill
from warehouse.journal import WarehouseJournal
from warehouse.store import Warehouse

log = logging.getLogger(__name__)


@dataclass
class TupleContext:
    """Everything a tuple needs besides its spec; one per flow run, shared by worker threads."""

    warehouse: Warehouse
    deps: CogenDeps
    skills_dir: Path
    final_dir: Path
    run_id: str
    provenance: Provenance
    export: bool = True
    critic: Any = None  # tasks.vote.TupleCritic: votes on verified tuples (None: no dataset-level vote)
    decontam: Any = None  # tasks.decontam.stage.Decontaminator: benchmark check before export (None: off)


def round_row(rnd: Round) -> dict:
    mutation = rnd.review.mutation
    failure = mutation.stage_failure() if mutation else None
    return {
        "task_id": rnd.task_id,
        "attempt": rnd.attempt,
        "round": rnd.number,
        "verdict": rnd.review.verdict.value,
        "reject_reason": rnd.reject_reason.value if rnd.reject_reason else None,
        "reward_initial": rnd.review.initial.score if rnd.review.initial else None,
        "reward_golden": rnd.review.golden.score if rnd.review.golden else None,
        "conditions": [c.model_dump(mode="json") for c in rnd.review.conditions],
        "review": rnd.review.model_dump(mode="json", exclude={"markdown"}),
        "review_md": rnd.review.markdown,
        "timings": rnd.timings.model_dump(),
        "initial_setup_py": rnd.scripts.initial_setup_py,
        "golden_patch_py": rnd.scripts.golden_patch_py,
        "reward_py": rnd.scripts.reward_py,
        "started_at": rnd.started_at.replace(tzinfo=None),
        "mutation_units": mutation.units if mutation else None,
        "mutation_total": mutation.total if mutation else None,
        "mutation_killed": mutation.killed if mutation else None,
        "mutation_skipped": mutation.skipped_mutants if mutation else None,
        "mutation_truncated": bool(mutation.truncated) if mutation else None,
        "mutation_error": failure[1] if failure else None,
        "mutation_skips": [
            {"mutant": s["mutant"], "path": s["path"], "why": s["why"]}
            for s in (mutation.skipped if mutation else [])
            if "mutant" in s
        ],
    }


def _outcome_from_row(spec: TaskSpec, row: dict) -> TupleOutcome:
    return TupleOutcome(
        task_id=spec.id,
        family=spec.family,
        apps=spec.apps,
        status=TupleStatus(row["status"]),
        rounds=row["rounds"] or 0,
        reject_reason=row["reject_reason"],
        seconds=row["seconds"] or 0.0,
        resumed=True,
        bundle=row["bundle_path"],
    )


def synthesize_tuple(spec: TaskSpec, ctx: TupleContext, *, again: bool = False) -> TupleOutcome:
    """Run (or resume) one tuple; returns its outcome. Only TransientError escapes (for a retry).

    A finished tuple is read back, unless `again` (an operator's retry): then it gets a new attempt.
    The three steps below run in one place here; the Dask runner runs the middle one on a worker.
    """
    finished = resumed_outcome(spec, ctx, again=again)
    if finished is not None:
        return finished
    job = start_attempt(spec, ctx)
    return complete_tuple(cogenerate_tuple(job, ctx.deps, ctx.critic, ctx.warehouse), ctx)


@dataclass
class TupleJob:
    """A started attempt: what co-generating it needs besides the deps (plain data, so it can travel
    to a worker process)."""

    spec: TaskSpec
    skill: Skill
    attempt: int


@dataclass
class TupleWork:
    """What co-generating one attempt gave; `journal` holds its warehouse writes when they were made
    away from the warehouse (on a worker) and still have to be replayed."""

    spec: TaskSpec
    status: TupleStatus
    rounds: int
    reject_reason: RejectReason | None
    seconds: float
    journal: WarehouseJournal | None = None


def resumed_outcome(spec: TaskSpec, ctx: TupleContext, *, again: bool = False) -> TupleOutcome | None:
    """The outcome of a tuple the warehouse already holds as finished (its bundle re-written when this
    run exports and it is missing); None when it has to be co-generated."""
    existing = ctx.warehouse.tuple_outcome(spec.id)
    if again or existing is None or existing["status"] not in [s.value for s in FINISHED]:
        return None
    if ctx.export and _needs_bundle(existing, ctx.final_dir / spec.id):
        # The run died before exporting it, or this run exports to another directory.
        if _screened(spec, ctx) is TupleStatus.VERIFIED:
            export_tuple(spec, ctx.warehouse, ctx.final_dir)
        existing = ctx.warehouse.tuple_outcome(spec.id)
    return _outcome_from_row(spec, existing)


def start_attempt(spec: TaskSpec, ctx: TupleContext) -> TupleJob:
    """Open a new attempt in the warehouse (a cut-off earlier one keeps its rounds)."""
    skill = load_skill(ctx.skills_dir, spec.apps)
    provenance = ctx.provenance.model_copy(update={"skill_hashes": skill.hashes})
    attempt = ctx.warehouse.start_tuple(spec.id, ctx.run_id, provenance.model_dump())
    return TupleJob(spec, skill, attempt)


def cogenerate_tuple(job: TupleJob, deps: CogenDeps, critic, sink) -> TupleWork:
    """Co-generate one attempt, recording each round, the votes and the final status to `sink` (the
    Warehouse, or a WarehouseJournal on a worker). Only TransientError escapes (for a retry)."""
    spec = job.spec
    start = time.monotonic()
    rounds_done = 0

    def persist(rnd: Round) -> None:
        nonlocal rounds_done
        findings = [f.model_dump() for f in rnd.review.findings]
        mutation = rnd.review.mutation
        mutants = [m.model_dump() for m in mutation.mutants] if mutation else []
        sink.save_round(round_row(rnd), findings, mutants)
        rounds_done = rnd.number

    try:
        result = cogenerate(spec, job.skill, deps, attempt=job.attempt, on_round=persist)
    except TransientError:
        raise  # the flow retries the tuple; a new attempt starts and old rounds stay
    except Exception as exc:  # a pipeline bug must not sink the batch: record it on the tuple
        log.exception("tuple %s failed inside the pipeline", spec.id)
        seconds = time.monotonic() - start
        _write_failure(sink, spec, exc, rounds=rounds_done, seconds=seconds)
        return TupleWork(spec, TupleStatus.REJECTED, rounds_done, RejectReason.INTERNAL_ERROR, seconds)
    if result.status is TupleStatus.VERIFIED and critic is not None:
        result.status, result.reject_reason = critic.review_tuple(spec, result.rounds[-1], job.attempt, sink)
    seconds = round(time.monotonic() - start, 4)
    sink.finish_tuple(
        spec.id,
        status=result.status.value,
        rounds=len(result.rounds),
        reward_initial=result.reward_initial,
        reward_golden=result.reward_golden,
        reject_reason=result.reject_reason.value if result.reject_reason else None,
        error=None,
        seconds=seconds,
    )
    return TupleWork(spec, result.status, len(result.rounds), result.reject_reason, seconds)


def complete_tuple(work: TupleWork, ctx: TupleContext) -> TupleOutcome:
    """Replay the attempt's journal (if any) into the warehouse, export the tuple if verified."""
    if work.journal is not None:
        work.journal.replay(ctx.warehouse)
    spec = work.spec
    bundle = None
    status = _screened(spec, ctx) if work.status is TupleStatus.VERIFIED else work.status
    if status is TupleStatus.VERIFIED and ctx.export:
        bundle = export_tuple(spec, ctx.warehouse, ctx.final_dir)
    return TupleOutcome(
        task_id=spec.id,
        family=spec.family,
        apps=spec.apps,
        status=TupleStatus.EXPORTED if bundle else status,
        rounds=work.rounds,
        reject_reason=work.reject_reason,
        seconds=work.seconds,
        bundle=bundle,
    )


def _screened(spec: TaskSpec, ctx: TupleContext) -> TupleStatus:
    """A verified tuple's status after the decontamination stage (VERIFIED when the stage is off)."""
    if ctx.decontam is None:
        return TupleStatus.VERIFIED
    from tasks.decontam.stage import screen_tuple

    return screen_tuple(spec, ctx.decontam, ctx.warehouse)


def _needs_bundle(row: dict, bundle: Path) -> bool:
    verified = row["status"] in (TupleStatus.VERIFIED.value, TupleStatus.EXPORTED.value)
    return verified and not (bundle / "task.json").is_file()


def record_failure(
    spec: TaskSpec, ctx: TupleContext, exc: BaseException, *, rounds: int = 0, seconds: float = 0.0
) -> TupleOutcome:
    """Mark a tuple the pipeline itself failed on as rejected (internal_error) with the traceback."""
    _write_failure(ctx.warehouse, spec, exc, rounds=rounds, seconds=seconds)
    return TupleOutcome(
        task_id=spec.id,
        family=spec.family,
        apps=spec.apps,
        status=TupleStatus.REJECTED,
        rounds=rounds,
        reject_reason=RejectReason.INTERNAL_ERROR,
        seconds=seconds,
    )


def _write_failure(sink, spec: TaskSpec, exc: BaseException, *, rounds: int, seconds: float) -> None:
    sink.finish_tuple(
        spec.id,
        status=TupleStatus.REJECTED.value,
        rounds=rounds,
        reward_initial=None,
        reward_golden=None,
        reject_reason=RejectReason.INTERNAL_ERROR.value,
        error="".join(traceback.format_exception(exc))[-4000:],
        seconds=seconds,
    )


def export_tuple(spec: TaskSpec, warehouse: Warehouse, final_dir: Path) -> str | None:
    """Write the bundle of a verified tuple from what the warehouse holds; returns its path."""
    accepted = warehouse.accepted_round(spec.id)
    if accepted is None:
        return None
    provenance = json.loads(accepted["provenance"]) if accepted["provenance"] else {}
    review = json.loads(accepted["review"])
    provenance |= {
        "rounds": accepted["round"],
        "attempt": accepted["attempt"],
        "scores": {"initial": accepted["reward_initial"], "golden": accepted["reward_golden"]},
        "scan": {"clean": not review.get("findings"), "findings": review.get("findings", [])},
        "votes": warehouse.tuple_votes(spec.id),
        "costs": warehouse.tuple_llm_usage(spec.id),
        "created_at": str(accepted["created_at"]),
    }
    path = write_bundle(
        final_dir,
        spec,
        initial_setup_py=accepted["initial_setup_py"],
        golden_patch_py=accepted["golden_patch_py"],
        reward_py=accepted["reward_py"],
        review_md=accepted["review_md"],
        provenance=provenance,
    )
    warehouse.mark_exported(spec.id, str(path))
    return str(path)


def reexport_all(warehouse: Warehouse, final_dir: Path) -> list[str]:
    """Re-write the bundle of every verified tuple (e.g. to a new output dir)."""
    paths = []
    for task_id in warehouse.verified_task_ids():
        spec = TaskSpec.model_validate(warehouse.spec(task_id))
        path = export_tuple(spec, warehouse, final_dir)
        if path:
            paths.append(path)
    return paths
