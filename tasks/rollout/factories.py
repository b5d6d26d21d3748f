"""What plays and judges rollouts, built from the rollout parameters: the LLM policy and the judge.

Both the flow process (local runner) and each Dask worker (which builds its own) call these.
"""

from __future__ import annotations

from infra.errors import ConfigError
from tasks.models import RolloutParams


def llm_factory(params: RolloutParams):
    """A factory of LLM policies for `--policy llm` (one per episode), or None."""
    if params.policy != "llm":
        return None
    if not params.model:
        raise ConfigError(
            "--policy llm needs a model", hint="pass --model (and --api-base for a vLLM server)"
        )
    from tasks.rollout.llm_policy import LLMPolicy

    return lambda: LLMPolicy(
        params.model,
        params.model_family,
        api_base=params.api_base,
        max_pixels=params.max_pixels,
        temperature=params.temperature,
        max_tokens=params.max_tokens,
    )


def judge_factory(params: RolloutParams):
    """The judge of final states (`--judge-model`): (spec, initial view, final view) -> verdict, or None."""
    if not params.judge_model:
        return None
    from infra.llm import LLMClient
    from infra.llm_config import resolve_llm_settings
    from tasks.judge import judge_state

    flags = {"judge_model": params.judge_model, "judge_api_base": params.judge_api_base}
    client = LLMClient(resolve_llm_settings(flags=flags).role("judge"))
    return lambda spec, initial, final: judge_state(client, spec, final, final.changes_since(initial))
