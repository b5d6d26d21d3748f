"""The LLM Discriminator: a tool-calling agent that writes reward.py from the task and two states.

It runs inside the isolated worker (tasks/agents/isolation.py), built there by
`LLMDiscriminator.from_spec("llm:<json>", skills_dir)`; the worker has network access and exactly
the provider's key in its environment. Its tools reach only what the request carries — the two
state views and their small files — and its private workspace (the worker's /home/user), where it
can materialise either state and run snippets or a candidate reward on it. Model-call records are
kept in memory and handed back with each reply (`drain_calls`), so the parent process stores them.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
from pathlib import Path
from typing import Any

from infra.llm import CallRecord, LLMClient
from infra.llm_config import RoleConfig
from skills.kit import with_rewardkit
from tasks.agents.base import AgentOutputError, DiscriminatorOutput, DiscriminatorRequest
from tasks.agents.llm_generator import format_run, validate_script
from tasks.agents.llm_loop import (
    AgentLoop,
    Submit,
    Tool,
    ToolError,
    code_blocks,
    no_code_error,
    params_schema,
)
from tasks.agents.state_workspace import StateWorkspace
from tasks.grading import parse_grade
from tasks.prompts import render_messages

ENVS = ["initial", "golden"]
_PR_SET_DUMPABLE = 4


def harden_process() -> None:
    """Make this process's /proc entries (environ: the API key) unreadable to the snippets it runs,
    which share its uid inside the sandbox."""
    with contextlib.suppress(OSError, AttributeError):  # not Linux: no /proc entries to protect
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)


def parse_discriminator_text(text: str) -> DiscriminatorOutput:
    """The last ```python block of a text answer is reward.py."""
    blocks = [b for b in code_blocks(text) if b.info.split(" ")[0].lower() in ("", "python", "py", "python3")]
    if not blocks:
        raise no_code_error(text, "one ```python block holding reward.py")
    try:
        return DiscriminatorOutput(reward_py=reward_source(blocks[-1].body))
    except ToolError as exc:
        raise AgentOutputError(str(exc), hint="fix reward.py, or call `submit` after testing it") from None


def reward_source(text: object) -> str:
    """A submitted reward.py as it is tested and shipped: checked, with the standard helper above it
    when it uses the helper without defining it (the prompt shows only the helper's interface)."""
    return with_rewardkit(validate_script("reward.py", text))


def _forbidden_rules() -> dict[str, str]:
    from tasks.scan import RULES

    return RULES


class RewardTools:
    """The Discriminator's tools over one request's states."""

    def __init__(self, states: StateWorkspace) -> None:
        self.states = states

    def list_files(self, args: dict[str, Any]) -> str:
        return self.states.list_files(args["env"], str(args.get("path") or ""))

    def read_file(self, args: dict[str, Any]) -> str:
        return self.states.read_file(args["env"], str(args["path"]))

    def run_python(self, args: dict[str, Any]) -> str:
        code = args["code"]
        if not isinstance(code, str) or not code.strip():
            raise ToolError("`code` is empty")
        r = self.states.run(args["env"], code)
        return format_run(r.exit_code, r.stdout, r.stderr, timed_out=r.timed_out)

    def test_reward(self, args: dict[str, Any]) -> str:
        from tasks.scan import scan_source

        source = reward_source(args.get("reward_py"))
        lines = []
        for env, expected in (("golden", 1.0), ("initial", 0.0)):
            grade = parse_grade(self.states.run(env, source, name="reward.py"))
            if grade.score is None:
                lines.append(f"{env}: NO SCORE ({grade.error}); expected {expected}")
            else:
                verdict = "ok" if grade.score == expected else f"WRONG, expected {expected}"
                lines.append(f"{env}: REWARD {grade.score:.4f} ({verdict})")
            for c in grade.components:
                lines.append(
                    f"  {c.name} (weight {c.weight:g}): {c.score:.2f}" + (f" — {c.error}" if c.error else "")
                )
            if grade.preconditions_failed:
                lines.append(f"  preconditions failed: {', '.join(grade.preconditions_failed)}")
        findings = scan_source(source)
        lines.append(
            "static scan: "
            + (
                "clean"
                if not findings
                else "; ".join(f"{f.rule} (line {f.line}): {f.message}" for f in findings)
            )
        )
        return "\n".join(lines)

    def tools(self) -> list[Tool]:
        env_param = {"env": "which state: initial or golden"}
        enums = {"env": ENVS}
        return [
            Tool(
                "list_files",
                "List the files of a state (paths relative to /home/user, size, sha256 prefix).",
                params_schema(env_param, {"path": "only paths starting with this"}, enums),
                self.list_files,
            ),
            Tool(
                "read_file",
                "Read a text file of a state (binary files: size only; use run_python for them).",
                params_schema({**env_param, "path": "relative to /home/user"}, None, enums),
                self.read_file,
            ),
            Tool(
                "run_python",
                "Run a Python snippet with /home/user holding a copy of that state "
                "(e.g. open a workbook with openpyxl). Returns exit code, stdout and stderr tails.",
                params_schema({**env_param, "code": "Python source"}, None, enums),
                self.run_python,
            ),
            Tool(
                "test_reward",
                "Run a candidate reward.py on the golden and the initial state and the static "
                "scan on its source; reports both scores, the components and any forbidden pattern.",
                params_schema({"reward_py": "the full reward.py source"}),
                self.test_reward,
            ),
        ]


class LLMDiscriminator:
    """The `llm` Discriminator backend (see tasks/agents/base.py for the protocol)."""

    def __init__(self, client: LLMClient, *, workspace: Path, max_steps: int = 12) -> None:
        self.client, self.workspace, self.max_steps = client, workspace, max_steps
        self.name = f"llm:{client.model}"
        self._calls: list[dict] = []
        client.sink = self._record

    @classmethod
    def from_spec(cls, spec: str, skills_dir: Path) -> LLMDiscriminator:
        """Build from the worker's backend spec `llm:{"config": RoleConfig, "max_steps": n, "workspace": dir}`."""
        options = json.loads(spec.partition(":")[2] or "{}")
        harden_process()
        config = RoleConfig.model_validate(options["config"])
        return cls(
            LLMClient(config),
            workspace=Path(options.get("workspace") or Path.home()),
            max_steps=int(options.get("max_steps", 12)),
        )

    def _record(self, record: CallRecord) -> None:
        self._calls.append(record.model_dump(mode="json"))

    def drain_calls(self) -> list[dict]:
        """The call records since the last drain (the worker sends them back with each reply)."""
        calls, self._calls = self._calls, []
        return calls

    def write_reward(self, request: DiscriminatorRequest) -> DiscriminatorOutput:
        """reward.py; AgentOutputError for a malformed reply or a spent budget, LLMError for the model."""
        states = StateWorkspace(request, self.workspace)
        reward_tools = RewardTools(states)
        tools = reward_tools.tools()
        submit = Submit(
            "Submit reward.py (this ends your turn).",
            params_schema({"reward_py": "the full reward.py source"}, {"notes": "for the reviewer"}),
            lambda a: DiscriminatorOutput(
                reward_py=reward_source(a.get("reward_py")),
                notes=str(a.get("notes") or "")[:2000],
            ),
            parse_discriminator_text,
        )
        opening = render_messages(
            "discriminator",
            task=request.task,
            skill=request.skill,
            review=request.review,
            round=request.round,
            max_steps=self.max_steps,
            tools=[*tools, submit.tool()],
            forbidden=_forbidden_rules(),
            initial_summary=request.initial_state.summary(),
            golden_summary=request.golden_state.summary(),
            changes=states.changes(),
        )
        loop = AgentLoop(
            self.client,
            tools,
            submit,
            max_steps=self.max_steps,
            tags={"task_id": request.task.id, "round": request.round},
        )
        return loop.run(opening)

    def close(self) -> None:
        pass
