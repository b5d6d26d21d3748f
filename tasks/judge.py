"""The LLM judge: did an agent's final state accomplish the task? (for rollout agreement checks)

Teacher rollouts compare the programmatic reward with this judge's verdict (paper §2, dataset-level
verification); a tuple whose reward and judge disagree is suspect. The judge sees the task and the
final state (its listing, what changed, and optional file excerpts), never the reward.
"""

from __future__ import annotations

import json

from pydantic import BaseModel, Field

from infra.envs.base import StateView
from infra.llm import LLMClient
from tasks.agents.base import AgentOutputError
from tasks.agents.llm_loop import check_reply, code_blocks
from tasks.models import TaskSpec
from tasks.prompts import render_prompt


class JudgeVerdict(BaseModel):
    success: bool
    score: float = Field(ge=0.0, le=1.0)
    reason: str = ""


def parse_verdict(text: str) -> JudgeVerdict:
    """The verdict from the judge's ```json block; AgentOutputError quoting what is wrong."""
    blocks = [b.body for b in code_blocks(text) if b.info.lower() in ("json", "")] or [text]
    try:
        return JudgeVerdict.model_validate(json.loads(blocks[-1]))
    except (json.JSONDecodeError, ValueError) as exc:
        raise AgentOutputError(
            f"the judge's verdict is not usable: {str(exc)[:300]}",
            hint='reply with ```json {"success": …, "score": …, "reason": …}```',
        ) from None


def judge_state(
    client: LLMClient,
    spec: TaskSpec,
    final: StateView,
    changes: str,
    *,
    evidence: str = "",
    tags: dict | None = None,
) -> JudgeVerdict:
    """Ask the judge model; raises AgentOutputError (unusable reply) or LLMError (the call)."""
    prompt = render_prompt(
        "judge", task=spec, final_summary=final.summary(), changes=changes, evidence=evidence
    )
    reply = client.complete([{"role": "user", "content": prompt}], tags={"task_id": spec.id, **(tags or {})})
    check_reply(reply)
    return parse_verdict(reply.content or "")
