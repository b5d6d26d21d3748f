"""Dataset-level critics (paper §2): LLM votes on a verified tuple, aggregated by strict majority.

Each of `n` critics reads the whole finished tuple — instruction, context, the three scripts and the
accepted REVIEW — and judges seven criteria (CRITERIA) before deciding keep | modify_query | reject.
The aggregate is the decision more than n/2 critics voted for; with no strict majority the tuple is
rejected (the filter is conservative: a tuple stays only if most critics positively keep it). A
critic whose call fails or whose reply cannot be parsed casts an `error` vote, which counts towards
n but for no decision. Every vote and the aggregate are stored (warehouse tables votes,
vote_results) before the tuple's status is decided.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from typing import Any

from pydantic import BaseModel, Field

from infra.errors import CuagymError
from infra.llm import LLMClient
from skills.kit import collapse_rewardkit
from tasks.agents.base import AgentOutputError
from tasks.agents.llm_loop import check_reply, code_blocks
from tasks.models import RejectReason, Round, SynthParams, TaskSpec, TupleStatus
from tasks.prompts import render_messages

log = logging.getLogger(__name__)

CRITERIA = {
    "consistency": "instruction, context, initial state, solution and reward describe the same task",
    "executability": "the setup builds a realistic initial state and the solution is reachable in the app",
    "hack_risk": "the reward cannot be earned without doing the task (no loose check, no proxy, no shortcut)",
    "clarity": "the instruction is unambiguous and states every fact the agent needs, without dictating clicks",
    "difficulty_calibration": "the stated difficulty matches the work the task takes",
    "solvability": "a competent person could reach the golden state from the instruction alone in the app's GUI",
    "reward_tracking": "the reward's components track the instruction's requirements: partial work earns "
    "partial credit, unrelated changes earn none",
}
DECISIONS = ("keep", "modify_query", "reject")


class Vote(BaseModel):
    critic: int
    model: str
    decision: str  # keep | modify_query | reject | error
    reason: str
    criteria: dict[str, Any] = Field(default_factory=dict)


class VoteResult(BaseModel):
    decision: str  # keep | modify_query | reject
    keep: int = 0
    modify_query: int = 0
    reject: int = 0
    errors: int = 0
    votes: list[Vote] = Field(default_factory=list)


def aggregate(votes: list[Vote]) -> VoteResult:
    """Strict majority over all votes cast (errors included in n); no majority -> reject.

    >>> aggregate([Vote(critic=i, model="m", decision=d, reason="") for i, d in enumerate(["keep", "keep", "reject"])]).decision
    'keep'
    >>> aggregate([Vote(critic=i, model="m", decision=d, reason="") for i, d in enumerate(["keep", "modify_query", "error"])]).decision
    'reject'
    """
    counts = Counter(v.decision for v in votes)
    winner = next((d for d in DECISIONS if counts[d] * 2 > len(votes)), "reject")
    return VoteResult(
        decision=winner,
        keep=counts["keep"],
        modify_query=counts["modify_query"],
        reject=counts["reject"],
        errors=counts["error"],
        votes=votes,
    )


def parse_vote(text: str) -> tuple[str, str, dict[str, Any]]:
    """(decision, reason, criteria) from a critic's reply; AgentOutputError quoting what is wrong."""
    blocks = [b.body for b in code_blocks(text) if b.info.lower() in ("json", "")] or [text]
    try:
        data = json.loads(blocks[-1])
    except json.JSONDecodeError as exc:
        raise AgentOutputError(
            f"the vote is not valid JSON ({exc.msg}): {blocks[-1][:200]!r}",
            hint="reply with one ```json block",
        ) from None
    if not isinstance(data, dict) or data.get("decision") not in DECISIONS:
        got = data.get("decision") if isinstance(data, dict) else type(data).__name__
        raise AgentOutputError(
            f"the vote's decision is {got!r}, not one of {DECISIONS}", hint="use keep|modify_query|reject"
        )
    criteria = data.get("criteria") if isinstance(data.get("criteria"), dict) else {}
    return data["decision"], str(data.get("reason") or "")[:2000], criteria


class TupleCritic:
    """Runs `n` critic votes on a verified tuple and stores them; see the module docstring."""

    def __init__(self, client: LLMClient, n: int) -> None:
        self.client, self.n = client, n

    def _vote(self, k: int, spec: TaskSpec, rnd: Round) -> Vote:
        opening = render_messages(
            "critic",
            task=spec,
            criteria=CRITERIA,
            initial_setup_py=rnd.scripts.initial_setup_py,
            golden_patch_py=rnd.scripts.golden_patch_py,
            reward_py=collapse_rewardkit(rnd.scripts.reward_py),
            review_md=rnd.review.markdown,
            critic=k,
            critics=self.n,
        )
        try:
            reply = self.client.complete(opening, tags={"task_id": spec.id, "step": k})
            check_reply(reply)
            decision, reason, criteria = parse_vote(reply.content or "")
        except CuagymError as exc:  # a failed call or an unusable reply: an error vote, not a crash
            log.warning("critic %d on %s: %s", k, spec.id, exc.message)
            return Vote(critic=k, model=self.client.model, decision="error", reason=exc.message[:2000])
        return Vote(critic=k, model=self.client.model, decision=decision, reason=reason, criteria=criteria)

    def vote(self, spec: TaskSpec, rnd: Round) -> VoteResult:
        return aggregate([self._vote(k, spec, rnd) for k in range(1, self.n + 1)])

    def review_tuple(
        self, spec: TaskSpec, rnd: Round, attempt: int, warehouse
    ) -> tuple[TupleStatus, RejectReason | None]:
        """Vote, store every vote and the aggregate, and return the tuple's resulting status."""
        result = self.vote(spec, rnd)
        warehouse.save_votes(spec.id, attempt, [v.model_dump() for v in result.votes], result.model_dump())
        log.info(
            "%s: critics voted %s (keep %d, modify %d, reject %d, errors %d)",
            spec.id,
            result.decision,
            result.keep,
            result.modify_query,
            result.reject,
            result.errors,
        )
        if result.decision == "keep":
            return TupleStatus.VERIFIED, None
        reason = (
            RejectReason.VOTE_MODIFY_QUERY if result.decision == "modify_query" else RejectReason.VOTE_REJECT
        )
        return TupleStatus.REJECTED, reason


def build_critic(params: SynthParams, settings, sink) -> TupleCritic | None:
    """The run's critic panel, or None when it votes with no critics."""
    from tasks.llm_roles import critic_count, llm_client

    n = critic_count(params)
    return TupleCritic(llm_client(params, settings, "critic", sink), n) if n else None
