"""The computer_use interface: what models write (both Qwen formats, OpenAI calls, garbage), the
coordinate spaces, and execution on a real desktop with the pointer read from the X server."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from infra.computer_use.actions import LeftClick, Terminate, parse_action
from infra.computer_use.coords import Space, from_screen, smart_resize, to_screen
from infra.computer_use.executor import execute_calls
from infra.computer_use.formats import ToolFormat, parse_reply, render_calls

SCREEN = (1920, 1080)
XML = """Thought: the cell is B2.
</think>
Action: click the cell, then type.
<tool_call>
<function=computer_use>
<parameter=action>
left_click
</parameter>
<parameter=coordinate>
[103, 147]
</parameter>
</function>
</tool_call>
<tool_call>
<function=computer_use>
<parameter=action>
type
</parameter>
<parameter=text>
=SUM(A1:A3)\\nnext line
</parameter>
</function>
</tool_call>"""


def test_the_xml_form_with_prose_and_several_calls():
    reply = parse_reply(XML)
    assert reply.errors == []
    assert [c.arguments for c in reply.calls] == [
        {"action": "left_click", "coordinate": [103, 147]},
        {"action": "type", "text": "=SUM(A1:A3)\nnext line"},  # an escaped newline in type text is one
    ]


@pytest.mark.parametrize(
    "raw",
    [
        '"ctrl+l"',  # a JSON string: it failed as the unknown key `"ctrl` before
        "'ctrl+l'",  # the same in Python's quotes
        "ctrl+l",  # unquoted, as before
        '\n"ctrl+l"\n',  # quoted inside the form's framing newlines
    ],
)
def test_the_xml_form_reads_a_quoted_parameter_value_as_its_text(raw):
    text = f"<tool_call><function=computer_use><parameter=action>key</parameter><parameter=keys>{raw}</parameter></function></tool_call>"
    (call,) = parse_reply(text).calls
    assert parse_action(call.arguments).keys == ["ctrl", "l"]


def test_the_xml_form_keeps_quotes_typed_as_text():
    text = '<tool_call><function=computer_use><parameter=action>type</parameter><parameter=text>"quoted"</parameter></function></tool_call>'
    (call,) = parse_reply(text).calls
    assert call.arguments["text"] == '"quoted"'  # type text is typed exactly as written


def test_the_hermes_form_with_string_arguments_and_string_keys():
    text = (
        "<tool_call>"
        + json.dumps(
            {
                "name": "computer_use",
                "arguments": json.dumps({"action": "key", "keys": '["ctrl", "s"]'}),
            }
        )
        + "</tool_call>"
    )
    (call,) = parse_reply(text).calls
    assert parse_action(call.arguments).keys == ["ctrl", "s"]


def test_openai_tool_calls():
    calls = [
        {
            "type": "function",
            "function": {"name": "computer_use", "arguments": '{"action": "wait", "time": 2}'},
        }
    ]
    assert [c.arguments for c in parse_reply("", calls).calls] == [{"action": "wait", "time": 2}]


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("I will now open the file.", "no tool call"),
        ("<tool_call>{not json}</tool_call>", "not JSON"),
        ('<tool_call>{"name": "computer_use", "arguments": {"action": "ty', "cut off"),
        ('<tool_call>{"name": "browser", "arguments": {}}</tool_call>', "unknown tool 'browser'"),
        ("x" * 70_000, "runaway generation"),
        (
            "<tool_call><function=computer_use><parameter=action>key</parameter></tool_call>",
            "no closed <function",
        ),
    ],
    ids=["no-call", "bad-json", "truncated", "unknown-tool", "huge", "bad-xml"],
)
def test_garbage_replies_are_errors_not_exceptions(text, error):
    reply = parse_reply(text)
    assert reply.calls == [] and any(error in e for e in reply.errors), reply.errors


@pytest.mark.parametrize("fmt", list(ToolFormat))
def test_rendered_calls_parse_back(fmt):
    calls = [
        {"action": "left_click", "coordinate": [500, 300]},
        {"action": "type", "text": "two\nlines"},
        {"action": "type", "text": "=A1\n"},  # a text ending with Enter keeps it
        {"action": "type", "text": "\n\tindented\n\n"},
        {"action": "key", "keys": ["ctrl", "s"]},
    ]
    assert [c.arguments for c in parse_reply(render_calls(calls, fmt)).calls] == calls


def test_lenient_arguments_and_strict_refusals():
    assert parse_action({"action": "left_click", "coordinate": "[5, 6]", "text": "ctrl+shift"}).modifiers == [
        "ctrl",
        "shift",
    ]
    assert parse_action({"action": "terminate", "status": "done"}) == Terminate(
        action="terminate", status="success"
    )
    assert isinstance(parse_action({"action": "left_click", "coordinate": {"x": 1, "y": 2}}), LeftClick)
    for bad in (
        {"action": "fly"},
        {"action": "scroll"},
        {"action": "key", "keys": []},
        {"action": "wait", "time": 600},
    ):
        with pytest.raises(ValidationError):
            parse_action(bad)


def test_coordinate_spaces():
    assert smart_resize(1920, 1080) == (1932, 1092)  # multiples of 28 (Qwen2.5-VL's processor)
    assert to_screen((0, 0), Space.RELATIVE, SCREEN) == (0, 0)
    assert to_screen((999, 999), Space.RELATIVE, SCREEN) == (1919, 1079)
    assert to_screen((500, 500), Space.RELATIVE, SCREEN) == (961, 541)
    for pixel in ((0, 0), (961, 541), (1919, 1079), (37, 1003)):
        for space in Space:
            back = to_screen(from_screen(pixel, space, SCREEN), space, SCREEN)
            tolerance = 2 if space is Space.RELATIVE else 1  # the grid is coarser than the screen
            assert abs(back[0] - pixel[0]) <= tolerance and abs(back[1] - pixel[1]) <= tolerance, (
                space,
                pixel,
            )


@pytest.mark.slow
def test_calls_run_on_a_real_desktop_and_bad_ones_are_failed_steps(desktop):
    calls = [
        {"action": "mouse_move", "coordinate": [500, 500]},
        {"action": "mouse_move", "coordinate": [100, 900]},
        {"action": "left_click", "coordinate": [1200, 400]},  # off the 999 grid
        {"action": "teleport", "coordinate": [1, 1]},
        {"action": "key", "keys": ["hyperdrive"]},
        {"action": "right_click"},  # where the pointer is
        {"action": "key", "keys": ["escape"]},
        {"action": "terminate", "status": "success"},
        {"action": "key", "keys": ["enter"]},  # after terminate: not run
    ]
    done = execute_calls(desktop, calls, Space.RELATIVE)
    assert [d.ok for d in done] == [True, True, False, False, False, True, True, True]
    assert done[0].coordinate_screen == to_screen((500, 500), Space.RELATIVE, SCREEN)
    assert done[1].cursor_before == done[0].coordinate_screen  # read from the X server, not assumed
    assert "off the 1920x1080 screen" in done[2].error and "invalid call" in done[3].error
    assert "unknown key 'hyperdrive'" in done[4].error
    assert done[5].cursor_before == to_screen((100, 900), Space.RELATIVE, SCREEN)
    assert done[-1].final and done[-1].status == "success"
    assert desktop.cursor_position() == to_screen((100, 900), Space.RELATIVE, SCREEN)
