"""What the agents accept from a model's text and tool arguments, and the errors that quote the rest."""

from __future__ import annotations

import pytest

from infra.llm import LLMReply, ToolCall
from tasks.agents.base import AgentOutputError
from tasks.agents.llm_discriminator import parse_discriminator_text
from tasks.agents.llm_generator import parse_generator_text
from tasks.agents.llm_loop import check_reply, code_blocks, parse_arguments

SETUP = "print('setup')\n"
PATCH = "print('patch')\n"


def test_named_blocks_are_matched_by_name_whatever_their_order():
    text = f"```python golden_patch.py\n{PATCH}```\nand\n### initial_setup.py\n```python\n{SETUP}```\n"
    out = parse_generator_text(text)
    assert (out.initial_setup_py, out.golden_patch_py) == (SETUP, PATCH)


def test_unnamed_blocks_are_taken_in_order():
    out = parse_generator_text(f"```python\n{SETUP}```\n```\n{PATCH}```")
    assert (out.initial_setup_py, out.golden_patch_py) == (SETUP, PATCH)


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("I would rather not.", "no fenced code block"),
        (f"```python\n{SETUP}```", "found 1 code block, expected two"),
        (
            f"```python\n{SETUP}```\n```python\ndef broken(:\n```",
            "golden_patch.py is not valid Python: line 1",
        ),
        (f"```python\n{SETUP}```\n```python\n   \n```", "golden_patch.py is empty"),
        (f"```python\n{SETUP}```\n```python\nprint('cut off", "opened but never closed"),
    ],
)
def test_generator_text_errors_quote_the_problem(text, error):
    with pytest.raises(AgentOutputError, match=error):
        parse_generator_text(text)


def test_discriminator_takes_the_last_python_block():
    assert parse_discriminator_text("```python\nx = 1\n```\n```python\ny = 2\n```").reward_py == "y = 2\n"
    with pytest.raises(AgentOutputError, match="no fenced code block"):
        parse_discriminator_text("```json\n{}\n```")


def test_tool_arguments_must_be_one_json_object():
    assert parse_arguments(ToolCall(id="1", name="t", arguments="")) == {}
    with pytest.raises(AgentOutputError, match=r"not valid JSON \(Expecting .* at character 8\)"):
        parse_arguments(ToolCall(id="1", name="submit", arguments='{"a": 1, '))
    with pytest.raises(AgentOutputError, match="a JSON list, not an object"):
        parse_arguments(ToolCall(id="1", name="submit", arguments="[1]"))


def test_replies_that_are_empty_cut_off_or_huge_are_rejected():
    with pytest.raises(AgentOutputError, match="empty"):
        check_reply(LLMReply(content="  "))
    with pytest.raises(AgentOutputError, match="finish_reason=length"):
        check_reply(LLMReply(content="```python\nx", finish_reason="length"))
    huge = LLMReply(tool_calls=[ToolCall(id="1", name="submit", arguments='{"x": "' + "y" * 300_000 + '"}')])
    with pytest.raises(AgentOutputError, match="over the limit of 200,000"):
        check_reply(huge)
    check_reply(LLMReply(tool_calls=[ToolCall(id="1", name="submit", arguments="{}")]))  # fine


def test_code_blocks_keep_the_text_before_them():
    [block] = code_blocks("Here is initial_setup.py:\n~~~py\nx = 1\n~~~\n")
    assert block.info == "py" and block.body == "x = 1\n" and "initial_setup.py" in block.before
