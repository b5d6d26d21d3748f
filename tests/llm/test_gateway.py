"""The gateway against the fake server: retries only on what a retry can fix, timeouts, the
response cache, cost and token records, and the env a sandboxed caller needs."""

from __future__ import annotations

import time

import pytest

from infra.errors import TransientError
from infra.llm import LLMClient, LLMError, LLMUnavailableError, provider_env
from infra.llm_config import RoleConfig

from .fake_openai import FakeOpenAI, Hang, Reply, Status

HELLO = [{"role": "user", "content": "hello"}]


@pytest.fixture(scope="module")
def server():
    with FakeOpenAI() as fake:
        yield fake


def _client(server, model="m", **kw):
    records, sleeps = [], []
    config = RoleConfig(
        role="judge",
        model=f"hosted_vllm/{model}",
        api_base=server.base_url,
        **{"timeout_s": 10.0, "max_retries": 2, "backoff_s": 0.5, **kw},
    )
    client = LLMClient(config, sink=records.append, sleep=sleeps.append)
    return client, records, sleeps


def test_429_and_503_are_retried_with_growing_backoff(server):
    client, records, sleeps = _client(server, "retry")
    server.script("retry", Status(429), Status(503), Reply(content="fine"))
    assert client.complete(HELLO).content == "fine"
    assert [(r.status, r.error_kind, r.try_no) for r in records] == [
        ("retry", "rate_limited", 1),
        ("retry", "server_error", 2),
        ("ok", None, 3),
    ]
    assert 0.5 <= sleeps[0] <= 0.55 and 1.0 <= sleeps[1] <= 1.1  # 0.5 s, then doubled (+ <= 10 % jitter)


def test_retry_after_header_is_honoured(server):
    client, _, sleeps = _client(server, "after")
    server.script("after", Status(429, headers={"retry-after": "3"}), Reply(content="ok"))
    client.complete(HELLO)
    assert 3.0 <= sleeps[0] <= 3.3


@pytest.mark.parametrize(("code", "kind"), [(401, "auth"), (400, "bad_request"), (404, "not_found")])
def test_errors_a_retry_cannot_fix_fail_at_once(server, code, kind):
    client, records, _ = _client(server, f"fatal{code}")
    server.script(f"fatal{code}", Status(code, "nope"))
    with pytest.raises(LLMError, match=kind) as info:
        client.complete(HELLO)
    assert not isinstance(info.value, TransientError)
    assert [(r.status, r.error_kind) for r in records] == [("error", kind)]
    assert len(server.requests_for(f"fatal{code}")) == 1


def test_exhausted_retries_raise_a_transient_error(server):
    client, records, _ = _client(server, "down")
    server.script("down", *[Status(502)] * 3)
    with pytest.raises(LLMUnavailableError, match="failed 3 time"):
        client.complete(HELLO)
    assert [r.status for r in records] == ["retry", "retry", "error"]


def test_a_hung_server_hits_the_timeout(server):
    client, records, _ = _client(server, "hang", timeout_s=0.5, max_retries=1)
    server.script("hang", Hang(20), Hang(20))
    start = time.monotonic()
    with pytest.raises(LLMUnavailableError, match="timeout"):
        client.complete(HELLO)
    assert time.monotonic() - start < 5
    assert [(r.status, r.error_kind) for r in records] == [("retry", "timeout"), ("error", "timeout")]


def test_response_cache_makes_reruns_reproducible_and_free(server, tmp_path):
    client, records, _ = _client(server, "cached", cache_dir=str(tmp_path / "cache"))
    server.script("cached", Reply(content="first answer"), Reply(content="other question"))
    first = client.complete(HELLO)
    again = client.complete(HELLO)
    assert again.content == first.content == "first answer" and again.cached and again.cost_usd == 0.0
    assert len(server.requests_for("cached")) == 1  # the second call never left the process
    assert client.complete([{"role": "user", "content": "something else"}]).content == "other question"
    assert [r.status for r in records] == ["ok", "cached", "ok"]
    assert records[1].input_tokens == records[0].input_tokens  # the tokens it would have cost are kept
    for entry in (tmp_path / "cache").rglob("*.json"):  # a corrupt entry is a miss, then replaced
        entry.write_text("{not json")
    server.script("cached", Reply(content="fresh"))
    assert client.complete(HELLO).content == "fresh"


def test_tokens_and_cost_are_recorded(server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    records = []
    priced = LLMClient(
        RoleConfig(role="critic", model="openai/gpt-4o-mini", api_base=server.base_url, max_retries=0),
        sink=records.append,
    )
    server.script("gpt-4o-mini", Reply(content="a priced answer"))
    reply = priced.complete(HELLO)
    assert reply.input_tokens > 0 and reply.output_tokens > 0
    assert reply.cost_usd == pytest.approx(reply.input_tokens * 1.5e-7 + reply.output_tokens * 6e-7)
    assert records[0].cost_usd == reply.cost_usd and records[0].latency_s > 0
    local, local_records, _ = _client(server, "local-model")
    server.script("local-model", Reply(content="no price known"))
    assert local.complete(HELLO).cost_usd is None  # unknown, not zero
    assert local_records[0].cost_usd is None


def test_provider_env_hands_a_worker_only_its_providers_keys():
    environ = {
        "ANTHROPIC_API_KEY": "a",
        "OPENAI_API_KEY": "o",
        "HOSTED_VLLM_API_KEY": "h",
        "HOME": "/root",
        "AWS_SECRET_ACCESS_KEY": "s",
    }
    assert provider_env("anthropic/claude-sonnet-4-5", environ) == {"ANTHROPIC_API_KEY": "a"}
    assert provider_env("hosted_vllm/qwen", environ) == {"HOSTED_VLLM_API_KEY": "h", "OPENAI_API_KEY": "o"}
