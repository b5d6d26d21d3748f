"""`cuagym hub synth-app` end to end: the procedural writer composes an app without a model; the LLM
writer talks to a local server speaking the OpenAI protocol (its replies scripted) for up to five
rounds, each failed check and the reviewer's asks going back as feedback; only a definition that
validates, keeps the state contract and renders in a real Chromium is accepted and written out, and
the hub then hosts it."""

from __future__ import annotations

import json

import pytest
import yaml
from click.testing import CliRunner

from flows.cli import main
from infra.hub.engine import APPS_DIR, parse_definition
from infra.llm import LLMClient
from tasks.app_synthesis import synthesize_procedural, write_with_llm
from tasks.app_synthesis.procedural import compose
from tests.llm.conftest import role_config
from tests.llm.fake_openai import FakeOpenAI, Reply

LIKE = "a help desk with tickets, SLAs and macros"
# litellm's pydantic models warn when first built
pytestmark = pytest.mark.filterwarnings("ignore:.*ReadOnly:UserWarning")


def test_the_procedural_writer_is_deterministic_and_fits_the_description():
    first, again, other = compose(LIKE, seed=3), compose(LIKE, seed=3), compose(LIKE, seed=4)
    assert first == again and first != other
    definition = parse_definition(first)
    assert {"tickets", "macros"} <= set(definition.entities)
    assert {v.archetype.value for v in definition.views} >= {"table", "kanban"}
    assert definition.category == "Help desk"


def test_synth_app_procedural_writes_an_accepted_app_the_hub_then_hosts(isolated_settings):
    from infra.hub.registry import load_mock_apps

    result = CliRunner().invoke(main, ["hub", "synth-app", "--like", LIKE, "--name", "deskgen"])
    assert result.exit_code == 0, result.output
    assert "accepted deskgen" in result.output
    folder = isolated_settings.var_dir / "apps" / "deskgen"
    assert parse_definition(yaml.safe_load((folder / "definition.yaml").read_text())).name == "deskgen"
    assert "## Observable state changes" in (folder / "SCHEMA.md").read_text()
    rounds = json.loads((folder / "synthesis.json").read_text())["rounds"]
    assert rounds[0]["checks"] == {"validates": "ok", "state contract": "ok", "renders in Chromium": "ok"}
    (hosted,) = load_mock_apps(["deskgen"])  # a synthesized app is hosted from var/apps
    hosted.validate(hosted.seed())


def test_the_llm_writer_takes_feedback_until_the_checks_and_the_reviewer_accept(tmp_path):
    good = (APPS_DIR / "deskly" / "definition.yaml").read_text()
    dangling = good.replace(
        "requester: {type: ref, to: customers, required: true}", "requester: {type: ref, to: clients}"
    )
    assert dangling != good
    with FakeOpenAI() as server:
        server.script(
            "writer",
            Reply(content="Sure! Here is an app:\n```yaml\nname: [unclosed\n```"),  # malformed YAML
            Reply(content=f"```yaml\n{dangling}```"),  # a ref to an entity that does not exist
            Reply(content=f"```yaml\n{good}```"),  # valid; the reviewer asks for more
            Reply(content=f"```yaml\n{good}```"),
        )
        server.script(
            "reviewer",
            Reply(content='{"verdict": "revise", "problems": ["tickets need an SLA breach flag"]}'),
            Reply(content='{"verdict": "accept", "problems": []}'),
        )
        writer = LLMClient(role_config(server, "app_writer", "writer"))
        reviewer = LLMClient(role_config(server, "app_reviewer", "reviewer"))
        result = write_with_llm(writer, LIKE, name="helpgen", rounds=5, reviewer=reviewer)
        prompts = server.requests_for("writer")
    assert result.accepted and result.definition.name == "helpgen"
    assert [r.number for r in result.rounds] == [1, 2, 3, 4]
    assert "does not parse" in result.rounds[0].problems[0]
    assert "tickets.requester points to unknown entity 'clients'" in result.rounds[1].problems[0]
    assert result.rounds[2].review == "revise" and result.rounds[3].review == "accept"
    # each round's failures reach the writer as its next message
    last = prompts[-1]["messages"]
    feedback = [m["content"] for m in last if m["role"] == "user"][1:]
    assert "does not parse" in feedback[0] and "unknown entity 'clients'" in feedback[1]
    assert "SLA breach flag" in feedback[2]
    assert '"title":"AppDefinition"' in last[0]["content"]  # the schema is in the system prompt


def test_no_accepted_round_fails_with_every_rounds_problems(isolated_settings):
    with FakeOpenAI() as server:
        server.script("writer", *[Reply(content="I cannot help with that.")] * 2)
        result = CliRunner().invoke(
            main,
            [
                "hub",
                "synth-app",
                "--like",
                LIKE,
                "--backend",
                "llm",
                "--rounds",
                "2",
                "--model",
                "hosted_vllm/writer",
                "--api-base",
                server.base_url,
            ],
        )
    assert result.exit_code == 1
    assert "no definition was accepted in 2 round(s)" in result.output
    assert not (isolated_settings.var_dir / "apps").exists() or not any(
        (isolated_settings.var_dir / "apps").glob("*/definition.yaml")
    )


def test_synthesize_procedural_reports_a_render_failure(monkeypatch):
    # A definition the engine cannot draw (an archetype module that fails) is refused, not written.
    import tasks.app_synthesis.accept as accept

    monkeypatch.setattr(accept, "render_check", lambda definition, screenshot_dir=None: ["view 'x' is blank"])
    result = synthesize_procedural(LIKE)
    assert not result.accepted
    assert result.rounds[0].checks["renders in Chromium"] == "failed"
    assert "render check: view 'x' is blank" in result.rounds[0].problems
