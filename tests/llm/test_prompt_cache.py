"""What keeps an agent turn's input short: the stable prefix marked for providers whose prompt cache
needs marks (Anthropic's Messages API, spoken by the local fake server), none for the rest, and stale
tool output cut once the model has moved on — each through real litellm, real HTTP and, for the
Generator's turn, its real scratch sandbox."""

from __future__ import annotations

import json

from infra.llm import CallRecord, LLMClient
from tasks.agents.llm_generator import LLMGenerator
from tasks.agents.llm_loop import STALE_RESULT_CHARS, AgentLoop, Submit, Tool, drop_stale_tool_output

from .conftest import GEN, PATCH, SETUP, SPEC, role_config
from .fake_openai import Reply, tool

CLAUDE = "claude-sonnet-4-5"  # the name the Messages API receives (litellm drops `anthropic/`)


def _generator_turn(server, provider, skill, model: str, records: list[CallRecord]) -> None:
    cfg = role_config(server, "generator", model).model_copy(
        update={"model": model, "api_base": server.base_url.removesuffix("/v1")}
    )
    generator = LLMGenerator(LLMClient(cfg, sink=records.append), provider, max_steps=6)
    out = generator.generate(SPEC, skill, review=None, round_no=1)
    assert out.initial_setup_py == SETUP and out.golden_patch_py == PATCH


def _script_generator(server, name: str) -> None:
    server.script(
        name,
        Reply(tool_calls=[tool("run_python", code=SETUP)]),
        Reply(tool_calls=[tool("list_files", path="Documents")]),
        Reply(tool_calls=[tool("read_file", path="/home/user/Documents/todo.txt")]),
        Reply(tool_calls=[tool("submit", initial_setup_py=SETUP, golden_patch_py=PATCH)]),
    )


def test_anthropic_calls_mark_the_stable_prefix_and_read_it_from_cache(server, provider, skill, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")  # the local server checks none
    server.clear_prompt_cache()
    server.requests.clear()
    _script_generator(server, CLAUDE)
    records: list[CallRecord] = []
    _generator_turn(server, provider, skill, f"anthropic/{CLAUDE}", records)

    requests = server.requests_for(CLAUDE)
    assert len(requests) == 4 and all(r["_path"].endswith("/v1/messages") for r in requests)
    for request in requests:
        # the system prompt (SKILL.md and the role's rules: the same for every task of the app) ...
        assert [b.get("cache_control") for b in request["system"]] == [{"type": "ephemeral"}]
        # ... and the newest message, so the next step reads the conversation so far from cache
        marked = [b for m in request["messages"] for b in m["content"] if "cache_control" in b]
        assert marked == [request["messages"][-1]["content"][-1]]
    ok = [r for r in records if r.status == "ok"]
    assert [r.cached_input_tokens > 0 for r in ok] == [False, True, True, True]
    # what the cache served is counted as input too (litellm adds Anthropic's cache reads back in)
    assert all(r.input_tokens > r.cached_input_tokens for r in ok)
    assert ok[1].cached_input_tokens >= 1024 and ok[3].cached_input_tokens > ok[1].cached_input_tokens


def test_openai_compatible_calls_carry_no_cache_marks(server, provider, skill):
    server.requests.clear()
    _script_generator(server, GEN)
    records: list[CallRecord] = []
    _generator_turn(server, provider, skill, f"hosted_vllm/{GEN}", records)
    requests = server.requests_for(GEN)
    assert len(requests) == 4 and "cache_control" not in json.dumps(requests)
    assert [r.cached_input_tokens > 0 for r in records if r.status == "ok"] == [False, True, True, True]


def test_stale_tool_output_is_cut_once_the_model_has_moved_on(server):
    """A 5,000-character tool result is sent whole while it is fresh, then cut to its head two steps
    later, and stays cut the same way (so the prefix cache hits again after the one change)."""
    big = "".join(f"row {i:04d}: {'x' * 40}\n" for i in range(110))
    tools = [Tool("dump", "a long listing", {"type": "object", "properties": {}}, lambda a: big)]
    submit = Submit("Submit.", {"type": "object", "properties": {"answer": {"type": "string"}}}, dict, dict)
    server.requests.clear()
    server.script(
        GEN,
        Reply(tool_calls=[tool("dump")]),
        Reply(tool_calls=[tool("dump")]),
        Reply(tool_calls=[tool("dump")]),
        Reply(tool_calls=[tool("submit", answer="row 0109")]),
    )
    loop = AgentLoop(LLMClient(role_config(server, "generator", GEN)), tools, submit, max_steps=4)
    assert loop.run([{"role": "user", "content": "find the last row"}]) == {"answer": "row 0109"}

    def tool_texts(request: dict) -> list[str]:
        return [m["content"] for m in request["messages"] if m["role"] == "tool"]

    requests = server.requests_for(GEN)
    assert tool_texts(requests[1]) == [big]
    assert tool_texts(requests[2]) == [big, big]  # both still fresh
    first, second, third = tool_texts(requests[3])
    assert len(first) < STALE_RESULT_CHARS and "row 0000" in first and "row 0109" not in first
    assert "was dropped" in first and "call the tool again" in first
    assert second == third == big
    # cutting is idempotent: a second pass over the same conversation changes nothing
    messages = [dict(m) for m in requests[3]["messages"]]
    assert drop_stale_tool_output(messages, fresh_steps=2) == 0 and messages == requests[3]["messages"]
