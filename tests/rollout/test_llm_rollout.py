"""The `llm` policy drives a real desktop end to end, through the rollout flow, against a local fake
OpenAI-compatible server (real HTTP, litellm's real code path) that replays a model's replies.

The replies solve calc.padded_ids in real Calc the way a model would: a click on the sheet in the
model's own coordinate space, keys, one TEXT formula per row, save, keep the format, terminate —
with garbage replies in between (no tool call, bad XML, bad JSON, a truncated reply, an unknown tool,
a runaway generation). Each garbage reply must be a recorded failed step and the episode must go
on: the bundle's reward.py scores what Calc saved at 1.0 only if every good reply was executed.
One episode per Qwen format: the Qwen3.5 XML form and the Hermes JSON form (Qwen3-VL), both on the
0–999 relative grid.
"""

from __future__ import annotations

import base64
import io
import json

import pytest

from flows.rollout import rollout_flow
from infra.computer_use.coords import Space, to_screen
from infra.computer_use.formats import ToolFormat, render_calls
from infra.trajectories import Screenshots, read_trajectories
from tasks.models import RolloutParams
from tests.llm.fake_openai import FakeOpenAI, Reply

from .conftest import export_bundle

pytestmark = pytest.mark.slow

CLICK = [500, 400]  # the 0-999 grid: a cell in the middle of the sheet


def _good(calls: list[dict], fmt: ToolFormat) -> Reply:
    return Reply(content="Action: next.\n" + render_calls(calls, fmt))


def _script(params: dict, fmt: ToolFormat) -> tuple[list[Reply], list[str]]:
    """Replies that solve padded_ids in Calc, with garbage between them; and the errors expected."""
    zeros = "0" * params["width"]
    formulas = [
        {"action": "type", "text": f'=TEXT(A{row};"{zeros}")\n'} for row in range(2, len(params["ids"]) + 2)
    ]
    steps = [
        [{"action": "left_click", "coordinate": CLICK}],
        [
            {"action": "key", "keys": ["ctrl", "home"]},
            {"action": "key", "keys": ["right"]},
            {"action": "key", "keys": ["down"]},
        ],
        *[formulas[i : i + 10] for i in range(0, len(formulas), 10)],  # at most 10 calls per step
        [{"action": "key", "keys": ["ctrl", "s"]}, {"action": "wait", "time": 3}],
        [{"action": "key", "keys": ["enter"]}, {"action": "wait", "time": 2}],  # keep the xlsx format
        [{"action": "terminate", "status": "success"}],
    ]
    if fmt is ToolFormat.XML:
        garbage = [
            (Reply(content="I will first look at the sheet."), "no tool call in the reply"),
            (
                Reply(content="<tool_call>\n<function=computer_use>\n<parameter=action>\nkey\n</tool_call>"),
                "no closed <function=…> element",
            ),
            (Reply(content="Action: " + "think " * 12_000), "a runaway generation"),
        ]
    else:
        garbage = [
            (
                Reply(content='<tool_call>{"name": "computer_use", "arguments": {"action": </tool_call>'),
                "not JSON",
            ),
            (
                Reply(
                    content='Action: type.\n<tool_call>\n{"name": "computer_use", "argum',
                    finish_reason="length",
                ),
                "cut off at max_tokens",
            ),
            (
                Reply(content='<tool_call>{"name": "browser", "arguments": {"url": "x"}}</tool_call>'),
                "unknown tool",
            ),
        ]
    replies = [_good(steps[0], fmt)]
    for n, batch in enumerate(steps[1:]):
        if n < len(garbage):  # a garbage reply before each of the first good steps
            replies.append(garbage[n][0])
        replies.append(_good(batch, fmt))
    return replies, [why for _, why in garbage]


@pytest.mark.parametrize(("family", "fmt"), [("qwen3.5", ToolFormat.XML), ("qwen3-vl", ToolFormat.HERMES)])
def test_an_llm_drives_calc_through_garbage_and_solves_the_task(
    prefect_harness, isolated_settings, families, tmp_path, desktop_python, monkeypatch, family, fmt
):
    from infra.settings import get_settings

    monkeypatch.setenv("CUAGYM_DESKTOP_VENV", str(desktop_python))
    get_settings.cache_clear()
    bundle = export_bundle(families, "calc.padded_ids", 2, tmp_path / "final")
    params = json.loads((bundle / "task.json").read_text())["params"]
    replies, errors = _script(params, fmt)
    served = f"e2e-{family}"
    with FakeOpenAI() as server:
        server.script(served, *replies)
        summary = rollout_flow(
            RolloutParams(
                bundles=[str(bundle)],
                policy="llm",
                model=f"hosted_vllm/{served}",
                api_base=server.base_url,
                model_family=family,
                max_steps=len(replies) + 5,
                out=str(tmp_path / "dataset"),
            )
        )
        requests = server.requests_for(served)
        assert server.pending(served) == 0, "every scripted reply was asked for"

    (trajectory,) = read_trajectories(tmp_path / "dataset")
    assert trajectory.reward == 1.0, trajectory.reward_error
    assert summary.solved == 1 and trajectory.terminated and trajectory.status == "success"
    assert trajectory.model == f"hosted_vllm/{served}" and trajectory.coordinate_space == "relative"
    assert len(requests) == len(replies)  # one request per model step; the episode went on after each error

    failed = [s for s in trajectory.steps if not s.ok]
    assert len(failed) == len(errors) and all(s.action == "invalid" for s in failed)
    for step, error in zip(failed, errors, strict=True):
        assert error in step.error, (error, step.error)
    assert all(s.ok for s in trajectory.steps if s.action != "invalid")

    # the click: the model's grid point, executed at its screen pixel, and the cursor went there
    click = next(s for s in trajectory.steps if s.action == "left_click")
    assert click.raw_action_args["coordinate"] == CLICK
    assert click.coordinate_screen == to_screen(tuple(CLICK), Space.RELATIVE, trajectory.screen)
    after = next(s for s in trajectory.steps[trajectory.steps.index(click) + 1 :] if s.action != "invalid")
    assert after.cursor_before == click.coordinate_screen
    assert click.assistant_raw == replies[0].content

    # what the model saw: every request ends with the newest screenshot, the one the dataset holds
    shots = Screenshots(tmp_path / "dataset")
    try:
        by_model_step = {s.model_step: s for s in trajectory.steps}
        for n, request in enumerate(requests):
            image = [p for p in request["messages"][-1]["content"] if p.get("type") == "image_url"][-1]
            sent = base64.b64decode(image["image_url"]["url"].split(",", 1)[1])
            stored = shots.read(by_model_step[n].shard, by_model_step[n].member)
            assert sent == stored, f"model step {n} saw another screenshot than the dataset holds"
    finally:
        shots.close()
    assert io.BytesIO(stored).read(8) == b"\x89PNG\r\n\x1a\n"
