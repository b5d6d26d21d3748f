"""GSPO (training/gspo.py, training/local_policy.py): the update on sampled replies of the tiny VLM,
and one iteration end to end on real desktops (a desktop and a web tuple, G = 4) through the flow.

The tiny policy is random, so on real tuples it mostly writes garbage and earns 0: every group may
well have zero variance, and then the update is honestly a no-op (advantage 0 everywhere). The
end-to-end test asserts what was recorded either way and, only when some group had a spread, that
the weights moved; the unit tests inject distinct rewards to prove the update itself."""

from __future__ import annotations

import io
import types

import pytest
import torch
from PIL import Image

from tests.desktop import conftest as desktop_fixtures
from training.config import load_config
from training.gspo import GSPOUpdate, Rollout, completion_logps, rollout_advantages
from training.local_policy import LocalPolicy
from training.tiny import tiny_policy

desktop_python = desktop_fixtures.desktop_python  # the desktop fixture, found by name
SCREEN = (1280, 800)


def _png(color: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", SCREEN, color).save(out, format="PNG")
    return out.getvalue()


def _rollout(
    policy: LocalPolicy, tuple_id: str, repeat: int, reward: float | None, steps: int = 2
) -> Rollout:
    policy.start(types.SimpleNamespace(id=tuple_id, instruction="Fill column B."), SCREEN, None)
    for step in range(steps):
        policy.step(types.SimpleNamespace(step=step, screenshot_png=_png("white"), last_results=[]))
    policy.close()
    return Rollout(tuple_id, repeat, reward, list(policy.turns))


def _config(**over):
    base = {"model": "tiny:qwen2-vl", "tuples": ["x"], "family": "qwen2.5-vl", "group_size": 4,
            "tasks_per_iteration": 1, "minibatches": 2, "learning_rate": 1e-4, "max_tokens": 24,
            "temperature": 1.0}  # fmt: skip
    return load_config(None, base | over, kind="gspo")


@pytest.fixture(scope="module")
def sampled():
    torch.manual_seed(0)
    model, processor = tiny_policy()
    model.eval()
    policy = LocalPolicy(model, processor, "qwen2.5-vl", temperature=1.0, max_tokens=24)
    rollouts = [_rollout(policy, "t", k, None) for k in range(4)]
    return model, processor, rollouts


def test_local_policy_reads_garbage_as_errors_and_keeps_what_gspo_needs(sampled):
    model, processor, rollouts = sampled
    turn = rollouts[0].turns[1]
    assert turn.completion_ids.shape == turn.old_logps.shape and len(turn.completion_ids) > 0
    assert (turn.old_logps <= 0).all() and torch.isfinite(turn.old_logps).all()
    assert (turn.prompt["input_ids"] == processor.tokenizer.convert_tokens_to_ids("<|image_pad|>")).any()
    # the second prompt holds the first reply and the tool-response wrapper (the LLM policy's context)
    second = processor.tokenizer.decode(turn.prompt["input_ids"][0])
    first_reply = processor.tokenizer.decode(rollouts[0].turns[0].completion_ids, skip_special_tokens=True)
    assert first_reply in second and "<tool_response>" in second and "Fill column B." in second


def test_recomputed_logps_match_the_sampling_ones(sampled):
    model, _, rollouts = sampled
    with torch.no_grad():
        for turn in rollouts[0].turns:  # same weights: the ratio is 1 up to float noise
            torch.testing.assert_close(
                completion_logps(model, turn, 1.0), turn.old_logps, atol=1e-4, rtol=1e-4
            )


def test_advantages_are_mean_centred_and_zero_variance_groups_counted():
    groups = [
        [Rollout("a", k, r) for k, r in enumerate([1.0, 0.0, 0.0, 1.0])],
        [Rollout("b", k, 0.0) for k in range(4)],
        [Rollout("c", k, r) for k, r in enumerate([None, 1.0, 0.0, 0.5])],
    ]
    advantages, zero = rollout_advantages(groups)
    assert advantages[:4] == [0.5, -0.5, -0.5, 0.5] and advantages[4:8] == [0.0] * 4
    assert advantages[8] == 0.0 and advantages[9:] == pytest.approx([0.5, -0.5, 0.0])  # None: left out
    assert zero == 1


def test_update_with_distinct_rewards_changes_the_weights(sampled):
    model, processor, rollouts = sampled
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    rewards = [1.0, 0.0, 0.0, 1.0]
    group = [Rollout(r.tuple_id, r.repeat, w, r.turns) for r, w in zip(rollouts, rewards, strict=True)]
    updater = GSPOUpdate(_config(), model, processor)
    stats = updater.update([group], iteration=1)
    assert stats.zero_variance_groups == 0 and stats.advantages == [0.5, -0.5, -0.5, 0.5]
    assert stats.step == 2 and stats.trained_samples == stats.samples == 8
    assert torch.isfinite(torch.tensor(stats.loss)) and stats.grad_norm and stats.grad_norm > 0
    assert stats.ratio_mean == pytest.approx(1.0, abs=1e-3)  # the first minibatch is on-policy
    changed = [n for n, p in model.named_parameters() if not torch.equal(p, before[n])]
    assert "lm_head.weight" in changed or any("embed_tokens" in n for n in changed), changed[:5]
    assert len(changed) > len(before) // 2


def test_update_on_a_zero_variance_group_is_a_counted_no_op(sampled):
    model, processor, rollouts = sampled
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    group = [Rollout(r.tuple_id, r.repeat, 0.0, r.turns) for r in rollouts]
    stats = GSPOUpdate(_config(), model, processor).update([group], iteration=1)
    assert stats.zero_variance_groups == 1 and stats.advantages == [0.0] * 4
    assert stats.loss == 0.0 and stats.trained_samples == 0 and stats.trained_tokens == 0
    assert all(torch.equal(p, before[n]) for n, p in model.named_parameters())


@pytest.mark.slow
def test_one_gspo_iteration_on_real_desktops_records_rewards_advantages_and_loss(
    prefect_harness, isolated_settings, families, tmp_path, desktop_python, monkeypatch
):
    from flows.training import training_flow
    from infra.settings import get_settings
    from tests.rollout.conftest import export_bundle
    from training.config import TrainingParams
    from training.episodes import EpisodeCollector
    from warehouse.query import run_query

    monkeypatch.setenv("CUAGYM_DESKTOP_VENV", str(desktop_python))
    get_settings.cache_clear()
    collected: list = []  # a spy: the groups the flow trained on, passed on unchanged
    real_call = EpisodeCollector.__call__

    def spy(self, make_policy, iteration, task_ids):
        collected.append(real_call(self, make_policy, iteration, task_ids))
        return collected[-1]

    monkeypatch.setattr(EpisodeCollector, "__call__", spy)
    final = tmp_path / "final"
    for family_id in ("calc.padded_ids", "chat.thread_reply_react"):  # a desktop and a web tuple
        export_bundle(families, family_id, 1, final)
    base = tiny_policy()[0]
    config = _config(
        model="tiny:qwen2-vl", tuples=[str(final)], tasks_per_iteration=2, group_size=4, minibatches=2,
        iterations=1, max_steps=2, max_tokens=32, rollout_workers=4, output_dir=str(tmp_path / "gspo"),
    )  # fmt: skip
    warehouse = isolated_settings.warehouse_path
    summary = training_flow(TrainingParams(config=config, warehouse=warehouse))
    assert summary.kind == "gspo" and summary.steps == 2  # one iteration, two minibatches
    assert summary.samples == 16  # 8 episodes x max_steps replies: the random policy never terminates

    rollouts = run_query(warehouse, f"SELECT tuple_id, repeat, reward, advantage, model_steps, completion_tokens "
                                    f"FROM gspo_rollouts WHERE run_id = '{summary.run_id}' "
                                    f"ORDER BY tuple_id, repeat").rows  # fmt: skip
    assert len(rollouts) == 8
    assert all(r[2] is not None for r in rollouts), rollouts  # real rewards from each bundle's reward.py
    assert all(r[4] == 2 and r[5] > 0 for r in rollouts)
    by_task: dict[str, list] = {}
    for r in rollouts:
        by_task.setdefault(r[0], []).append(r)
    assert len(by_task) == 2 and all(len(g) == 4 for g in by_task.values())
    zero = 0
    for group in by_task.values():  # advantages are the group's mean-centred rewards
        mean = sum(r[2] for r in group) / 4
        assert [r[3] for r in group] == pytest.approx([r[2] - mean for r in group])
        zero += len({r[2] for r in group}) == 1

    (step,) = run_query(warehouse, f"SELECT iteration, step, loss, rollouts, groups, zero_variance_groups, "
                                   f"reward_mean, trained_tokens, tokens, seconds, rollout_seconds "
                                   f"FROM gspo_curves WHERE run_id = '{summary.run_id}'").rows  # fmt: skip
    assert step[:6] == (1, 2, pytest.approx(summary.last_loss), 8, 2, zero)
    assert torch.isfinite(torch.tensor(step[2])) and step[9] > 0 and step[10] > 0
    assert step[6] == pytest.approx(sum(r[2] for r in rollouts) / 8)

    # the checkpoint reloads (save_pretrained); the weights moved iff some group had a reward spread
    from transformers import Qwen2VLForConditionalGeneration

    trained = Qwen2VLForConditionalGeneration.from_pretrained(config.output_dir)
    moved = not torch.equal(trained.lm_head.weight, base.lm_head.weight)
    print(f"gspo e2e: rewards={[r[2] for r in rollouts]} zero-variance={zero}/2 loss={step[2]} moved={moved}")
    assert moved == (zero < 2)
    if zero == 2:
        assert step[2] == 0.0 and step[7] == 0  # all-equal rewards: no signal, honestly no update
    else:
        assert step[7] > 0

    # the same real episodes (real screenshots, feedback turns, sampled replies), rewards injected
    # so that each group has a spread: the update runs on them and moves the weights
    (groups,) = collected
    assert [len(g) for g in groups] == [4, 4] and all(len(r.turns) == 2 for g in groups for r in g)
    injected = [[Rollout(r.tuple_id, r.repeat, w, r.turns) for r, w in zip(g, [1.0, 0.0, 0.0, 1.0], strict=True)]
                for g in groups]  # fmt: skip
    sampler = base.eval()  # the weights the episodes were sampled with
    before = sampler.lm_head.weight.detach().clone()
    stats = GSPOUpdate(config, sampler, None).update(injected, iteration=2)
    assert stats.zero_variance_groups == 0 and stats.trained_samples == 16 and stats.trained_tokens > 0
    assert torch.isfinite(torch.tensor(stats.loss)) and stats.grad_norm > 0
    assert stats.ratio_mean == pytest.approx(1.0, abs=1e-3)  # sampling-time log-probs match the recompute
    assert not torch.equal(sampler.lm_head.weight, before)
