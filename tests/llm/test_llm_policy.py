"""The LLM rollout policy against the fake OpenAI-compatible server, over real HTTP through litellm:
what it returns (calls in model space, errors, latency) and what the server received (the system
prompt with the tool, screenshots as data URLs, the history's shape, tool-response wrapping,
collapsing after 20 screenshots), for Hermes JSON, Qwen3.5 XML and native OpenAI tool calls, and
every kind of garbage reply."""

from __future__ import annotations

import base64
import io
import json
import re

import pytest
from PIL import Image

from infra.computer_use.actions import ACTION_NAMES
from infra.computer_use.coords import Space
from infra.computer_use.formats import ToolFormat, parse_reply
from infra.contracts.policy import Observation
from infra.errors import ConfigError
from infra.llm import LLMError
from tasks.models import Difficulty, Domain, Platform, Scenario, TaskSpec
from tasks.rollout.llm_policy import COLLAPSED, FAMILIES, HISTORY_CUT_CHARS, LLMPolicy, collapsed_count

from .fake_openai import Hang, Raw, Reply, Status, tool

SCREEN = (64, 36)
TASK = TaskSpec(
    id="calc.rename-sheet-0001",
    instruction="Rename the first sheet of budget.ods to 'Q3'.",
    context="budget.ods is open in LibreOffice Calc.",
    apps=["calc"],
    platform=Platform.DESKTOP,
    domain=Domain.OFFICE_ADMIN,
    difficulty=Difficulty.EASY,
    scenario=Scenario.PERSONAL,
    persona="an accountant",
    taxonomy_leaf="calc/sheet/rename",
    family="calc.rename_sheet",
    template="calc.rename_sheet:plain",
    seed=1,
)
OPEN, CLOSE = {"type": "text", "text": "<tool_response>\n"}, {"type": "text", "text": "\n</tool_response>"}
THINK = "The sheet tab is at the bottom left; I double-click it to rename.\n</think>\n\n"


def hermes(**arguments) -> str:
    return "<tool_call>\n" + json.dumps({"name": "computer_use", "arguments": arguments}) + "\n</tool_call>"


WAIT = "Action: wait.\n" + hermes(action="wait", time=1)


def png(step: int, size: tuple[int, int] = SCREEN) -> bytes:
    """A screenshot whose red channel is its step, so a request shows which screenshots it holds."""
    out = io.BytesIO()
    Image.new("RGB", size, (step, 100, 200)).save(out, format="PNG")
    return out.getvalue()


def decode(url: str) -> Image.Image:
    assert url.startswith("data:image/png;base64,"), url[:40]
    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))


def shown(part: dict) -> int | str:
    """The step of an image part, or the collapsed marker."""
    if part["type"] == "image_url":
        return decode(part["image_url"]["url"]).getpixel((0, 0))[0]
    assert part == {"type": "text", "text": COLLAPSED}, part
    return "collapsed"


def screenshots(request: dict) -> list[int | str]:
    """Every screenshot slot of a request, oldest first."""
    return [
        shown(part)
        for m in request["messages"]
        if m["role"] == "user"
        for part in m["content"]
        if part["type"] == "image_url" or part.get("text") == COLLAPSED
    ]


def policy(server, model: str, family: str, *, screen=SCREEN, **kw) -> LLMPolicy:
    p = LLMPolicy(
        f"hosted_vllm/{model}",
        family,
        api_base=server.base_url,
        **{"timeout_s": 20.0, "max_retries": 2, "backoff_s": 0.01, **kw},
    )
    p.start(TASK, screen, desktop=None)
    return p


def obs(step: int, results=(), screen=SCREEN) -> Observation:
    return Observation(step=step, screenshot_png=png(step, screen), screen=screen, last_results=list(results))


def system_tool(request: dict) -> dict:
    system = request["messages"][0]
    assert system["role"] == "system"
    text = system["content"] if isinstance(system["content"], str) else system["content"][0]["text"]
    return json.loads(re.search(r"<tools>\n(.*?)\n</tools>", text, re.S).group(1))


def system_text(request: dict) -> str:
    content = request["messages"][0]["content"]
    return content if isinstance(content, str) else "".join(p["text"] for p in content)


def assistant_text(message: dict) -> str:
    content = message["content"]
    return content if isinstance(content, str) else "".join(p["text"] for p in content)


# -- the three formats ----------------------------------------------------------------------------


def test_hermes_replies_become_calls_and_the_history_is_wrapped(server):
    reply = (
        THINK
        + "Action: double-click the sheet tab, then select its name.\n"
        + hermes(action="double_click", coordinate=[52, 969])
        + "\n<tool_call>\n"
        + json.dumps(
            {"name": "computer_use", "arguments": json.dumps({"action": "key", "keys": ["ctrl", "a"]})}
        )
        + "\n</tool_call>"
    )
    done = "Action: done.\n" + hermes(action="terminate", status="success")
    server.script("hermes", Reply(content=reply), Reply(content=done))
    p = policy(server, "hermes", "qwen3-vl", top_p=0.9)
    assert (p.name, p.model, p.space, p.fmt) == (
        "llm",
        "hosted_vllm/hermes",
        Space.RELATIVE,
        ToolFormat.HERMES,
    )

    first = p.step(obs(0))
    assert first.calls == [
        {"action": "double_click", "coordinate": [52, 969]},  # model space: the 0-999 grid, untouched
        {"action": "key", "keys": ["ctrl", "a"]},
    ]
    assert first.errors == [] and first.assistant_raw == reply and first.seconds > 0
    ran = [{"action": "double_click", "ok": True}, {"action": "key", "ok": True}]
    second = p.step(obs(1, ran))
    assert second.calls == [{"action": "terminate", "status": "success"}] and not second.errors

    req0, req1 = server.requests_for("hermes")
    assert (req0["temperature"], req0["top_p"], req0["max_tokens"]) == (0.7, 0.9, 3072)
    assert "tools" not in req0  # the tool is in the system prompt, as the Qwen template puts it
    schema = system_tool(req0)
    assert schema["function"]["name"] == "computer_use"
    assert schema["function"]["parameters"]["properties"]["action"]["enum"] == list(ACTION_NAMES)
    assert "The screen's resolution is 1000x1000." in schema["function"]["description"]
    assert '{"name": <function-name>, "arguments": <args-json-object>}' in system_text(req0)
    assert "terminate" in system_text(req0) and COLLAPSED in system_text(req0)
    assert [m["role"] for m in req0["messages"]] == ["system", "user"]
    instruction, image = req0["messages"][1]["content"]
    assert instruction == {"type": "text", "text": TASK.instruction}
    assert decode(image["image_url"]["url"]).size == SCREEN  # relative models get the screen as is
    assert screenshots(req0) == [0]

    assert [m["role"] for m in req1["messages"]] == ["system", "user", "assistant", "user"]
    assert req1["messages"][:2] == req0["messages"]  # the system prompt is constant; history only grows
    assert assistant_text(req1["messages"][2]) == reply  # verbatim, thinking and all
    wrapped = req1["messages"][3]["content"]
    assert wrapped[0] == OPEN and wrapped[2] == CLOSE and shown(wrapped[1]) == 1
    assert system_text(req1) == system_text(req0)


def test_qwen35_xml_replies_with_several_calls(server):
    reply = (
        THINK
        + "Action: rename the tab.\n"
        + "<tool_call>\n<function=computer_use>\n<parameter=action>\ndouble_click\n</parameter>\n"
        + "<parameter=coordinate>\n[52, 969]\n</parameter>\n</function>\n</tool_call>\n"
        + "<tool_call>\n<function=computer_use>\n<parameter=action>\ntype\n</parameter>\n"
        + "<parameter=text>\nQ3\nsecond line\n</parameter>\n</function>\n</tool_call>\n"
        + "<tool_call>\n<function=computer_use>\n<parameter=action>\nkey\n</parameter>\n"
        + '<parameter=keys>\n["enter"]\n</parameter>\n</function>\n</tool_call>'
    )
    server.script("xml", Reply(content=reply), Reply(content=WAIT))
    p = policy(server, "xml", "qwen3.5")
    assert (p.space, p.fmt) == (Space.RELATIVE, ToolFormat.XML)
    step = p.step(obs(0))
    assert step.calls == [
        {"action": "double_click", "coordinate": [52, 969]},
        {"action": "type", "text": "Q3\nsecond line"},
        {"action": "key", "keys": ["enter"]},
    ]
    assert not step.errors and step.assistant_raw == reply
    ran = [
        {"action": "double_click", "ok": True},
        {"action": "type", "ok": True},
        {"action": "key", "ok": False, "error": "unknown key 'enterr'"},
    ]
    p.step(obs(1, ran))

    req0, req1 = server.requests_for("xml")
    system = system_text(req0)
    assert "<function=example_function_name>" in system and "<tools>" in system
    assert system_tool(req0)["function"]["name"] == "computer_use"
    assert assistant_text(req1["messages"][2]) == reply
    wrapped = req1["messages"][3]["content"]
    assert wrapped[0]["text"].startswith("<tool_response>\n")
    assert "The `key` call failed: unknown key 'enterr'" in wrapped[0]["text"]  # what went wrong, said
    assert shown(wrapped[1]) == 1 and wrapped[2] == CLOSE


def test_qwen25_sees_the_resized_screenshot_and_its_resolution(server):
    server.script(
        "resized", Reply(content="Action: click.\n" + hermes(action="left_click", coordinate=[56, 28]))
    )
    p = policy(server, "resized", "qwen2.5-vl", screen=(100, 50))
    assert p.space is Space.RESIZED
    step = p.step(obs(0, screen=(100, 50)))
    assert step.calls == [{"action": "left_click", "coordinate": [56, 28]}]  # resized pixels, as written
    (req,) = server.requests_for("resized")
    assert "The screen's resolution is 112x56." in system_tool(req)["function"]["description"]
    image = req["messages"][1]["content"][1]["image_url"]["url"]
    assert decode(image).size == (112, 56)  # smart_resize(100, 50): what the model's pixels refer to


def test_native_openai_tool_calls(server):
    server.script(
        "native",
        Reply(
            content="Action: click the tab, then type.",
            tool_calls=[
                tool("computer_use", action="double_click", coordinate=[30, 33]),
                tool("computer_use", action="type", text="Q3"),
            ],
        ),
        Reply(tool_calls=[tool("computer_use", action="terminate", status="success")]),
    )
    p = policy(server, "native", "openai")
    assert (p.space, p.fmt) == (Space.SCREEN, ToolFormat.HERMES)
    first = p.step(obs(0))
    assert first.calls == [
        {"action": "double_click", "coordinate": [30, 33]},
        {"action": "type", "text": "Q3"},
    ]
    assert not first.errors
    assert first.assistant_raw.startswith("Action: click the tab, then type.\n<tool_call>")
    assert [c.arguments for c in parse_reply(first.assistant_raw).calls] == first.calls  # re-parses
    ran = [{"action": "double_click", "ok": True}, {"action": "type", "ok": False, "error": "no focus"}]
    second = p.step(obs(1, ran))
    assert second.calls == [{"action": "terminate", "status": "success"}]
    assert second.assistant_raw.startswith("<tool_call>")

    req0, req1 = server.requests_for("native")
    (schema,) = req0["tools"]
    assert schema["function"]["name"] == "computer_use"
    assert schema["function"]["parameters"]["properties"]["action"]["enum"] == list(ACTION_NAMES)
    assert "The screen's resolution is 64x36." in schema["function"]["description"]
    assert "The screen's resolution is 64x36" in system_text(req0) and "<tools>" not in system_text(req0)
    roles = [m["role"] for m in req1["messages"]]
    assert roles == ["system", "user", "assistant", "tool", "tool", "user"]
    assistant = req1["messages"][2]
    ids = [c["id"] for c in assistant["tool_calls"]]
    assert [json.loads(c["function"]["arguments"]) for c in assistant["tool_calls"]] == first.calls
    results = req1["messages"][3:5]
    assert [r["tool_call_id"] for r in results] == ids
    assert [json.loads(assistant_text(r)) for r in results] == [
        {"ok": True},
        {"ok": False, "error": "no focus"},
    ]
    assert [shown(part) for part in req1["messages"][5]["content"]] == [1]


# -- history: collapsing ----------------------------------------------------------------------------


def test_collapsed_count_folds_whole_blocks():
    assert [collapsed_count(n, 20, 10) for n in (1, 20, 21, 30, 31, 40, 41)] == [0, 0, 10, 10, 20, 20, 30]
    assert [collapsed_count(n, 20, 1) for n in (20, 21, 25)] == [0, 1, 5]


def test_at_most_20_screenshots_stay_visible_and_old_ones_collapse_in_blocks(server):
    server.script("long", *[Reply(content=WAIT)] * 25)
    p = policy(server, "long", "qwen3-vl")
    for n in range(25):
        assert p.step(obs(n)).calls == [{"action": "wait", "time": 1}]
    requests = server.requests_for("long")
    assert len(requests) == 25
    for n, req in enumerate(requests):  # request n holds screenshots 0..n
        slots = screenshots(req)
        folded = 0 if n < 20 else 10
        assert slots == ["collapsed"] * folded + list(range(folded, n + 1))
        assert len([s for s in slots if s != "collapsed"]) <= 20
    req = requests[20]  # 21 screenshots: the first 10 are text now, inside their wrappers
    assert req["messages"][1]["content"] == [
        {"type": "text", "text": TASK.instruction},
        {"type": "text", "text": COLLAPSED},
    ]
    assert req["messages"][3]["content"] == [OPEN, {"type": "text", "text": COLLAPSED}, CLOSE]
    assert all(assistant_text(m) == WAIT for m in req["messages"] if m["role"] == "assistant")
    # between collapses each request extends the previous one (a server's prefix cache hits)
    for a, b in ((requests[18], requests[19]), (requests[21], requests[22]), (requests[23], requests[24])):
        assert b["messages"][: len(a["messages"])] == a["messages"]
    assert requests[20]["messages"][: len(requests[19]["messages"])] != requests[19]["messages"]


def test_a_sliding_window_when_blocks_are_one(server):
    server.script("slide", *[Reply(content=WAIT)] * 5)
    p = policy(server, "slide", "qwen3.5", max_screenshots=3, collapse_block=1)
    for n in range(5):
        p.step(obs(n))
    assert screenshots(server.requests_for("slide")[-1]) == ["collapsed", "collapsed", 2, 3, 4]


# -- garbage never raises ---------------------------------------------------------------------------

GOOD = "Action: click.\n" + hermes(action="left_click", coordinate=[500, 500])
HUGE = "Action: " + "think " * 12_000


GARBAGE = [
    (
        "no-call",
        "qwen3-vl",
        Reply(content="I would click the sheet tab now."),
        "no tool call in the reply",
        [],
    ),
    ("empty", "qwen3-vl", Reply(content=""), "no tool call in the reply", []),
    ("null", "qwen3-vl", Reply(content=None), "no tool call in the reply", []),
    (
        "bad-json",
        "qwen3-vl",
        Reply(content='Action: x.\n<tool_call>{"name": "computer_use", "arguments": {"action": </tool_call>'),
        "tool call is not JSON",
        [],
    ),
    (
        "bad-xml",
        "qwen3.5",
        Reply(content="<tool_call>\n<function=computer_use>\n<parameter=action>\nleft_click\n</tool_call>"),
        "no closed <function=…> element",
        [],
    ),
    (
        "truncated",
        "qwen3-vl",
        Reply(content='Action: click.\n<tool_call>\n{"name": "computer_use", "argum', finish_reason="length"),
        "cut off at max_tokens (3072)",
        [],
    ),
    (
        "unknown-tool",
        "qwen3-vl",
        Reply(content='<tool_call>{"name": "browser", "arguments": {"url": "http://x"}}</tool_call>'),
        "unknown tool 'browser'",
        [],
    ),
    (  # one good block and one bad: the good call is kept, the bad one reported
        "half-good",
        "qwen3-vl",
        Reply(content=GOOD + "\n<tool_call>{not json}</tool_call>"),
        "tool call is not JSON",
        [{"action": "left_click", "coordinate": [500, 500]}],
    ),
    ("huge", "qwen3.5", Reply(content=HUGE), "a runaway generation", []),
    ("native-no-call", "openai", Reply(content="I am not sure what to do."), "no tool call in the reply", []),
    (
        "native-bad-json",
        "openai",
        Reply(tool_calls=[("computer_use", '{"action": "left_click", "coordinate": [1,')]),
        "tool call arguments are not JSON",
        [],
    ),
    (
        "native-unknown-tool",
        "openai",
        Reply(tool_calls=[tool("browser", url="http://x")]),
        "unknown tool",
        [],
    ),
]


def told(messages: list[dict]) -> str:
    """Everything the messages after the garbage turn say in text (tool results decoded)."""
    out = []
    for m in messages:
        if isinstance(m["content"], str):
            out.append(json.loads(m["content"]).get("error", "") if m["role"] == "tool" else m["content"])
        else:
            out += [part["text"] for part in m["content"] if part["type"] == "text"]
    return "\n".join(out)


@pytest.mark.parametrize(
    ("family", "garbage", "error", "calls"), [pytest.param(*g[1:], id=g[0]) for g in GARBAGE]
)
def test_a_garbage_reply_is_a_failed_step_and_the_next_turn_says_why(
    server, request, family, garbage, error, calls
):
    model = "garbage-" + request.node.callspec.id
    server.script(model, garbage, Reply(content=GOOD))
    p = policy(server, model, family)
    step = p.step(obs(0))
    assert any(error in e for e in step.errors), step.errors
    assert step.calls == calls
    if garbage.content:
        assert step.assistant_raw.startswith(garbage.content)
    for name, _ in garbage.tool_calls:  # native calls are kept in the raw text as Hermes blocks
        assert f'<tool_call>\n{{"name": "{name}"' in step.assistant_raw
    # what the runner passes on: the calls it ran, and the reply's errors as one invalid result
    ran = [{"action": c["action"], "ok": True, "error": None} for c in step.calls]
    ran.append({"action": "invalid", "ok": False, "error": "; ".join(step.errors)})
    assert p.step(obs(1, ran)).calls == [{"action": "left_click", "coordinate": [500, 500]}]

    _, req1 = server.requests_for(model)
    assistant = req1["messages"][2]
    assert assistant["role"] == "assistant"
    if garbage.content is HUGE:  # a runaway reply stays in the history cut
        assert assistant_text(assistant).startswith(HUGE[:HISTORY_CUT_CHARS])
        assert assistant_text(assistant).endswith("characters cut]")
    elif family != "openai":
        assert assistant_text(assistant) == step.assistant_raw  # the reply verbatim
    for call in assistant.get("tool_calls", []):  # servers re-parse them: always a JSON object
        assert isinstance(json.loads(call["function"]["arguments"]), dict)
    assert told(req1["messages"][3:]).count(error) == 1  # the next turn tells the model what was wrong, once


def test_an_empty_choice_list_is_a_failed_step(server):
    server.script(
        "nochoice",
        Raw({"id": "x", "object": "chat.completion", "created": 0, "model": "nochoice", "choices": []}),
        Reply(content=GOOD),
    )
    p = policy(server, "nochoice", "qwen3-vl")
    step = p.step(obs(0))
    assert step.calls == [] and step.assistant_raw == ""
    assert step.errors and step.errors[0].startswith("model call failed")
    assert p.step(obs(1)).calls == [{"action": "left_click", "coordinate": [500, 500]}]
    # the model never answered screenshot 0, so the retry shows screenshot 1 in its place
    last = server.requests_for("nochoice")[-1]
    assert [m["role"] for m in last["messages"]] == ["system", "user"] and screenshots(last) == [1]


def test_a_provider_that_stays_down_is_a_failed_step_after_the_retries(server):
    server.script("down", Reply(content=GOOD), Status(503), Status(502), Status(429), Reply(content=WAIT))
    records = []
    p = policy(server, "down", "qwen3.5", sink=records.append)
    p.step(obs(0))
    failed = p.step(obs(1, [{"action": "left_click", "ok": True}]))
    assert failed.calls == [] and "model call failed" in failed.errors[0] and failed.seconds > 0
    assert [r.status for r in records] == ["ok", "retry", "retry", "error"]
    assert {r.role for r in records} == {"agent"} and records[-1].tags == {"task_id": TASK.id, "step": 1}
    assert p.step(obs(2)).calls == [{"action": "wait", "time": 1}]
    last = server.requests_for("down")[-1]  # one turn for the unanswered screenshots: the newest
    assert [m["role"] for m in last["messages"]] == ["system", "user", "assistant", "user"]
    assert screenshots(last) == [0, 2]


def test_a_rejected_request_is_a_failed_step_but_a_bad_key_raises(server):
    server.script("rejected", Status(400, "context too long"), Status(401, "bad key"))
    p = policy(server, "rejected", "qwen3-vl")
    assert "model call failed" in p.step(obs(0)).errors[0]
    with pytest.raises(LLMError, match="auth"):  # every later call would fail the same way
        p.step(obs(1))


def test_seconds_is_the_model_latency(server):
    server.script("slow", Hang(0.4, then=Reply(content=GOOD)))
    step = policy(server, "slow", "qwen3-vl").step(obs(0))
    assert step.calls and 0.4 <= step.seconds < 10


# -- configuration ----------------------------------------------------------------------------------


def test_families_are_a_parameter_never_guessed():
    assert {name: (f.fmt.value, f.space.value, f.native_tools) for name, f in FAMILIES.items()} == {
        "qwen3.5": ("xml", "relative", False),
        "qwen3-vl": ("hermes", "relative", False),
        "qwen2.5-vl": ("hermes", "resized", False),
        "qwen2-vl": ("hermes", "relative", False),
        "openai": ("hermes", "screen", True),
    }
    with pytest.raises(ConfigError, match="unknown model family"):
        LLMPolicy("hosted_vllm/Qwen3.5-9B", "qwen")
    assert LLMPolicy("openai/gpt-4o", "openai", space=Space.RELATIVE).space is Space.RELATIVE
    p = LLMPolicy("hosted_vllm/Qwen/Qwen2.5-VL-7B", "qwen3.5")  # the model string decides nothing
    assert (p.fmt, p.space, p.temperature, p.max_tokens, p.top_p) == (
        ToolFormat.XML,
        Space.RELATIVE,
        0.7,
        3072,
        None,
    )
    with pytest.raises(ConfigError):
        LLMPolicy("m", "qwen3.5", max_screenshots=5, collapse_block=6)
