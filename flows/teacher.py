"""The teacher stage of the synthesis flow (the paper's dataset-level filter).

Every tuple a batch exported is rolled out `teacher_k` times on real desktops: by its family's
scripted GUI teacher where it has one, else by `teacher_model` when one is configured. A tuple is
`teacher_solved` when some rollout reached reward 1.0 through the GUI, `teacher_failed` otherwise;
with a judge model the reward is also held against the judge's verdict on each final state, and a
disagreement flags the tuple `reward_judge_disagree`. The verdicts go to the warehouse
(`tuples.teacher`, `tuples.teacher_flag`); the trajectories to `<out>/rollouts`.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from flows.publish import restore_output_task
from flows.rollout import rollout_flow
from tasks.models import RolloutOutcome, RolloutParams, SynthParams, TeacherSummary
from tasks.publish import output_child
from warehouse.store import Warehouse

SOLVED, FAILED, DISAGREE = "teacher_solved", "teacher_failed", "reward_judge_disagree"


def teacher_stage(params: SynthParams, run_id: str, out: Path, warehouse: Warehouse) -> TeacherSummary | None:
    """Roll out the batch's exported tuples and record each one's verdict; None when the stage is off."""
    if params.teacher_k == 0:
        return None
    common = {
        "run_id": run_id,
        "k": params.teacher_k,
        "max_steps": params.teacher_max_steps,
        "workers": min(params.workers, 2),  # a desktop takes most of a core while LibreOffice starts
        "runner": params.runner,  # the teacher's rollouts run where the tuples did
        "dask_address": params.dask_address,
        "out": str(out / "rollouts"),
        "judge_model": params.judge_model,
        "judge_api_base": params.api_base,
    }
    # the teacher dataset is appended to: on S3, start from what earlier runs published there (a new
    # machine's staging folder is empty, and its shorter trajectories.jsonl would replace theirs)
    restore_output_task(output_child(params.out, "rollouts"), out / "rollouts")
    scripted = rollout_flow(RolloutParams(policy="scripted", limit=params.teacher_limit, **common))
    outcomes = list(scripted.outcomes)
    untaught = [tuple_id for tuple_id, why in scripted.skipped if "no GUI teacher" in why]
    if params.teacher_model and untaught:
        left = None if params.teacher_limit is None else params.teacher_limit - len(_tuples(outcomes))
        if left is None or left > 0:
            llm = rollout_flow(
                RolloutParams(
                    policy="llm",
                    task_ids=untaught,
                    limit=left,
                    model=params.teacher_model,
                    api_base=params.api_base,
                    **common,
                )
            )
            outcomes += llm.outcomes
            untaught = [t for t in untaught if t not in _tuples(llm.outcomes)]
    return record_verdicts(warehouse, outcomes, scripted.dataset, untaught=len(untaught))


def record_verdicts(
    warehouse: Warehouse, outcomes: list[RolloutOutcome], dataset: str, *, untaught: int
) -> TeacherSummary:
    by_tuple: dict[str, list[RolloutOutcome]] = defaultdict(list)
    for outcome in outcomes:
        by_tuple[outcome.tuple_id].append(outcome)
    summary = TeacherSummary(
        dataset=dataset,
        rollouts=len(outcomes),
        untaught=untaught,
        errors=sum(o.error is not None for o in outcomes),
    )
    for tuple_id, rollouts in sorted(by_tuple.items()):
        verdict = SOLVED if any(o.reward == 1.0 for o in rollouts) else FAILED
        flag = DISAGREE if any(o.judge_disagree for o in rollouts) else None
        warehouse.set_teacher(tuple_id, verdict, flag)
        (summary.solved if verdict == SOLVED else summary.failed).append(tuple_id)
        if flag:
            summary.disagreements.append(tuple_id)
    return summary


def _tuples(outcomes: list[RolloutOutcome]) -> set[str]:
    return {o.tuple_id for o in outcomes}
