"""The vocabulary every pipeline step shares: task specs, rounds, reviews, tuples, run parameters.

A tuple's life: `pending` -> `generating` (rounds running) -> `verified` or `rejected`. A verified
tuple is then `exported` as a bundle. Nothing is ever deleted: a retried tuple gets a new attempt
whose rounds are appended next to the old ones.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from infra.apps import all_apps

# The task vocabulary is a shared contract (infra/contracts/task.py); the steps take it from here.
from infra.contracts.task import Difficulty as Difficulty
from infra.contracts.task import Domain as Domain
from infra.contracts.task import Platform as Platform
from infra.contracts.task import Scenario as Scenario
from infra.contracts.task import TaskSpec as TaskSpec
from infra.contracts.task import Wording as Wording
from infra.envs.base import StateView as StateView  # re-exported: part of the vocabulary
from tasks.run_reports import FamilyQuality as FamilyQuality  # re-exported: part of the vocabulary
from tasks.run_reports import QualitySummary as QualitySummary
from tasks.run_reports import RolloutOutcome as RolloutOutcome
from tasks.run_reports import RolloutSummary as RolloutSummary
from tasks.run_reports import SeedQuality as SeedQuality
from tasks.run_reports import TeacherSummary as TeacherSummary

MAX_ROUNDS = 5

# The apps a run may name: every app declared in skills/<app>/app.yaml (infra/apps.py; a folder with
# a taxonomy but no declaration is an error there). As a Literal they become an enum in the synth and
# retry deployments' parameter schema, so the UI and prefect.yaml refuse an unknown app before a run
# starts instead of failing it at sampling time.
KNOWN_APPS: tuple[str, ...] = all_apps()
AppName = Literal[KNOWN_APPS]  # type: ignore[valid-type]


def utcnow() -> datetime:
    return datetime.now(UTC)


class Scripts(BaseModel):
    """The three generated programs of a round (reward_py comes from the Discriminator)."""

    initial_setup_py: str = ""
    golden_patch_py: str = ""
    reward_py: str = ""


class Condition(StrEnum):
    SETUP_OK = "setup_ok"  # 1. initial_setup.py exits 0 on initial_env
    PATCH_OK = "patch_ok"  # 2. golden_patch.py exits 0 on golden_env
    GOLDEN_FULL = "golden_full"  # 3. reward(golden_env) == 1.0
    INITIAL_ZERO = "initial_zero"  # 4. reward(initial_env) == 0.0
    SCAN_CLEAN = "scan_clean"  # 5. reward.py has no forbidden pattern


CONDITION_TEXT = {
    Condition.SETUP_OK: "initial_setup.py exits 0 on initial_env",
    Condition.PATCH_OK: "golden_patch.py exits 0 on golden_env",
    Condition.GOLDEN_FULL: "reward(golden_env) == 1.0",
    Condition.INITIAL_ZERO: "reward(initial_env) == 0.0",
    Condition.SCAN_CLEAN: "reward.py has no forbidden pattern",
}


class ConditionResult(BaseModel):
    condition: Condition
    ok: bool
    detail: str = ""


class CheckStatus(StrEnum):
    """How one check of a reward ended (skills/kit/guest/rewardkit.py)."""

    OK = "ok"
    MISSING_OUTPUT = "missing_output"  # it ran and found the task's output absent: credit 0, not an error
    INVALID_OUTPUT = "invalid_output"  # it ran and found the output unreadable as its kind: credit 0 too
    CHECK_ERROR = "check_error"  # it raised: the grader is broken, whatever the score says


class ComponentScore(BaseModel):
    name: str
    weight: float
    score: float
    status: CheckStatus = CheckStatus.OK
    error: str | None = None


class PreconditionResult(BaseModel):
    name: str
    held: bool
    status: CheckStatus = CheckStatus.OK
    error: str | None = None


class GradeFailure(StrEnum):
    """Why a reward run gave no score. None of these is ever read as a 0."""

    CRASHED = "crashed"  # exited non-zero, timed out, or was killed for memory
    MALFORMED = "malformed"  # no single REWARD line last, no valid BREAKDOWN, a score outside [0, 1]
    CHECK_ERROR = "check_error"  # a component or precondition raised


class Grade(BaseModel):
    """What reward.py said about one env: its score (None unless every check ran and the output
    follows the contract) and, when there is none, why."""

    score: float | None
    exit_code: int
    components: list[ComponentScore] = Field(default_factory=list)
    preconditions: list[PreconditionResult] = Field(default_factory=list)
    preconditions_failed: list[str] = Field(default_factory=list)
    error: str | None = None  # what went wrong, quoted for the REVIEW
    failure: GradeFailure | None = None


class Finding(BaseModel):
    """One forbidden pattern found by the static scan of reward.py."""

    rule: str
    line: int
    message: str


class Verdict(StrEnum):
    PASS = "PASS"
    FAIL = "FAIL"


class MutantResult(BaseModel):
    """One mutant of the golden state and what the reward made of it (tasks/mutation)."""

    id: str
    base: str  # the state it starts from: golden (one change reverted) or initial (one applied)
    kind: str  # partial_revert | corruption
    unit_kind: str
    path: str
    what: str
    score: float | None
    outcome: str  # killed | errored | survived
    error: str | None = None


class MutationReport(BaseModel):
    """The mutation stage of one round: how many change units, every mutant graded, what was skipped.

    `skipped` lists mutants that could not be built or graded (entries with a "mutant" key) and
    files whose handler could not refine them (they stay one file-level unit; no "mutant" key).
    """

    units: int = 0
    mutants: list[MutantResult] = Field(default_factory=list)
    skipped: list[dict] = Field(default_factory=list)
    error: str | None = None  # why the stage could not build its mutants at all (a mutator crash)
    truncated: list[str] = Field(default_factory=list)  # what the state listing could not see
    max_skipped_share: float = 0.10  # the bound it is judged against (MutationSettings)
    seconds: float = 0.0

    @property
    def skipped_mutants(self) -> int:
        return sum("mutant" in s for s in self.skipped)

    @property
    def planned(self) -> int:
        return self.total + self.skipped_mutants

    @property
    def skipped_share(self) -> float | None:
        return self.skipped_mutants / self.planned if self.planned else None

    def stage_failure(self) -> tuple[RejectReason, str] | None:
        """Why the stage could not test the reward, or None: fails closed, so a state the stage
        cannot list, copy or grade never lets a reward through untested."""
        if self.error:
            return RejectReason.MUTATION_ERROR, self.error
        if self.truncated:
            shown = "; ".join(self.truncated[:3])
            return RejectReason.MUTATION_TRUNCATED, f"the state could not be listed in full: {shown}"
        if not self.total and (self.planned or self.units >= 2):  # mutable content, nothing tested
            return RejectReason.MUTATION_ERROR, (
                f"{self.units} change units, but none of the {self.planned} planned mutants could be "
                "built or graded"
            )
        if self.skipped_share is not None and self.skipped_share > self.max_skipped_share:
            return RejectReason.MUTANTS_SKIPPED, (
                f"{self.skipped_mutants} of {self.planned} mutants skipped ({self.skipped_share:.0%}, "
                f"more than the {self.max_skipped_share:.0%} allowed)"
            )
        return None

    @property
    def total(self) -> int:
        return len(self.mutants)

    @property
    def killed(self) -> int:
        return sum(m.outcome != "survived" for m in self.mutants)

    @property
    def survivors(self) -> list[MutantResult]:
        return [m for m in self.mutants if m.outcome == "survived"]

    @property
    def score(self) -> float | None:
        """killed / total, or None when the state allows no mutant at all."""
        return self.killed / self.total if self.total else None


class Review(BaseModel):
    """The orchestrator's judgement of one round; its markdown goes to the next round's agents."""

    verdict: Verdict
    conditions: list[ConditionResult]
    golden: Grade | None = None
    initial: Grade | None = None
    findings: list[Finding] = Field(default_factory=list)
    mutation: MutationReport | None = None  # run once the five conditions hold
    feedback: list[str] = Field(default_factory=list)
    markdown: str = ""

    @property
    def failed(self) -> list[Condition]:
        return [c.condition for c in self.conditions if not c.ok]


class RejectReason(StrEnum):
    GENERATOR_ERROR = "generator_error"  # the Generator produced nothing usable
    DISCRIMINATOR_ERROR = "discriminator_error"
    SETUP_FAILED = "setup_failed"
    PATCH_FAILED = "patch_failed"
    GOLDEN_NOT_FULL = "golden_not_full"
    INITIAL_NOT_ZERO = "initial_not_zero"
    REWARD_CRASHED = "reward_crashed"  # reward.py exited non-zero, timed out or ran out of memory
    REWARD_MALFORMED = "reward_malformed"  # its output breaks the REWARD / BREAKDOWN contract
    REWARD_CHECK_ERROR = "reward_check_error"  # one of its checks raised (on either state)
    MUTANT_SURVIVED = "mutant_survived"  # the five conditions hold, but a mutant of the golden scored 1.0
    MUTATION_ERROR = "mutation_error"  # the mutation stage could not build or grade its mutants
    MUTATION_TRUNCATED = "mutation_truncated"  # the state was larger or deeper than the stage can list
    MUTANTS_SKIPPED = "mutants_skipped"  # too large a share of the mutants could not be built or graded
    FORBIDDEN_PATTERN = "forbidden_pattern"
    INTERNAL_ERROR = "internal_error"  # the pipeline itself failed; see the error text
    VOTE_REJECT = "vote_reject"  # verified, but the critics' strict majority rejected it (tasks/vote.py)
    VOTE_MODIFY_QUERY = "vote_modify_query"  # verified, but the critics want the instruction rewritten


class RoundTimings(BaseModel):
    generate_s: float = 0.0
    provision_s: float = 0.0
    setup_s: float = 0.0
    patch_s: float = 0.0
    discriminate_s: float = 0.0
    scan_s: float = 0.0
    reward_s: float = 0.0
    mutation_s: float = 0.0
    total_s: float = 0.0


class Round(BaseModel):
    task_id: str
    attempt: int
    number: int  # 1..MAX_ROUNDS
    scripts: Scripts
    review: Review
    reject_reason: RejectReason | None = None  # the round's main failure, None when it passed
    timings: RoundTimings = Field(default_factory=RoundTimings)
    started_at: datetime = Field(default_factory=utcnow)


class TupleStatus(StrEnum):
    PENDING = "pending"
    GENERATING = "generating"
    VERIFIED = "verified"
    REJECTED = "rejected"
    EXPORTED = "exported"
    CONTAMINATED = "contaminated"  # verified, but too close to a benchmark task: never exported


FINISHED = (TupleStatus.VERIFIED, TupleStatus.REJECTED, TupleStatus.EXPORTED, TupleStatus.CONTAMINATED)


class Provenance(BaseModel):
    backend: str
    models: dict[str, str] = Field(default_factory=dict)  # role -> model ("procedural" for no LLM)
    skill_hashes: dict[str, str] = Field(default_factory=dict)  # app -> SKILL.md sha256
    run_id: str = ""
    git_rev: str = ""


# Where per-tuple (per-episode) tasks run: threads of the flow process, or Dask worker processes.
Runner = Literal["local", "dask"]


class AgentParams(BaseModel):
    """How tuples are co-generated: backends, models, env, concurrency (shared by synth and retry)."""

    model_config = ConfigDict(extra="forbid")

    backend: str = Field(default="procedural", description="agent backend: procedural | llm")
    env: str = Field(default="local", description="env provider for co-generation")
    workers: int = Field(default=2, ge=1, le=64, description="tuples processed concurrently")
    runner: Runner = Field(default="local", description="per-tuple tasks: local threads, or Dask workers")
    dask_address: str | None = Field(
        default=None, description="Dask scheduler (tcp://host:8786); none: a LocalCluster of `workers`"
    )
    max_rounds: int = Field(default=MAX_ROUNDS, ge=1, le=MAX_ROUNDS)
    out: str | None = Field(default=None, description="output dir for bundles (default ./output)")
    # LLM roles (backend `llm`, or a per-role backend below). Flags here beat CUAGYM_LLM_* env vars,
    # which beat the --llm-config file (infra/llm_config.py); API keys never go here (stored with the run).
    model: str | None = Field(default=None, description="litellm model for every LLM role, e.g. anthropic/…")
    api_base: str | None = Field(default=None, description="OpenAI-compatible base URL (vLLM, SGLang)")
    task_writer_model: str | None = None
    generator_model: str | None = None
    discriminator_model: str | None = None
    critic_model: str | None = None
    judge_model: str | None = None
    llm_config: str | None = Field(default=None, description="YAML file with per-role LLM settings")
    llm_cache: bool | None = Field(default=None, description="on-disk response cache (var/llm-cache)")
    task_writer_backend: str | None = Field(default=None, description="procedural | llm (default: backend)")
    generator_backend: str | None = Field(default=None, description="procedural | llm (default: backend)")
    discriminator_backend: str | None = Field(default=None, description="procedural | llm (default: backend)")
    critics: int | None = Field(
        default=None,
        ge=0,
        le=15,
        description="critic votes per verified tuple (default: 3 with backend llm, else 0)",
    )
    agent_steps: int = Field(default=12, ge=2, le=100, description="tool-loop step budget of LLM agents")
    mutants: int = Field(
        default=8,
        ge=0,
        le=64,
        description="partial-revert mutants per passing round (0 with 0 corruptions: no stage)",
    )
    corruption_mutants: int = Field(
        default=3, ge=0, le=16, description="corruption mutants per passing round"
    )


class SynthParams(AgentParams):
    """Parameters of the synthesis flow (the `synth` deployment validates against this)."""

    count: int = Field(default=20, ge=1, le=100_000, description="tasks to sample in this run")
    apps: list[AppName] = Field(default_factory=list, description="restrict to these apps (empty: all)")
    families: list[str] = Field(
        default_factory=list, description="restrict to these family ids, e.g. files.bin_scripts (empty: all)"
    )
    seed: int | None = Field(default=None, description="sampling seed; default: today's date (UTC)")
    export: bool = True
    quotas: str | None = Field(default=None, description="quotas YAML (default skills/quotas.yaml)")
    verified_budget: int | None = Field(
        default=None,
        ge=1,
        description="keep sampling batches of `count` "
        "until this many tuples are verified and every app has its minimum",
    )
    max_batches: int = Field(default=10, ge=1, le=1000, description="stop after this many batches anyway")
    # The teacher stage (the dataset-level filter): k rollouts per exported tuple on real desktops.
    teacher_k: int = Field(default=1, ge=0, le=16, description="teacher rollouts per tuple (0: no stage)")
    teacher_limit: int | None = Field(default=None, ge=1, description="at most this many tuples rolled out")
    teacher_model: str | None = Field(
        default=None, description="litellm model that rolls out families without a scripted teacher"
    )
    teacher_max_steps: int = Field(default=80, ge=1, le=500)
    decontaminate: list[str] = Field(
        default_factory=list,
        description="benchmark sets (OSWorld checkouts or JSONL files) no tuple may be too close to "
        "(empty: configs/decontamination.yaml's list)",
    )

    def resolved_seed(self) -> int:
        return self.seed if self.seed is not None else int(utcnow().strftime("%Y%m%d"))


class RetryParams(AgentParams):
    """Parameters of the retry flow: which finished tuples to run again (as a new attempt)."""

    task_ids: list[str] = Field(default_factory=list, description="exact task ids (empty: select by filters)")
    status: TupleStatus = Field(default=TupleStatus.REJECTED, description="tuples in this status")
    reject_reason: RejectReason | None = Field(default=None, description="only this reject reason")
    app: AppName | None = Field(default=None, description="only tuples touching this app")
    limit: int = Field(default=100, ge=1, le=100_000)
    decontaminate: list[str] = Field(
        default_factory=list,
        description="benchmark sets a retried tuple is checked against, as in synthesis "
        "(empty: configs/decontamination.yaml's list)",
    )

    def as_synth(self) -> SynthParams:
        """The synthesis settings a retried tuple runs under (every agent setting and the benchmark
        sets carry over)."""
        return SynthParams(
            count=1,
            decontaminate=self.decontaminate,
            **self.model_dump(include=set(AgentParams.model_fields)),
        )


class RolloutParams(BaseModel):
    """Parameters of the rollout flow (`cuagym rollout`, the `rollout` deployment): which tuples,
    which policy, how many episodes each."""

    model_config = ConfigDict(extra="forbid")

    bundles: list[str] = Field(
        default_factory=list, description="bundle dirs (empty: select from the warehouse)"
    )
    task_ids: list[str] = Field(default_factory=list, description="exact tuple ids")
    app: str | None = Field(default=None, description="only tuples touching this app")
    family: str | None = Field(default=None, description="only this family")
    run_id: str | None = Field(default=None, description="only tuples of this synthesis run")
    status: TupleStatus = Field(default=TupleStatus.EXPORTED, description="tuples in this status")
    limit: int | None = Field(default=None, ge=1, le=1_000_000)
    policy: Literal["scripted", "llm"] = Field(default="scripted", description="GUI teacher or an LLM")
    k: int = Field(default=1, ge=1, le=64, description="episodes per tuple")
    max_steps: int = Field(default=80, ge=1, le=500, description="model steps per episode")
    workers: int = Field(default=1, ge=1, le=16, description="desktops side by side")
    standby: bool = Field(
        default=False,
        description="set up the desktop of a tuple's next episode while one plays (local runner)",
    )
    env: Literal["desktop", "docker"] = Field(
        default="desktop",
        description="desktops as bubblewrap sandboxes, or as containers of the desktop image",
    )
    runner: Runner = Field(default="local", description="episodes: local threads, or Dask workers")
    dask_address: str | None = Field(
        default=None, description="Dask scheduler (tcp://host:8786); none: a LocalCluster of `workers`"
    )
    out: str | None = Field(default=None, description="dataset dir (default output/rollouts)")
    model: str | None = Field(default=None, description="litellm model of the llm policy")
    api_base: str | None = Field(default=None, description="OpenAI-compatible base URL (vLLM, SGLang)")
    model_family: str = Field(default="qwen3.5", description="tool-call format and coordinate space")
    max_pixels: int | None = Field(
        default=None,
        ge=3136,
        description="the served processor's max_pixels (default: the family's stock one)",
    )
    temperature: float = Field(default=0.7, ge=0.0, le=2.0)
    max_tokens: int = Field(default=3072, ge=16, le=65_536)
    judge_model: str | None = Field(default=None, description="litellm model that rules on final states")
    judge_api_base: str | None = Field(default=None, description="its OpenAI-compatible base URL")


class TupleOutcome(BaseModel):
    """What the flow reports per tuple (small: the full tuple lives in the warehouse)."""

    task_id: str
    family: str
    apps: list[str]
    status: TupleStatus
    rounds: int
    reject_reason: RejectReason | None = None
    seconds: float = 0.0
    resumed: bool = False
    bundle: str | None = None


class RunSummary(BaseModel):
    run_id: str
    outcomes: list[TupleOutcome]
    seconds: float
    warehouse: str
    output: str
    checks_total: int = 0
    checks_failed: list[str] = Field(default_factory=list)  # "suite.expectation(column)"
    coverage_chart: str | None = None
    teacher: TeacherSummary | None = None

    def count(self, status: TupleStatus) -> int:
        return sum(o.status == status for o in self.outcomes)


class QualityParams(BaseModel):
    """Parameters of the quality flow (`cuagym quality`, the `quality` deployment): which families,
    over how many seeds, with how many GUI teacher runs each."""

    model_config = ConfigDict(extra="forbid")

    seeds: int = Field(default=20, ge=1, le=10_000, description="seeds per family (mutation stage)")
    teacher_seeds: int = Field(default=3, ge=0, le=1_000, description="GUI teacher runs per family (0: none)")
    seed_base: int = Field(default=0, ge=0, description="the first seed; seeds run seed_base, seed_base+1, …")
    families: list[str] = Field(default_factory=list, description="only these family ids (empty: all)")
    apps: list[AppName] = Field(default_factory=list, description="only families touching these apps")
    workers: int = Field(default=2, ge=1, le=16, description="families checked side by side")
