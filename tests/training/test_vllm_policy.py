"""The vLLM rollout engine (training/vllm_policy.py, training/vllm_server.py) against a local server
speaking vLLM's protocol with the tiny policy behind it (tests/training/fake_vllm.py): only the remote
server is faked, over real HTTP; the policy, the prompt encoding, the GSPO update and run_gspo are
the real ones."""

from __future__ import annotations

import base64
import io
import socket
import types
from pathlib import Path

import pytest
import torch
from PIL import Image

from infra.computer_use.conversation import model_png
from infra.computer_use.coords import Geometry, Space
from infra.computer_use.formats import ToolFormat, render_calls
from infra.errors import ConfigError, TransientError
from tests.training.fake_vllm import FakeVLLM, weights_digest
from training.config import load_config
from training.gspo import GSPOUpdate, Rollout, completion_logps, run_gspo
from training.sft import load_policy
from training.tiny import save_tiny_policy, tiny_policy
from training.vllm_policy import VLLMEngine, VLLMPolicy
from training.vllm_server import VLLMError, VLLMServer, VLLMUnavailableError

SCREEN = (1280, 800)
FAMILY = "qwen2.5-vl"  # Hermes calls, resized-pixel coordinates: model_png resizes the screenshots


def _png(color: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", SCREEN, color).save(out, format="PNG")
    return out.getvalue()


def _observation(step: int, color: str = "white", results: list | None = None):
    return types.SimpleNamespace(step=step, screenshot_png=_png(color), last_results=results or [])


def _task(tuple_id: str = "t"):
    return types.SimpleNamespace(id=tuple_id, instruction="Fill column B.")


def _policy(fake: FakeVLLM, processor, **kwargs) -> VLLMPolicy:
    server = VLLMServer(fake.url, fake.served_name, timeout_s=60)
    return VLLMPolicy(server, processor, FAMILY, **({"temperature": 1.0, "max_tokens": 24} | kwargs))


def _rollout(policy: VLLMPolicy, repeat: int, reward: float | None, steps: int = 2) -> Rollout:
    policy.start(_task(), SCREEN, None)
    for step in range(steps):
        policy.step(_observation(step))
    policy.close()
    return Rollout("t", repeat, reward, list(policy.turns))


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Path:
    """The folder the fake server serves: the tiny policy at seed 0, the trainer's starting weights."""
    return save_tiny_policy(tmp_path_factory.mktemp("vllm") / "weights", seed=0)


@pytest.fixture
def fake(served):
    with FakeVLLM(served) as server:
        yield server


def _reply_tokens(reply: dict) -> tuple[list[int], list[float]]:
    content = reply["choices"][0]["logprobs"]["content"]
    return [int(c["token"].removeprefix("token_id:")) for c in content], [c["logprob"] for c in content]


def test_an_episode_samples_on_the_server_and_keeps_its_tokens_and_logprobs(fake):
    _, processor = tiny_policy()
    policy = _policy(fake, processor)
    policy.start(_task(), SCREEN, None)
    colors = ["white", "red", "blue"]
    failed = [{"action": "left_click", "ok": False, "error": "outside the screen"}]
    steps = [policy.step(_observation(n, c, failed if n == 2 else None)) for n, c in enumerate(colors)]

    assert len(policy.turns) == len(fake.replies) == 3
    for n, (step, turn, reply) in enumerate(zip(steps, policy.turns, fake.replies, strict=True)):
        ids, logps = _reply_tokens(reply)
        # what GSPO trains on is exactly what the server sampled, in the prompt the server saw
        assert turn.completion_ids.tolist() == ids == reply["choices"][0]["token_ids"]
        assert torch.equal(turn.old_logps, torch.tensor(logps, dtype=torch.float32))
        assert turn.prompt["input_ids"][0].tolist() == reply["prompt_token_ids"]
        assert turn.step == n and step.assistant_raw == processor.tokenizer.decode(
            ids, skip_special_tokens=True
        )
        assert step.errors  # a random tiny model writes no tool call: a failed step, not a crash

    eos = processor.tokenizer.convert_tokens_to_ids("<|im_end|>")
    for n, body in enumerate(fake.requests):
        assert body["model"] == fake.served_name and body["temperature"] == 1.0 and body["max_tokens"] == 24
        assert body["logprobs"] is True and body["top_logprobs"] == 0
        assert body["return_tokens_as_token_ids"] is True and body["return_token_ids"] is True
        # the full tempered distribution, whatever the checkpoint's generation_config says
        assert (body["top_k"], body["top_p"], body["min_p"], body["repetition_penalty"]) == (
            -1,
            1.0,
            0.0,
            1.0,
        )
        assert body["stop_token_ids"] == [eos]
        roles = [m["role"] for m in body["messages"]]
        assert roles == ["system"] + ["user", "assistant"] * n + ["user"]
        urls = [p["image_url"]["url"] for m in body["messages"] if isinstance(m["content"], list)
                for p in m["content"] if p.get("type") == "image_url"]  # fmt: skip
        assert len(urls) == n + 1  # every screenshot so far (none collapsed yet)
    # the screenshots travel losslessly, at the frame the served (tiny) processor makes of them, so the
    # server resizes nothing and the resized-pixel coordinates count the pixels the model saw
    last = fake.requests[-1]["messages"]
    sent = base64.b64decode(last[-1]["content"][1]["image_url"]["url"].split(",", 1)[1])
    with (
        Image.open(io.BytesIO(sent)) as got,
        Image.open(
            io.BytesIO(model_png(_png("blue"), Geometry.from_processor(processor, Space.RESIZED)))
        ) as want,
    ):
        assert (
            got.size == want.size == (140, 84)
            and got.convert("RGB").tobytes() == want.convert("RGB").tobytes()
        )
    assert last[2]["content"] == steps[0].assistant_raw  # the earlier reply, as the policy read it
    assert "outside the screen" in last[-1]["content"][0]["text"]  # feedback on the failed action


def test_garbage_and_cut_off_replies_are_failed_steps_and_a_good_one_runs(fake):
    _, processor = tiny_policy()
    policy = _policy(fake, processor, max_tokens=48)
    good = render_calls([{"action": "left_click", "coordinate": [100, 200]}], ToolFormat.HERMES)
    fake.script(
        "I will click the cell.",  # no tool call
        '<tool_call>{"name": "computer_use", "arguments": {"action": </tool_call>',  # not JSON
        "Action: type.\n" + "word " * 200,  # longer than max_tokens: cut off
        good,
    )
    policy.start(_task(), SCREEN, None)
    steps = [policy.step(_observation(n)) for n in range(4)]
    assert "no tool call in the reply" in steps[0].errors
    assert steps[1].errors and not steps[1].calls
    assert any("cut off at max_tokens (48)" in e for e in steps[2].errors)
    assert len(policy.turns[2].completion_ids) == 48
    assert steps[3].errors == [] and steps[3].calls == [{"action": "left_click", "coordinate": [100, 200]}]
    assert policy.turns[3].completion_ids[-1] == processor.tokenizer.convert_tokens_to_ids("<|im_end|>")
    # every failed step is still a sample: its tokens and the server's log-probs of them
    assert all(len(t.completion_ids) == len(t.old_logps) > 0 for t in policy.turns)


@pytest.mark.slow
def test_one_update_on_server_sampled_turns_starts_at_ratio_one(fake):
    """Same weights on both sides: the trainer's re-scored log-probs are the server's, the first
    update is exactly on-policy, and it moves the weights."""
    model, processor = tiny_policy()
    model.eval()
    policy = _policy(fake, processor)
    rollouts = [_rollout(policy, k, r) for k, r in enumerate([1.0, 0.0])]
    with torch.no_grad():
        for turn in rollouts[0].turns:
            torch.testing.assert_close(
                completion_logps(model, turn, 1.0), turn.old_logps, atol=1e-4, rtol=1e-4
            )
    config = load_config(None, {"model": "tiny:qwen2-vl", "tuples": ["x"], "family": FAMILY, "group_size": 2,
                                "tasks_per_iteration": 1, "minibatches": 1, "learning_rate": 1e-3,
                                "max_tokens": 24, "temperature": 1.0}, kind="gspo")  # fmt: skip
    before = weights_digest(model)
    stats = GSPOUpdate(config, model, processor).update([rollouts], iteration=1)
    assert stats.trained_samples == stats.samples == 4 and torch.isfinite(torch.tensor(stats.loss))
    assert stats.ratio_mean == pytest.approx(1.0, abs=1e-4)
    assert stats.clip_low_fraction == stats.clip_high_fraction == 0.0
    assert weights_digest(model) != before


def _gspo_config(tmp_path: Path, fake: FakeVLLM, **over):
    base = {"model": "tiny:qwen2-vl", "tuples": ["x"], "family": FAMILY, "group_size": 2,
            "tasks_per_iteration": 1, "minibatches": 1, "iterations": 2, "learning_rate": 1e-2,
            "max_tokens": 16, "temperature": 1.0, "output_dir": str(tmp_path / "gspo"),
            "rollout_engine": "vllm", "vllm_url": fake.url, "vllm_weights_dir": str(fake.folder),
            "vllm_timeout_s": 60}  # fmt: skip
    return load_config(None, base | over, kind="gspo")


@pytest.mark.slow
def test_run_gspo_pushes_the_trained_weights_to_the_server_before_each_iteration(tmp_path):
    # the server starts on other weights (seed 1) than the trainer's (seed 0): the first sync fixes that
    with FakeVLLM(save_tiny_policy(tmp_path / "served", seed=1)) as fake:
        config = _gspo_config(tmp_path, fake)
        seen: list[tuple[str, str]] = []  # per iteration: (server's weights, trainer's weights)

        def collect(make_policy, iteration, drawn):
            saved = config.output_dir / "model.safetensors"  # the trainer's weights after the last update
            trainer = load_policy(str(config.output_dir))[0] if saved.exists() else tiny_policy(0)[0]
            seen.append((fake.digest(), weights_digest(trainer)))
            policies = [make_policy() for _ in range(2)]
            assert all(isinstance(p, VLLMPolicy) for p in policies)
            return [
                [
                    _rollout(p, k, reward)
                    for k, (p, reward) in enumerate(zip(policies, [1.0, 0.0], strict=True))
                ]
            ]

        result = run_gspo(config, collect, ["t"])

    assert [server == trainer for server, trainer in seen] == [True, True]
    assert seen[0][1] != seen[1][1]  # the update moved the weights, and the server got the new ones
    assert weights_digest(load_policy(str(fake.folder))[0]) == seen[1][1]  # the served folder holds them
    # each iteration: reload, drop the prefix cache, one probe reply, then that iteration's 2 x 2 steps
    sync = ["reload", "reset_prefix_cache", "chat"]
    assert fake.events == sync + ["chat"] * 4 + sync + ["chat"] * 4
    assert [r["max_tokens"] for r in fake.requests[:1]] == [16]  # the probe: min(64, max_tokens)
    assert result.steps == 2 and result.iterations[0].ratio_mean == pytest.approx(1.0, abs=1e-3)


def test_a_reload_that_does_not_take_stops_the_run(tmp_path):
    with FakeVLLM(save_tiny_policy(tmp_path / "served", seed=1), reloads=False) as fake:
        engine = VLLMEngine(_gspo_config(tmp_path, fake, vllm_max_logp_gap=0.05), model_name="gspo:test")
        model, processor = tiny_policy(0)
        updater = GSPOUpdate(engine.config, model, processor)
        with pytest.raises(VLLMError, match="differ from the trainer's") as err:
            engine.sync(updater)  # the server still samples from seed 1's weights
    assert "processed_logprobs" in err.value.hint


def test_a_server_with_raw_logprobs_is_caught_at_the_first_sync(tmp_path, served):
    # vLLM's default logprobs mode is before the temperature: wrong old_logps at any temperature != 1
    with FakeVLLM(served, logprobs_mode="raw_logprobs") as fake:
        config = _gspo_config(tmp_path, fake, temperature=0.3, vllm_max_logp_gap=0.05)
        engine = VLLMEngine(config, model_name="gspo:test")
        model, processor = tiny_policy(0)
        with pytest.raises(VLLMError, match="differ from the trainer's"):
            engine.sync(GSPOUpdate(config, model, processor))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_server_is_a_clear_error_before_the_model_loads(tmp_path):
    config = load_config(None, {"model": "var/no-such-checkpoint", "tuples": ["x"], "family": FAMILY,
                                "tasks_per_iteration": 4, "rollout_engine": "vllm",
                                "vllm_url": f"http://127.0.0.1:{_free_port()}/v1",
                                "vllm_weights_dir": str(tmp_path / "w"), "output_dir": str(tmp_path / "o")},
                         kind="gspo")  # fmt: skip
    with pytest.raises(VLLMUnavailableError, match="cannot reach the vLLM server") as err:
        run_gspo(config, lambda *a: [], ["t"])  # the model path does not exist: the server check came first
    assert "vllm serve" in err.value.hint and isinstance(err.value, TransientError)


def test_a_server_serving_another_model_is_refused(served):
    refused = pytest.raises(ConfigError, match="serves 'Qwen/Qwen2.5-VL-7B-Instruct', not 'mine'")
    with FakeVLLM(served, served_name="Qwen/Qwen2.5-VL-7B-Instruct") as fake, refused:
        VLLMServer(fake.url, "mine").check()


def test_a_reply_without_logprobs_is_refused(served):
    _, processor = tiny_policy()
    with FakeVLLM(served, logprobs=False) as fake:
        policy = _policy(fake, processor)
        policy.start(_task(), SCREEN, None)
        with pytest.raises(VLLMError, match="no log-probs"):
            policy.step(_observation(0))


def test_a_server_rendering_another_prompt_is_refused(served):
    _, processor = tiny_policy()
    with FakeVLLM(served) as fake:
        # a server whose chat template differs from the trainer's (say, an older checkpoint's)
        fake.processor.chat_template = fake.processor.chat_template.replace("<|im_start|>", "<|im_start|> ")
        policy = _policy(fake, processor)
        policy.start(_task(), SCREEN, None)
        with pytest.raises(VLLMError, match="tokenized the prompt") as err:
            policy.step(_observation(0))
    assert "chat template" in err.value.hint


def test_server_failures_and_missing_dev_endpoints_are_clear(served):
    _, processor = tiny_policy()
    with FakeVLLM(served, dev_mode=False) as fake:
        policy = _policy(fake, processor)
        policy.start(_task(), SCREEN, None)
        fake.fail_next(500)
        with pytest.raises(VLLMUnavailableError, match="answered POST /v1/chat/completions with 500"):
            policy.step(_observation(0))
        with pytest.raises(VLLMError, match="development endpoints are off") as err:
            policy.server.reload_weights()
    assert "VLLM_SERVER_DEV_MODE=1" in err.value.hint


@pytest.mark.parametrize(
    ("over", "match"),
    [
        ({"vllm_url": "http://x:8000"}, "vllm_url set but rollout_engine='transformers'"),
        ({"rollout_engine": "vllm", "vllm_url": "http://x:8000"}, "needs vllm_weights_dir"),
        ({"rollout_engine": "vllm", "vllm_url": "http://x", "vllm_weights_dir": "ckpt", "model": "ckpt"},
         "is the checkpoint GSPO starts from"),
    ],
)  # fmt: skip
def test_vllm_settings_are_checked_when_the_config_is_built(over, match):
    with pytest.raises(ConfigError, match=match):
        load_config(
            None, {"model": "tiny:qwen2-vl", "tuples": ["x"], "tasks_per_iteration": 4} | over, kind="gspo"
        )
