"""The vocabulary every pipeline step shares: task specs, rounds, reviews, tuples, run parameters.

A tuple's life: `pending` -> `generating` (rounds running) -> `verified` or `rejected`. A verified
tuple is then `exported` as a bundle. Nothing is ever deleted: a retried tuple gets a new attempt
whose rounds are appended next to the old ones.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from infra.envs.base import StateView  # noqa: F401  (re-exported: part of the vocabulary)

MAX_ROUNDS = 5


def utcnow() -> datetime:
    return datetime.now(UTC)


class Platform(StrEnum):
    DESKTOP = "desktop"
    WEB = "web"
    CROSS = "cross"


class Difficulty(StrEnum):
    EASY = "easy"  # <= 3 atomic actions
    MEDIUM = "medium"  # 3-10 steps
    HARD = "hard"  # long-horizon: several independently scored components


class Scenario(StrEnum):
    COMMERCIAL = "commercial"
    EDUCATIONAL = "educational"
    SCIENTIFIC = "scientific"
    PERSONAL = "personal"


class Domain(StrEnum):
    """O*NET SOC major occupation groups (the paper grounds coverage in them)."""

    MANAGEMENT = "management"
    BUSINESS_FINANCE = "business_finance"
    COMPUTER_MATH = "computer_math"
    ENGINEERING = "engineering"
    SCIENCE = "science"
    COMMUNITY_SOCIAL = "community_social"
    LEGAL = "legal"
    EDUCATION = "education"
    ARTS_MEDIA = "arts_media"
    HEALTHCARE = "healthcare"
    PROTECTIVE = "protective"
    FOOD_SERVICE = "food_service"
    PERSONAL_CARE = "personal_care"
    SALES = "sales"
    OFFICE_ADMIN = "office_admin"
    CONSTRUCTION = "construction"
    PRODUCTION = "production"
    TRANSPORTATION = "transportation"


class Wording(StrEnum):
    """How an instruction is phrased; each family offers every style."""

    IMPERATIVE = "imperative"
    REQUEST = "request"
    CONTEXTUAL = "contextual"
    GOAL = "goal"
    PROBLEM_FIX = "problem_fix"


class TaskSpec(BaseModel):
    """One task to synthesise: what the agent is asked (instruction) and what pins the world (context,
    params). Generator and Discriminator both work from this and nothing else of each other."""

    model_config = ConfigDict(frozen=True)

    id: str
    instruction: str
    context: str
    apps: list[str]
    platform: Platform
    domain: Domain
    difficulty: Difficulty
    scenario: Scenario
    persona: str
    taxonomy_leaf: str
    family: str
    template: str  # "<family>:<wording>": the unit of the <=3-per-app-per-batch cap
    seed: int
    params: dict[str, Any] = Field(default_factory=dict)
    sampling_pass: str = ""  # breadth | gap_fill | edge (how the sampler chose it)

    @field_validator("apps")
    @classmethod
    def _apps_non_empty(cls, apps: list[str]) -> list[str]:
        if not apps:
            raise ValueError("a task needs at least one app")
        return apps

    @property
    def primary_app(self) -> str:
        return self.apps[0]


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


class ComponentScore(BaseModel):
    name: str
    weight: float
    score: float
    error: str | None = None


class Grade(BaseModel):
    """What reward.py said about one env: its score (None if it gave no parseable score) and why."""

    score: float | None
    exit_code: int
    components: list[ComponentScore] = Field(default_factory=list)
    preconditions_failed: list[str] = Field(default_factory=list)
    error: str | None = None  # grader crash, timeout, or unparseable output


class Finding(BaseModel):
    """One forbidden pattern found by the static scan of reward.py."""

    rule: str
    line: int
    message: str


class Verdict(StrEnum):
    PASS = "PASS"
    FAIL = "FAIL"


class Review(BaseModel):
    """The orchestrator's judgement of one round; its markdown goes to the next round's agents."""

    verdict: Verdict
    conditions: list[ConditionResult]
    golden: Grade | None = None
    initial: Grade | None = None
    findings: list[Finding] = Field(default_factory=list)
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
    REWARD_CRASHED = "reward_crashed"
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


FINISHED = (TupleStatus.VERIFIED, TupleStatus.REJECTED, TupleStatus.EXPORTED)


class Provenance(BaseModel):
    backend: str
    models: dict[str, str] = Field(default_factory=dict)  # role -> model ("procedural" for no LLM)
    skill_hashes: dict[str, str] = Field(default_factory=dict)  # app -> SKILL.md sha256
    run_id: str = ""
    git_rev: str = ""


class TaskTuple(BaseModel):
    """The product unit: spec + the accepted scripts + how it got there."""

    spec: TaskSpec
    status: TupleStatus
    attempt: int = 1
    rounds: list[Round] = Field(default_factory=list)
    reject_reason: RejectReason | None = None
    error: str | None = None
    provenance: Provenance
    created_at: datetime = Field(default_factory=utcnow)

    @property
    def final_round(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None


class AgentParams(BaseModel):
    """How tuples are co-generated: backends, models, env, concurrency (shared by synth and retry)."""

    model_config = ConfigDict(extra="forbid")

    backend: str = Field(default="procedural", description="agent backend: procedural | llm")
    env: str = Field(default="local", description="env provider for co-generation")
    workers: int = Field(default=2, ge=1, le=64, description="tuples processed concurrently")
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
    critics: int | None = Field(default=None, ge=0, le=15, description="critic votes per verified tuple "
                                "(default: 3 with backend llm, else 0)")
    agent_steps: int = Field(default=12, ge=2, le=100, description="tool-loop step budget of LLM agents")


class SynthParams(AgentParams):
    """Parameters of the synthesis flow (the `synth` deployment validates against this)."""

    count: int = Field(default=20, ge=1, le=100_000, description="tasks to sample in this run")
    apps: list[str] = Field(default_factory=list, description="restrict to these apps (empty: all)")
    seed: int | None = Field(default=None, description="sampling seed; default: today's date (UTC)")
    export: bool = True
    quotas: str | None = Field(default=None, description="quotas YAML (default skills/quotas.yaml)")
    verified_budget: int | None = Field(default=None, ge=1, description="keep sampling batches of `count` "
                                        "until this many tuples are verified and every app has its minimum")
    max_batches: int = Field(default=10, ge=1, le=1000, description="stop after this many batches anyway")

    def resolved_seed(self) -> int:
        return self.seed if self.seed is not None else int(utcnow().strftime("%Y%m%d"))


class RetryParams(AgentParams):
    """Parameters of the retry flow: which finished tuples to run again (as a new attempt)."""

    task_ids: list[str] = Field(default_factory=list, description="exact task ids (empty: select by filters)")
    status: TupleStatus = Field(default=TupleStatus.REJECTED, description="tuples in this status")
    reject_reason: RejectReason | None = Field(default=None, description="only this reject reason")
    app: str | None = Field(default=None, description="only tuples touching this app")
    limit: int = Field(default=100, ge=1, le=100_000)

    def as_synth(self) -> SynthParams:
        """The synthesis settings a retried tuple runs under (every agent setting carries over)."""
        return SynthParams(count=1, **self.model_dump(include=set(AgentParams.model_fields)))


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

    def count(self, status: TupleStatus) -> int:
        return sum(o.status == status for o in self.outcomes)
