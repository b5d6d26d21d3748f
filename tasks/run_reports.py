"""What runs report, beside the tuples themselves (tasks/models.py re-exports every name here):
a rollout's outcome and a rollout run's summary, the teacher stage of a synthesis batch, and the
quality flow's results per seed and per family. Plain models over builtins: nothing here refers
to the rest of the vocabulary, so tasks/models.py can import them without a cycle."""

from __future__ import annotations

from pydantic import BaseModel, Field


class RolloutOutcome(BaseModel):
    rollout_id: str
    tuple_id: str
    family: str
    reward: float | None
    model_steps: int = 0
    seconds: float = 0.0
    resumed: bool = False
    error: str | None = None
    judge_disagree: bool | None = None  # None: no judge, or no verdict


class RolloutSummary(BaseModel):
    run_id: str
    dataset: str
    outcomes: list[RolloutOutcome] = Field(default_factory=list)
    skipped: list[tuple[str, str]] = Field(default_factory=list)  # (tuple, why)
    seconds: float = 0.0
    desktop_waits_s: list[float] = Field(
        default_factory=list
    )  # with --standby: each episode's wait for its desktop

    @property
    def solved(self) -> int:
        return sum(o.reward == 1.0 for o in self.outcomes)


class TeacherSummary(BaseModel):
    """What the teacher stage of one batch did (its rollouts are in `dataset` and the warehouse)."""

    dataset: str
    rollouts: int = 0
    solved: list[str] = Field(default_factory=list)  # tuple ids: some rollout reached reward 1.0
    failed: list[str] = Field(default_factory=list)
    untaught: int = 0  # exported tuples with no scripted teacher and no teacher model
    disagreements: list[str] = Field(default_factory=list)  # tuples flagged reward_judge_disagree
    errors: int = 0  # rollouts that could not run (reward null and an error)


class SeedQuality(BaseModel):
    """One family instance under the quality flow: its endpoints, near misses and mutants, and
    (optionally) its GUI teacher's episode."""

    family: str
    app: str
    seed: int
    task_id: str
    reward_initial: float | None = None
    reward_golden: float | None = None
    mistakes: int = 0  # near misses run
    mistakes_told: int = 0  # near misses that scored strictly between 0 and 1
    mutants: int = 0
    killed: int = 0
    skipped: int = 0
    survivors: list[str] = Field(default_factory=list)  # "<mutant id>: <what it changed>"
    error: str | None = None  # why the instance could not be checked in full
    teacher_ran: bool = False
    teacher_passed: bool | None = None
    teacher_error: str | None = None
    mutation_s: float = 0.0
    teacher_s: float | None = None

    def problems(self) -> list[str]:
        """What this instance got wrong, in words (empty: nothing)."""
        found = [self.error] if self.error else []
        if self.reward_initial not in (None, 0.0) or self.reward_golden not in (None, 1.0):
            found.append(f"endpoints initial={self.reward_initial} golden={self.reward_golden}")
        if self.mistakes_told < self.mistakes:
            found.append(
                f"{self.mistakes - self.mistakes_told} of {self.mistakes} near misses not told apart"
            )
        found += [f"surviving mutant {s}" for s in self.survivors]
        if self.teacher_ran and not self.teacher_passed:
            found.append(f"teacher failed: {self.teacher_error or 'reward below 1.0'}")
        return [f"seed {self.seed}: {p}" for p in found]


class FamilyQuality(BaseModel):
    """The quality flow's result for one family: every seed it checked."""

    family: str
    app: str
    seeds: list[SeedQuality] = Field(default_factory=list)
    seconds: float = 0.0

    mutants = property(lambda self: sum(s.mutants for s in self.seeds))
    killed = property(lambda self: sum(s.killed for s in self.seeds))
    teacher_runs = property(lambda self: sum(s.teacher_ran for s in self.seeds))
    teacher_passed = property(lambda self: sum(bool(s.teacher_passed) for s in self.seeds if s.teacher_ran))

    @property
    def kill_rate(self) -> float | None:
        return self.killed / self.mutants if self.mutants else None

    @property
    def teacher_pass_rate(self) -> float | None:
        return self.teacher_passed / self.teacher_runs if self.teacher_runs else None

    def problems(self) -> list[str]:
        return [p for s in self.seeds for p in s.problems()]


class QualitySummary(BaseModel):
    run_id: str
    families: list[FamilyQuality]
    seconds: float
    warehouse: str

    def failed(self) -> list[FamilyQuality]:
        return [f for f in self.families if f.problems()]
