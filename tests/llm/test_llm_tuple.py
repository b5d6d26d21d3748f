"""A full tuple through the LLM backend: real litellm over real HTTP to a scripted fake server, real
sandboxes, the real isolated Discriminator worker, the real static scan and a real warehouse."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from infra.llm import LLMClient
from skills.kit import rewardkit_source
from tasks.models import TupleStatus
from tasks.synthesize import synthesize_tuple
from tasks.vote import TupleCritic
from warehouse.query import run_query

from ..conftest import SKILLS
from .conftest import CRITIC, DISC, GEN, PATCH, REWARD, REWARD_BODY, SETUP, SPEC, make_context, role_config
from .fake_openai import Reply, opening_text, tool

CUAGYM = str(Path(sys.executable).with_name("cuagym"))
KEEP = '```json\n{"decision": "keep", "reason": "sound", "criteria": {"consistency": {"ok": true, "note": ""}}}\n```'


NEXT_SPEC = SPEC.model_copy(
    update={
        "id": "llm.files.append_item-test000002",
        "instruction": "Please put 'call mom' at the end of the to-do list in Documents/todo.txt; leave "
        "the items already there as they are.",
    }
)


def script_tuple(server) -> None:
    """One accepted tuple's replies: the Generator tries its setup and looks, the Discriminator looks,
    tests its reward and submits, three critics keep it."""
    server.script(
        GEN,
        Reply(tool_calls=[tool("run_python", code=SETUP)]),  # tries its setup in its scratch guest
        Reply(tool_calls=[tool("list_files", path="Documents")]),
        Reply(tool_calls=[tool("read_file", path="/home/user/Documents/todo.txt")]),
        Reply(
            content="Both scripts work.",
            tool_calls=[tool("submit", initial_setup_py=SETUP, golden_patch_py=PATCH)],
        ),
    )
    server.script(
        DISC,
        Reply(tool_calls=[tool("list_files", env="golden")]),
        Reply(tool_calls=[tool("read_file", env="golden", path="Documents/todo.txt")]),
        Reply(tool_calls=[tool("test_reward", reward_py=REWARD_BODY)]),  # the checks alone, as asked
        Reply(tool_calls=[tool("submit", reward_py=REWARD_BODY, notes="two components")]),
    )
    server.script(CRITIC, *[Reply(content=KEEP)] * 3)


def test_full_tuple_is_verified_through_tool_calls(
    server, provider, llm_discriminator, warehouse, tmp_path, capsys
):
    server.clear_prompt_cache()  # the first tuple of its app is measured cold
    # one model serves every role, as `--backend llm --model M` sets it up: the Generator and the
    # Discriminator open with the same SKILL.md, so the second reads it from the server's prefix cache
    server.serve_as_one(GEN, DISC, CRITIC)
    script_tuple(server)
    critic = TupleCritic(LLMClient(role_config(server, "critic", CRITIC)), 3)
    ctx = make_context(server, provider, llm_discriminator, warehouse, tmp_path, critic=critic)
    critic.client.sink = ctx.deps.generator.client.sink

    outcome = synthesize_tuple(SPEC, ctx)

    assert outcome.status is TupleStatus.EXPORTED, outcome
    assert outcome.rounds == 1 and server.pending() == 0
    # The tools really ran: each result is in the next request the model got.
    gen_requests = server.requests_for(GEN)
    assert "exit 0" in gen_requests[1]["messages"][-1]["content"]
    assert "Documents/todo.txt" in gen_requests[2]["messages"][-1]["content"]
    assert "buy milk\nwater plants" in gen_requests[3]["messages"][-1]["content"]
    disc_requests = server.requests_for(DISC)
    assert (
        "call mom" in disc_requests[2]["messages"][-1]["content"]
    )  # read from the golden state's shipped file
    tested = disc_requests[3]["messages"][-1]["content"]
    assert "golden: REWARD 1.0000 (ok)" in tested and "initial: REWARD 0.0000 (ok)" in tested
    assert "static scan: clean" in tested
    # The information barrier: nothing the Discriminator's model was sent holds the Generator's scripts.
    assert not any("GENERATOR-ONLY-MARKER" in json.dumps(r) for r in disc_requests)
    # The reward helper is shown as its interface, never sent whole: the model writes only the checks,
    # and what is tested and shipped is the helper (the tested code, verbatim) above them.
    kit_line = "_INVALID_OUTPUT = frozenset("
    assert kit_line in rewardkit_source() and kit_line in REWARD
    assert not any(kit_line in json.dumps(r) for r in disc_requests)
    critic_text = opening_text(server.requests_for(CRITIC)[0])  # critics read the helper as one line
    assert kit_line not in critic_text and "[the standard reward helper, verbatim" in critic_text
    assert "call mom is the last item" in critic_text

    bundle = Path(outcome.bundle)
    assert (bundle / "reward.py").read_text() == REWARD and (bundle / "golden_patch.py").read_text() == PATCH
    provenance = json.loads((bundle / "task.json").read_text())["provenance"]
    assert (
        provenance["skill_hashes"]["files"]
        == hashlib.sha256((SKILLS / "files" / "SKILL.md").read_bytes()).hexdigest()
    )
    costs = provenance["costs"]
    assert costs["calls"] == 4 + 4 + 3 and costs["failed_tries"] == 0
    assert [v["decision"] for v in provenance["votes"]] == ["keep"] * 3
    assert provenance["votes"][0]["aggregate"] == "keep"
    warehouse.refresh_snapshot(force=True)
    rows = run_query(
        warehouse.path, "SELECT role, status, sum(tries) FROM llm_usage_by_role GROUP BY ALL ORDER BY 1"
    ).rows
    assert rows == [("critic", "ok", 3), ("discriminator", "ok", 4), ("generator", "ok", 4)]
    assert run_query(warehouse.path, "SELECT DISTINCT attempt, run_id FROM llm_calls").rows == [
        (1, "run-test")
    ]
    cold = warehouse.tuple_llm_usage(SPEC.id)
    assert cold["input_tokens"] > 5_000 and cold["output_tokens"] > 500  # real prompts, real token counts
    # the critics' votes share everything up to their number, and each agent step its conversation so far
    assert cold["cached_input_tokens"] > 3_000

    # The next tuple of the app: the roles' system prompts (SKILL.md, rules, the reward helper) are
    # served from the server's prefix cache; only what is new to this task is read afresh.
    script_tuple(server)
    outcome = synthesize_tuple(NEXT_SPEC, ctx)
    assert outcome.status is TupleStatus.EXPORTED and outcome.rounds == 1 and server.pending() == 0
    warm = warehouse.tuple_llm_usage(NEXT_SPEC.id)
    assert warm["calls"] == cold["calls"] and abs(warm["input_tokens"] - cold["input_tokens"]) < 500
    uncached = {
        name: u["input_tokens"] - u["cached_input_tokens"] for name, u in (("cold", cold), ("warm", warm))
    }
    # issue 30's budget: at most 8k input tokens per accepted tuple that the cache did not serve,
    # for the first tuple of an app as for the next
    assert uncached["cold"] <= 8_000 and uncached["warm"] <= 8_000 < warm["input_tokens"]
    warehouse.refresh_snapshot(force=True)
    per_role = run_query(
        warehouse.path,
        "SELECT role, input_tokens, cached_input_tokens, output_tokens FROM llm_by_role ORDER BY 1",
    ).rows
    with capsys.disabled():  # the measured cost of an accepted tuple (docs/llm.md quotes it)
        print(
            f"\n[tokens per tuple] first of its app: input={cold['input_tokens']} "
            f"not cached={uncached['cold']}; next: input={warm['input_tokens']} not cached={uncached['warm']}; "
            f"output={warm['output_tokens']} calls={warm['calls']}; both, per role: {per_role}"
        )


@pytest.mark.slow
def test_cli_synth_with_the_llm_backend_end_to_end(server, tmp_path, guest_python):
    """`cuagym synth --backend llm` in a subprocess: task writer, Generator, Discriminator (sandboxed
    worker) and a critic all go through litellm to the fake server; then `report` and `sql` read it."""
    writer_reply = Reply(tool_calls=[tool("submit_task", instruction=SPEC.instruction, context=SPEC.context)])
    server.requests.clear()
    server.script(
        "all",
        writer_reply,
        Reply(tool_calls=[tool("submit", initial_setup_py=SETUP, golden_patch_py=PATCH)]),
        Reply(tool_calls=[tool("test_reward", reward_py=REWARD)]),
        Reply(tool_calls=[tool("submit", reward_py=REWARD)]),
        Reply(content=KEEP),
    )
    env = {
        **os.environ,
        "CUAGYM_VAR_DIR": str(tmp_path / "var"),
        "CUAGYM_OUTPUT_DIR": str(tmp_path / "out"),
        "CUAGYM_GUEST_VENV": str(guest_python),
        "PREFECT_HOME": str(tmp_path / "prefect"),
        "HOSTED_VLLM_API_KEY": "local-key",
    }
    cmd = [
        CUAGYM,
        "synth",
        "--teacher-k",
        "0",
        "--backend",
        "llm",
        "--model",
        "hosted_vllm/all",
        "--api-base",
        server.base_url,
        "--count",
        "1",
        "--apps",
        "files",
        "--critics",
        "1",
        "--seed",
        "5",
        "--workers",
        "1",
    ]
    run = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert server.pending() == 0
    bundles = list((tmp_path / "out" / "final").iterdir())
    assert len(bundles) == 1 and (bundles[0] / "reward.py").read_text() == REWARD
    provenance = json.loads((bundles[0] / "task.json").read_text())["provenance"]
    assert provenance["models"] == {
        "generator": "llm:hosted_vllm/all",
        "discriminator": "llm:hosted_vllm/all",
        "task_writer": "llm:hosted_vllm/all",
        "critic": "llm:hosted_vllm/all",
    }
    usage = subprocess.run(
        [CUAGYM, "sql", "SELECT role, count(*) AS n FROM llm_calls GROUP BY 1 ORDER BY 1", "--format", "csv"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert usage.stdout.splitlines()[1:] == ["critic,1", "discriminator,2", "generator,1", "task_writer,1"]
    report = subprocess.run(
        [CUAGYM, "report", "rejections"], env=env, capture_output=True, text=True, timeout=60
    )
    assert report.returncode == 0, report.stderr
    by_role = subprocess.run(
        [CUAGYM, "report", "llm", "--format", "json"], env=env, capture_output=True, text=True, timeout=60
    )
    assert by_role.returncode == 0, by_role.stderr
    roles = {r["role"]: r for r in json.loads(by_role.stdout)}
    assert sorted(roles) == ["critic", "discriminator", "generator", "task_writer"]
    calls = {role: r["calls"] for role, r in roles.items()}
    assert calls == {"critic": 1, "discriminator": 2, "generator": 1, "task_writer": 1}
    assert all(r["input_tokens"] > r["output_tokens"] > 0 and r["latency_p95_s"] >= r["latency_p50_s"] > 0
               for r in roles.values())  # fmt: skip
    # one model for every role: the Discriminator's second call reuses its first call's prefix
    assert roles["discriminator"]["cached_input_tokens"] >= 1024
    table = subprocess.run(
        [CUAGYM, "report", "llm"], env={**env, "COLUMNS": "200"}, capture_output=True, text=True, timeout=60
    )
    assert table.returncode == 0 and "LLM calls by role" in table.stdout, table.stderr
    # one run's calls (the table `synth --local-model` ends with): here the only run, so the same figures
    from warehouse.reports import llm_run_report

    warehouse = tmp_path / "var" / "warehouse.duckdb"
    ((run_id,),) = run_query(warehouse, "SELECT DISTINCT run_id FROM llm_calls").rows
    result = llm_run_report(warehouse, run_id)
    one_run = {row[0]: dict(zip(result.columns, row, strict=True)) for row in result.rows}
    assert {role: (r["calls"], r["input_tokens"]) for role, r in one_run.items()} == {
        role: (r["calls"], r["input_tokens"]) for role, r in roles.items()
    }
    assert llm_run_report(warehouse, "no-such-run").rows == []


def test_discriminator_worker_gets_the_key_but_its_snippets_cannot_read_it(
    server, tmp_path, monkeypatch, guest_python
):
    """The worker is handed exactly the provider's key (it reaches the provider as the bearer token);
    the snippets it runs get a cleared environment and cannot read the worker's /proc environ."""
    from infra.envs.base import EnvRole, StateView
    from infra.settings import Settings
    from tasks.agents.base import DiscriminatorRequest
    from tasks.llm_roles import build_llm_discriminator
    from tasks.models import SynthParams

    canary = "sk-canary-0123456789"
    monkeypatch.setenv("HOSTED_VLLM_API_KEY", canary)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "not-for-the-worker")
    peek = (
        "import os\nprint('env:', sorted(os.environ))\n"
        "try:\n    print('parent:', open(f'/proc/{os.getppid()}/environ', 'rb').read()[:2000])\n"
        "except OSError as exc:\n    print('parent: DENIED', type(exc).__name__)\n"
    )
    server.requests.clear()
    server.script(
        "canary",
        Reply(tool_calls=[tool("run_python", env="initial", code=peek)]),
        Reply(tool_calls=[tool("submit", reward_py=REWARD)]),
    )
    settings = Settings(var_dir=tmp_path / "var", output_dir=tmp_path / "out", guest_venv=guest_python)
    disc = build_llm_discriminator(
        SynthParams(backend="llm", model="hosted_vllm/canary", api_base=server.base_url), settings, sink=None
    )
    view = StateView(env_id="e", role=EnvRole.INITIAL, files=[])
    try:
        out = disc.write_reward(
            DiscriminatorRequest(task=SPEC, skill="s", initial_state=view, golden_state=view)
        )
    finally:
        disc.close()
    assert out.reward_py == REWARD
    first, second = server.requests_for("canary")
    assert first["_headers"]["authorization"] == f"Bearer {canary}"
    seen = second["messages"][-1]["content"]
    assert "parent: DENIED" in seen and canary not in seen and "HOSTED_VLLM_API_KEY" not in seen, seen
    assert "AWS_SECRET_ACCESS_KEY" not in json.dumps(second)


DONE_PATCH = (
    PATCH
    + """
(Path("/home/user/Documents") / "done.txt").write_text("water plants\\n", encoding="utf-8")
"""
)
# Checks the to-do list only: the golden earns 1.0, the initial 0.0 — and so does a state where
# done.txt was never written, which only the mutation stage shows.
WEAK_REWARD = REWARD
STRONG_REWARD = REWARD.replace(
    "\n\nraise SystemExit(grade())",
    """


@component("done.txt records water plants", 0.5)
def _done():
    return Path("/home/user/Documents/done.txt").read_text(encoding="utf-8").split() == ["water", "plants"]


raise SystemExit(grade())""",
)


def test_a_surviving_mutant_goes_back_to_the_llm_discriminator_which_tightens_its_reward(
    server, provider, llm_discriminator, warehouse, tmp_path
):
    from tasks.mutation import MutationSettings

    spec = SPEC.model_copy(
        update={"instruction": SPEC.instruction + " Also note 'water plants' in Documents/done.txt."}
    )
    warehouse.save_specs("run-test", [spec.model_dump(mode="json")])
    submit = Reply(tool_calls=[tool("submit", initial_setup_py=SETUP, golden_patch_py=DONE_PATCH)])
    server.script(GEN, submit, submit)
    server.script(
        DISC,
        Reply(tool_calls=[tool("submit", reward_py=WEAK_REWARD, notes="checks the list")]),
        Reply(tool_calls=[tool("submit", reward_py=STRONG_REWARD, notes="and done.txt")]),
    )
    ctx = make_context(server, provider, llm_discriminator, warehouse, tmp_path)
    ctx.deps.mutation, ctx.deps.mutants_reject_at_once = MutationSettings(), False

    outcome = synthesize_tuple(spec, ctx)

    assert outcome.status is TupleStatus.EXPORTED and outcome.rounds == 2, outcome
    rounds = run_query(
        warehouse.path, "SELECT reject_reason, mutation_total, mutation_killed FROM rounds ORDER BY round"
    ).rows
    assert rounds[0][0] == "mutant_survived" and rounds[0][2] < rounds[0][1]
    assert rounds[1][0] is None and rounds[1][1] == rounds[1][2] > 0
    second_request = json.dumps(server.requests_for(DISC)[1]["messages"])
    assert "done.txt created" in second_request and "gives full credit (1.0) to a mutant" in second_request
