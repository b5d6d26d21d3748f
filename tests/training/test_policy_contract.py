"""The trained model is a rollout policy by declaration, not by coincidence of shape."""

from __future__ import annotations

from infra.contracts.policy import Policy, PolicyStep
from training.local_policy import LocalPolicy
from training.vllm_policy import VLLMPolicy


def test_local_policy_declares_the_rollout_policy_protocol():
    # Subclassing makes a drift in the protocol (a renamed method, a new member) show up here and in
    # type checks, where a structurally compatible class would keep passing until an episode ran.
    assert Policy in LocalPolicy.__mro__
    assert Policy in VLLMPolicy.__mro__


def test_a_local_step_is_the_runners_policy_step():
    assert LocalPolicy.step.__annotations__["return"] in ("PolicyStep", PolicyStep)
