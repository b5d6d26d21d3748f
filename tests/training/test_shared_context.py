"""One forward pass per slice (training/shared_context.py): the transformers policy's prompts extend
each other token for token, an extension encodes to exactly what encoding the whole conversation
gives, one pass over a slice scores every reply as one pass per reply does, the GSPO update lands on
the same weights with fewer passes, and a collapse of old screenshots starts a new slice."""

from __future__ import annotations

import copy
import io
import types

import pytest
import torch
from PIL import Image

from training.gspo import GSPOUpdate, Rollout, completion_logps
from training.local_policy import LocalPolicy, encode_prompt
from training.shared_context import PromptBuilder, chain_logps, chains
from training.tiny import tiny_policy

from .test_gspo import SCREEN, _config, _png, _rollout


def _image(color: str) -> Image.Image:
    with Image.open(io.BytesIO(_png(color))) as image:
        return image.convert("RGB").resize((56, 56))


@pytest.fixture(scope="module")
def episodes():
    torch.manual_seed(1)
    model, processor = tiny_policy()
    model.eval()
    policy = LocalPolicy(model, processor, "qwen2.5-vl", temperature=1.0, max_tokens=16)
    rollouts = [_rollout(policy, "t", k, r, steps=3) for k, r in enumerate([1.0, 0.0, 0.0, 1.0])]
    return model, processor, rollouts


def test_an_extended_prompt_is_exactly_the_whole_conversation_encoded():
    _, processor = tiny_policy()
    builder = PromptBuilder(processor, encode_prompt)
    first = [
        {"role": "system", "content": "You drive a desktop."},
        {"role": "user", "content": [{"type": "text", "text": "Open it."}, {"type": "image", "image": _image("red")}]},
    ]  # fmt: skip
    prompt = builder.prompt(first, [_image("red")])
    reply = "Clicking the File menu."
    end = processor.tokenizer.convert_tokens_to_ids("<|im_end|>")
    completion = torch.tensor(processor.tokenizer.encode(reply, add_special_tokens=False) + [end])
    builder.replied(prompt, completion, reply)
    second = first + [
        {"role": "assistant", "content": reply},
        {"role": "user", "content": [{"type": "text", "text": "<tool_response>\n"}, {"type": "image", "image": _image("blue")},
                                     {"type": "text", "text": "\n</tool_response>"}]},
    ]  # fmt: skip
    extended = builder.prompt(second, [_image("blue")])
    whole = encode_prompt(processor, second)
    assert extended.keys() == whole.keys()
    for key in whole:
        assert torch.equal(extended[key], whole[key]), key
    # and it starts with the first prompt and the sampled reply, token for token
    n = prompt["input_ids"].shape[1]
    assert torch.equal(extended["input_ids"][0, :n], prompt["input_ids"][0])
    assert torch.equal(extended["input_ids"][0, n : n + len(completion)], completion)


def test_one_pass_over_a_slice_scores_every_reply_as_one_pass_each(episodes):
    model, _, rollouts = episodes
    for rollout in rollouts:
        assert chains(rollout.turns) == [[0, 1, 2]]  # three replies, one slice
        with torch.no_grad():
            shared = chain_logps(model, rollout.turns, 1.0)
            for turn, logps in zip(rollout.turns, shared, strict=True):
                torch.testing.assert_close(logps, completion_logps(model, turn, 1.0), atol=1e-5, rtol=1e-5)
                torch.testing.assert_close(logps, turn.old_logps, atol=1e-4, rtol=1e-4)  # on-policy


def test_the_update_lands_on_the_same_weights_with_a_pass_per_slice(episodes):
    model, processor, rollouts = episodes
    results = {}
    for shared in (True, False):
        copy_ = copy.deepcopy(model)
        updater = GSPOUpdate(_config(), copy_, processor, shared_context=shared)
        stats = updater.update([list(rollouts)], iteration=1)
        results[shared] = (dict(copy_.named_parameters()), stats, updater.forwards)
    (w_shared, s_shared, f_shared), (w_each, s_each, f_each) = results[True], results[False]
    assert (f_shared, f_each) == (4, 12)  # 4 episodes of 3 replies: a pass per episode, not per reply
    assert s_shared.trained_samples == s_each.trained_samples == 12 and s_shared.tokens == s_each.tokens
    assert s_shared.loss == pytest.approx(s_each.loss, abs=1e-6)
    for name, param in w_shared.items():
        torch.testing.assert_close(param, w_each[name], atol=1e-5, rtol=1e-4)


def test_a_collapse_of_old_screenshots_starts_a_new_slice():
    torch.manual_seed(2)
    model, processor = tiny_policy()
    model.eval()
    policy = LocalPolicy(model, processor, "qwen2.5-vl", temperature=1.0, max_tokens=8,
                         max_screenshots=2, collapse_block=1)  # fmt: skip
    policy.start(types.SimpleNamespace(id="t", instruction="Fill column B."), SCREEN, None)
    for step in range(4):
        policy.step(types.SimpleNamespace(step=step, screenshot_png=_png("white"), last_results=[]))
    turns = policy.turns
    # turn 2 is the first to collapse a screenshot (3 > 2 visible), turn 3 collapses another
    assert chains(turns) == [[0, 1], [2], [3]]
    rollout = Rollout("t", 0, 1.0, list(turns))
    with torch.no_grad():
        for run in chains(rollout.turns):
            for i, logps in zip(run, chain_logps(model, [turns[i] for i in run], 1.0), strict=True):
                torch.testing.assert_close(logps, turns[i].old_logps, atol=1e-4, rtol=1e-4)
