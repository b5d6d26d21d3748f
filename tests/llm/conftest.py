"""Fixtures for the LLM backend tests: one fake OpenAI-compatible server per module, a real
sandboxed LLM Discriminator worker talking to it, a real warehouse, and a small files task whose
scripts the scripted models "write"."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from infra.llm import LLMClient
from infra.llm_config import RoleConfig
from infra.sandbox import Limits
from skills.kit import rewardkit_source, with_rewardkit
from tasks.agents.llm_generator import LLMGenerator
from tasks.cogen import CogenDeps
from tasks.llm_roles import build_llm_discriminator
from tasks.models import Difficulty, Domain, Platform, Provenance, Scenario, SynthParams, TaskSpec
from tasks.scan import scan_source
from tasks.skills import load_skill
from tasks.synthesize import TupleContext
from warehouse.store import Warehouse

from ..conftest import SKILLS
from .fake_openai import FakeOpenAI

GEN, DISC, CRITIC, WRITER = "gen", "disc", "critic", "writer"  # model names: one reply queue each

SETUP = """from pathlib import Path

docs = Path("/home/user/Documents")
docs.mkdir(parents=True, exist_ok=True)
(docs / "todo.txt").write_text("buy milk\\nwater plants\\n", encoding="utf-8")
"""
PATCH = """# GENERATOR-ONLY-MARKER: the Discriminator must never see this line
from pathlib import Path

todo = Path("/home/user/Documents/todo.txt")
todo.write_text(todo.read_text(encoding="utf-8") + "call mom\\n", encoding="utf-8")
"""
_REWARD_BODY = """
from pathlib import Path

TODO = Path("/home/user/Documents/todo.txt")


def _lines():
    return [line.strip() for line in TODO.read_text(encoding="utf-8").splitlines() if line.strip()]


@precondition("the list still starts with buy milk")
def _kept():
    return _lines()[:1] == ["buy milk"]


@component("call mom is on the list", 0.5)
def _added():
    return "call mom" in _lines()


@component("call mom is the __WHERE__ item", 0.5)
def _position():
    return _lines()[__INDEX__] == "call mom"


raise SystemExit(grade())
"""
# What the Discriminator's prompt asks for: the checks alone, using the helper without defining it.
REWARD_BODY = _REWARD_BODY.replace("__WHERE__", "last").replace("__INDEX__", "-1").lstrip("\n")
# What is tested and shipped: the standard helper above those checks.
REWARD = with_rewardkit(REWARD_BODY)
# Checks the wrong position: the golden state earns only the first component.
HALF_REWARD = rewardkit_source() + _REWARD_BODY.replace("__WHERE__", "first").replace("__INDEX__", "0")

SPEC = TaskSpec(
    id="llm.files.append_item-test000001",
    instruction="Add 'call mom' as the last item of my to-do list "
    "(Documents/todo.txt), keeping the other items as they are.",
    context="/home/user/Documents/todo.txt holds two lines: 'buy milk' and 'water plants'. Done: the file "
    "holds 'buy milk', 'water plants', 'call mom' in that order, one item per line.",
    apps=["files"],
    platform=Platform.DESKTOP,
    domain=Domain.OFFICE_ADMIN,
    difficulty=Difficulty.EASY,
    scenario=Scenario.PERSONAL,
    persona="a paralegal",
    taxonomy_leaf="files/edit/append",
    family="llm:files/edit/append",
    template="llm:files/edit/append",
    seed=1,
)


def role_config(server: FakeOpenAI, role: str, model: str, **kw) -> RoleConfig:
    return RoleConfig(
        role=role,
        model=f"hosted_vllm/{model}",
        api_base=server.base_url,
        **{"timeout_s": 20.0, "max_retries": 2, "backoff_s": 0.01, **kw},
    )


@pytest.fixture(autouse=True)
def _quiet_litellm_schema_warnings():
    # pytest resets warning filters per test; litellm's pydantic models warn when first built.
    warnings.filterwarnings("ignore", message=r".*using the `ReadOnly` qualifier", category=UserWarning)


@pytest.fixture(scope="module")
def server():
    with FakeOpenAI() as fake:
        yield fake


@pytest.fixture(scope="module")
def llm_discriminator(server, tmp_path_factory, guest_python):
    """One sandboxed LLM Discriminator worker for the module (starting one imports litellm: seconds)."""
    from infra.settings import Settings

    var = tmp_path_factory.mktemp("disc-var")
    settings = Settings(var_dir=var, output_dir=var / "out", guest_venv=guest_python)
    params = SynthParams(
        backend="llm", discriminator_model=f"hosted_vllm/{DISC}", api_base=server.base_url, agent_steps=6
    )
    disc = build_llm_discriminator(params, settings, sink=None)
    yield disc
    disc.close()


@pytest.fixture
def warehouse(tmp_path) -> Warehouse:
    wh = Warehouse(tmp_path / "warehouse.duckdb")
    wh.start_run("run-test", backend="llm", seed=1, git_rev="test", params={})
    wh.save_specs("run-test", [SPEC.model_dump(mode="json")])
    return wh


@pytest.fixture
def skill():
    return load_skill(SKILLS, SPEC.apps)


def make_context(
    server, provider, llm_discriminator, warehouse, tmp_path, *, max_rounds=5, critic=None, **gen_kw
) -> TupleContext:
    """A TupleContext like runtime.build_context makes, with the test's generator settings."""
    from tasks.llm_roles import WarehouseCallSink

    server.requests.clear()  # the server is shared by the module: each test looks at its own requests
    sink = WarehouseCallSink(warehouse, "run-test")
    llm_discriminator.call_sink = sink
    generator = LLMGenerator(
        LLMClient(role_config(server, "generator", GEN, **gen_kw), sink=sink), provider, max_steps=6
    )
    deps = CogenDeps(
        provider=provider,
        generator=generator,
        discriminator=llm_discriminator,
        scan=scan_source,
        limits=Limits(timeout_s=60),
        max_rounds=max_rounds,
    )
    return TupleContext(
        warehouse=warehouse,
        deps=deps,
        skills_dir=SKILLS,
        final_dir=Path(tmp_path) / "final",
        run_id="run-test",
        provenance=Provenance(backend="llm", run_id="run-test"),
        critic=critic,
    )
