"""Trajectory dataset -> sliced chat samples (training/data.py): slicing on a long synthetic trajectory,
the conversion for both tool-call formats, the success filter, and — the point of it all — that a
slice's context is exactly what the LLM rollout policy sent when it sampled each trained turn."""

from __future__ import annotations

import base64
import io

import pytest
from PIL import Image

from infra.computer_use.conversation import COLLAPSED, TOOL_RESPONSE_CLOSE, TOOL_RESPONSE_OPEN
from infra.computer_use.coords import Space, from_screen, smart_resize
from infra.computer_use.formats import ToolFormat, parse_reply
from infra.trajectories import Screenshots, Trajectory, TrajectoryStep, TrajectoryWriter, read_trajectories
from training.data import sft_samples, slice_bounds, trajectory_samples

SCREEN = (64, 36)
INSTRUCTION = "Rename the first sheet of budget.ods to 'Q3'."


def png(step: int) -> bytes:
    """A screenshot whose red channel is its step, so a sample shows which screenshots it holds."""
    out = io.BytesIO()
    Image.new("RGB", SCREEN, (step, 100, 200)).save(out, format="PNG")
    return out.getvalue()


def step_records(model_step: int, first: int, rid: str) -> list[TrajectoryStep]:
    """What a scripted (screen-pixel) teacher leaves: a click per step, a key + type pair every 7th,
    an unreadable reply at step 5 (nothing ran), and terminate at the end."""
    member = f"{rid}/step_{model_step:03d}.png"
    base = dict(model_step=model_step, screenshot=f"screenshots/step_{model_step:03d}.png", shard="",
                member=member, cursor_before=(0, 0))  # fmt: skip
    if model_step == 5:
        calls = [dict(action="invalid", ok=False, error="no tool call in the reply")]
    elif model_step % 7 == 3:
        calls = [
            dict(action="key", raw_action_args={"action": "key", "keys": '["ctrl", "a"]'}),
            dict(action="type", raw_action_args={"action": "type", "text": "Q3\n"}),
            dict(
                action="left_click",
                raw_action_args={"action": "left_click", "coordinate": [99, 9]},
                ok=False,
                error="off the screen",
            ),  # fmt: skip
        ]
    else:
        x, y = (model_step * 3) % SCREEN[0], model_step % SCREEN[1]
        calls = [dict(action="left_click", raw_action_args={"action": "left_click", "coordinate": [x, y]},
                      coordinate_screen=(x, y))]  # fmt: skip
    raw = "Action: next.\n<tool_call>…</tool_call>"
    return [
        TrajectoryStep(step=first + n, call=n, assistant_raw=raw if n == 0 else "", **base, **call)
        for n, call in enumerate(calls)
    ]


def write_dataset(out, n_steps: int = 46, reward: float | None = 1.0, rid: str = "calc.rename-0001__r0"):
    steps, shots = [], {}
    for k in range(n_steps):
        steps += step_records(k, len(steps), rid)
        shots[f"{rid}/step_{k:03d}.png"] = png(k)
    last = f"{rid}/step_{n_steps:03d}.png"
    shots[last] = png(n_steps)
    steps.append(TrajectoryStep(step=len(steps), model_step=n_steps, screenshot="", shard="", member=last,
                                cursor_before=None, action="terminate", assistant_raw="Done.",
                                raw_action_args={"action": "terminate", "status": "success"}))  # fmt: skip
    trajectory = Trajectory(task_id=rid, instruction=INSTRUCTION, reward=reward, terminated=True, screen=SCREEN,
                            model="scripted", steps=steps, policy="scripted", coordinate_space="screen")  # fmt: skip
    with TrajectoryWriter(out) as writer:
        writer.write(trajectory, shots)
    return trajectory


def shown(part: dict) -> int | str:
    if part["type"] == "image":
        return part["image"].getpixel((0, 0))[0]
    if part["type"] == "image_url":
        url = part["image_url"]["url"]
        return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).getpixel((0, 0))[0]
    assert part == {"type": "text", "text": COLLAPSED}, part
    return "collapsed"


def slots(messages: list[dict]) -> list[int | str]:
    return [shown(p) for m in messages if m["role"] == "user" for p in m["content"]
            if p["type"] in ("image", "image_url") or p.get("text") == COLLAPSED]  # fmt: skip


@pytest.fixture
def dataset(tmp_path):
    trajectory = write_dataset(tmp_path)
    written = next(read_trajectories(tmp_path))
    screenshots = Screenshots(tmp_path)
    yield tmp_path, trajectory, written, screenshots
    screenshots.close()


def test_slices_of_a_long_trajectory(dataset):
    _, _, trajectory, screenshots = dataset
    samples = trajectory_samples(trajectory, screenshots, "qwen3.5")
    # 47 model steps; step 5 ran nothing and is left out: 46 turns -> 0-19, 20-29, 30-39, 40-45
    assert [(s.turns.start, s.turns.stop) for s in samples] == [(0, 20), (20, 30), (30, 40), (40, 46)]
    assert [s.meta["collapsed"] for s in samples] == [0, 10, 20, 30]
    steps_shown = [k for k in range(47) if k != 5]  # the screenshot of each turn, by model step
    for sample in samples:
        folded, upto = sample.meta["collapsed"], sample.turns.stop
        assert slots(sample.messages) == ["collapsed"] * folded + steps_shown[folded:upto]
        assert sum(p is not None for p in slots(sample.messages) if p != "collapsed") <= 20
        trained = [i for i, t in enumerate(sample.train) if t]
        assert trained == [2 + 2 * n for n in sample.turns]  # only the slice's new assistant turns
        assert all(sample.messages[i]["role"] == "assistant" for i in trained)
        assert sample.advantage == 1.0 and sample.trajectory_id == trajectory.task_id
    # consecutive slices overlap by 10 turn pairs: slice 2's context holds slice 1's turns 20-29
    assert samples[2].messages[41:61] == samples[1].messages[41:61]
    # every turn is trained exactly once
    assert sorted(n for s in samples for n in s.turns) == list(range(46))
    assert slice_bounds(5, interval=10, max_screenshots=20) == [(range(0, 5), 0)]
    assert slice_bounds(0, interval=10, max_screenshots=20) == []


def test_the_first_user_turn_holds_the_instruction_and_later_ones_are_tool_responses(dataset):
    _, _, trajectory, screenshots = dataset
    sample = trajectory_samples(trajectory, screenshots, "qwen3-vl")[1]
    assert sample.messages[0]["role"] == "system" and "<tools>" in sample.messages[0]["content"]
    assert sample.messages[1]["content"] == [
        {"type": "text", "text": INSTRUCTION},
        {"type": "text", "text": COLLAPSED},
    ]
    wrapped = sample.messages[3]["content"]
    assert wrapped[0] == {"type": "text", "text": TOOL_RESPONSE_OPEN}
    assert wrapped[2] == {"type": "text", "text": TOOL_RESPONSE_CLOSE}


@pytest.mark.parametrize(
    ("family", "fmt", "space"),
    [
        ("qwen3.5", ToolFormat.XML, Space.RELATIVE),
        ("qwen3-vl", ToolFormat.HERMES, Space.RELATIVE),
        ("qwen2.5-vl", ToolFormat.HERMES, Space.RESIZED),
    ],  # fmt: skip
)
def test_assistant_turns_in_the_familys_format_and_space(dataset, family, fmt, space):
    _, _, trajectory, screenshots = dataset
    samples = trajectory_samples(trajectory, screenshots, family)
    assistants = [m["content"] for m in samples[-1].messages if m["role"] == "assistant"]
    assert len(assistants) == 46
    first = assistants[0]
    assert first.startswith("Action: next.\n<tool_call>")  # the teacher's prose kept
    assert ("<function=computer_use>" in first) is (fmt is ToolFormat.XML)
    calls = [c.arguments for c in parse_reply(first).calls]
    assert calls == [{"action": "left_click", "coordinate": list(from_screen((0, 0), space, SCREEN))}]
    x12 = [c.arguments for c in parse_reply(assistants[11]).calls]  # model step 12 (step 5 left out)
    assert x12 == [{"action": "left_click", "coordinate": list(from_screen((36, 12), space, SCREEN))}]
    three = [c.arguments for c in parse_reply(assistants[3]).calls]  # key + type; the failed click dropped
    assert three == [{"action": "key", "keys": ["ctrl", "a"]}, {"action": "type", "text": "Q3\n"}]
    assert [c.arguments for c in parse_reply(assistants[-1]).calls] == [
        {"action": "terminate", "status": "success"}
    ]
    if space is Space.RESIZED:  # the model sees smart_resize'd pixels, and its coordinates are in them
        image = next(p["image"] for p in samples[0].messages[1]["content"] if p["type"] == "image")
        assert image.size == smart_resize(*SCREEN) == (84, 56)


def test_sft_keeps_only_successes_and_never_reads_null_as_zero(tmp_path):
    write_dataset(tmp_path / "ok", n_steps=3, reward=1.0)
    write_dataset(tmp_path / "partial", n_steps=3, reward=0.5)
    write_dataset(tmp_path / "unscored", n_steps=3, reward=None)
    samples = list(sft_samples([tmp_path / d for d in ("ok", "partial", "unscored")], "qwen3.5"))
    assert len(samples) == 1 and samples[0].turns == range(0, 4)


def test_too_many_calls_stay_in_context_but_are_not_trained(dataset):
    _, _, trajectory, screenshots = dataset
    sample = trajectory_samples(trajectory, screenshots, "qwen3.5", max_calls=1)[0]
    assert sample.train[2 + 2 * 3] is False and "<tool_call>" in sample.messages[2 + 2 * 3]["content"]
    assert sample.train[2 + 2 * 2] is True


def test_unknown_family_is_a_config_error(dataset):
    from infra.errors import ConfigError

    _, _, trajectory, screenshots = dataset
    with pytest.raises(ConfigError, match="cannot train family 'openai'"):
        trajectory_samples(trajectory, screenshots, "openai")


@pytest.fixture(scope="module")
def fake_llm():
    from tests.llm.fake_openai import FakeOpenAI

    with FakeOpenAI() as fake:
        yield fake


def normalised(messages: list[dict]) -> list[dict]:
    """Messages with every image part replaced by its step (the wire has data URLs, samples PIL)."""
    out = []
    for m in messages:
        content = m["content"]
        if isinstance(content, list):
            content = [
                {"screenshot": shown(p)} if p["type"] in ("image", "image_url") else p for p in content
            ]
        out.append({"role": m["role"], "content": content})
    return out


@pytest.mark.slow
@pytest.mark.parametrize("family", ["qwen3.5", "qwen3-vl"])
def test_every_trained_turn_sees_exactly_what_the_llm_policy_sent(tmp_path, fake_llm, family):
    """Drive the real LLM policy through the turns of a trajectory (its replies scripted to be the
    rendered turns) and compare each request it sent with the slice that trains that turn."""
    from infra.contracts.policy import Observation
    from tasks.models import Difficulty, Domain, Platform, Scenario, TaskSpec
    from tasks.rollout.llm_policy import LLMPolicy
    from tests.llm.fake_openai import Reply

    write_dataset(tmp_path, n_steps=32)
    trajectory = next(read_trajectories(tmp_path))
    screenshots = Screenshots(tmp_path)
    samples = trajectory_samples(trajectory, screenshots, family)
    screenshots.close()
    by_turn = {n: s for s in samples for n in s.turns}
    assistants = [m["content"] for m in samples[-1].messages if m["role"] == "assistant"]
    model = f"ctx-{family}"
    fake_llm.script(model, *[Reply(content=text) for text in assistants])
    task = TaskSpec(id="calc.rename-0001", instruction=INSTRUCTION, context="", apps=["calc"],
                    platform=Platform.DESKTOP, domain=Domain.OFFICE_ADMIN, difficulty=Difficulty.EASY,
                    scenario=Scenario.PERSONAL, persona="an accountant", taxonomy_leaf="calc/sheet/rename",
                    family="calc.rename_sheet", template="calc.rename_sheet:plain", seed=1)  # fmt: skip
    policy = LLMPolicy(f"hosted_vllm/{model}", family, api_base=fake_llm.base_url, timeout_s=20.0)
    policy.start(task, SCREEN, desktop=None)
    steps_shown = [k for k in range(33) if k != 5]
    for k in steps_shown:
        policy.step(Observation(step=k, screenshot_png=png(k), screen=SCREEN, last_results=[]))
    requests = fake_llm.requests_for(model)
    assert len(requests) == len(assistants) == 32
    for n, request in enumerate(requests):
        sample = by_turn[n]
        assert sample.train[2 + 2 * n]
        assert normalised(request["messages"]) == normalised(sample.messages[: 2 + 2 * n]), f"turn {n}"
