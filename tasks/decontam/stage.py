"""The decontamination stage: decide per tuple, record every decision, keep contaminated ones out.

A tuple is contaminated by a benchmark task when any rule holds (configs/decontamination.yaml):
its instruction copies the task's (3-gram containment >= `ngram`), says the same thing in other
words (MiniLM cosine >= `embedding`), or checks the same things for similar work (target share >=
`targets` with cosine >= `targets_embedding`). Each rule is a score over its threshold, so the closest
task is the one with the largest such ratio, and a ratio >= 1 is contamination.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from tasks.decontam.config import DEFAULT_CONFIG, Thresholds, load_config
from tasks.decontam.sets import BenchmarkTask, load_sets
from tasks.decontam.targets import spec_targets
from tasks.models import TaskSpec, TupleStatus

if TYPE_CHECKING:  # the index pulls in scikit-learn: only a run that decontaminates imports it
    from tasks.decontam.index import BenchmarkIndex, Scores

log = logging.getLogger(__name__)

CLEAN, CONTAMINATED = "clean", "contaminated"


@dataclass
class Verdict:
    """One tuple against its closest benchmark task (a `contamination` row)."""

    tuple_id: str
    benchmark: str
    task_id: str
    ngram: float
    embedding: float
    target_overlap: float
    rule: str  # ngram | embedding | targets: the rule closest to (or over) its threshold
    decision: str  # clean | contaminated

    @property
    def contaminated(self) -> bool:
        return self.decision == CONTAMINATED

    def row(self) -> dict:
        return asdict(self)


def decide(tuple_id: str, scores: Scores, tasks: list[BenchmarkTask], t: Thresholds) -> Verdict:
    ratios = np.stack(
        [
            scores.ngram / t.ngram,
            scores.embedding / t.embedding,
            # the target rule counts only where the instructions are close enough too
            np.where(scores.embedding >= t.targets_embedding, scores.targets / t.targets, 0.0),
        ]
    )
    rule, best = np.unravel_index(int(np.argmax(ratios)), ratios.shape)
    task = tasks[best]
    return Verdict(
        tuple_id=tuple_id,
        benchmark=task.benchmark,
        task_id=task.task_id,
        ngram=round(float(scores.ngram[best]), 4),
        embedding=round(float(scores.embedding[best]), 4),
        target_overlap=round(float(scores.targets[best]), 4),
        rule=("ngram", "embedding", "targets")[rule],
        decision=CONTAMINATED if ratios[rule, best] >= 1.0 else CLEAN,
    )


class Decontaminator:
    """The run's index and thresholds; `check` is one tuple's verdict.

    `prime` embeds a batch's instructions in one MiniLM call when the batch is planned: batched, an
    instruction costs a few ms instead of the ~60 ms of a call of its own (bench/decontamination.py),
    and that call is most of a tuple's check. An instruction not primed (a task writer reworded it)
    is embedded on its own when checked."""

    def __init__(self, index: BenchmarkIndex, thresholds: Thresholds) -> None:
        self.index = index
        self.thresholds = thresholds
        self._primed: dict[str, np.ndarray] = {}

    def prime(self, instructions: Iterable[str]) -> None:
        todo = [text for text in dict.fromkeys(instructions) if text not in self._primed]
        if todo:
            self._primed.update(zip(todo, self.index.embed(todo), strict=True))

    def check(self, spec: TaskSpec, reward_py: str = "") -> Verdict:
        targets = spec_targets(spec.instruction, spec.params, reward_py)
        scores = self.index.score(spec.instruction, targets, self._primed.get(spec.instruction))
        return decide(spec.id, scores, self.index.tasks, self.thresholds)


def set_paths(given: list[str], config_path: Path | None = None) -> tuple[list[Path], Thresholds]:
    """The sets a run compares with (`given`, else the config's list) and the config's thresholds."""
    config = load_config(config_path or DEFAULT_CONFIG)
    return [Path(p).expanduser() for p in (given or config.sets)], config.thresholds


def check_sets(given: list[str], config_path: Path | None = None) -> list[BenchmarkTask]:
    """Load (and so validate) every set a run would use; raises BenchmarkSetError on the first bad one."""
    paths, _ = set_paths(given, config_path)
    return load_sets(paths)


def build_decontaminator(given: list[str], config_path: Path | None = None) -> Decontaminator | None:
    """The run's stage, its index built once; None when no set is given (the stage is off)."""
    paths, thresholds = set_paths(given, config_path)
    if not paths:
        return None
    from tasks.decontam.index import BenchmarkIndex
    from tasks.dedupe import load_embedder

    tasks = load_sets(paths)
    log.info("decontamination: %d benchmark tasks from %d set(s)", len(tasks), len(paths))
    return Decontaminator(BenchmarkIndex(tasks, load_embedder()), thresholds)


def screen_tuple(spec: TaskSpec, decontam: Decontaminator, warehouse) -> TupleStatus:
    """Check a verified tuple before export and record the verdict; `contaminated` keeps it out."""
    accepted = warehouse.accepted_round(spec.id)
    verdict = decontam.check(spec, accepted["reward_py"] if accepted else "")
    warehouse.save_contamination(verdict.row())
    if verdict.contaminated:
        log.info(
            "tuple %s contaminated by %s %s (%s)", spec.id, verdict.benchmark, verdict.task_id, verdict.rule
        )
        return TupleStatus.CONTAMINATED
    return TupleStatus.VERIFIED
