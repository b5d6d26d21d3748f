"""The LLM Generator: a tool-calling agent that writes initial_setup.py and golden_patch.py.

It works in a private scratch env of its own (provisioned from the run's env provider, the same
kind of guest the scripts will run on, and thrown away after the turn): it can run Python snippets
there, list and read the files they made, start over with a fresh home, and finally `submit` both
scripts. It never sees the Discriminator's work, and the Discriminator never sees this env.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from infra.envs.base import Env, EnvProvider, EnvRole
from infra.errors import EnvError
from infra.llm import LLMClient
from infra.sandbox import Limits
from tasks.agents.base import AgentOutputError, GeneratorOutput
from tasks.agents.llm_loop import (
    AgentLoop,
    Submit,
    Tool,
    ToolError,
    code_blocks,
    no_code_error,
    params_schema,
)
from tasks.models import TaskSpec
from tasks.prompts import render_messages
from tasks.skills import Skill

MAX_SCRIPT_CHARS = 100_000
OUTPUT_TAIL_CHARS = 2_500
SNIPPET_LIMITS = Limits(timeout_s=60.0, memory_mb=1024, max_output_bytes=64 * 1024)


def validate_script(name: str, source: Any) -> str:
    """`source` if it is a non-empty, parseable Python script of sane size; ToolError naming the problem."""
    if not isinstance(source, str) or not source.strip():
        raise ToolError(f"{name} is empty")
    if len(source) > MAX_SCRIPT_CHARS:
        raise ToolError(f"{name} is {len(source):,} characters, over the limit of {MAX_SCRIPT_CHARS:,}")
    try:
        ast.parse(source, filename=name)
    except SyntaxError as exc:
        raise ToolError(f"{name} is not valid Python: line {exc.lineno}: {exc.msg}") from None
    except (ValueError, RecursionError) as exc:
        raise ToolError(f"{name} cannot be parsed: {exc}") from None
    return source


def tail(text: str, limit: int = OUTPUT_TAIL_CHARS) -> str:
    text = text.rstrip()
    return text if len(text) <= limit else f"… [{len(text) - limit:,} characters cut]\n{text[-limit:]}"


def format_run(exit_code: int, stdout: str, stderr: str, *, timed_out: bool = False) -> str:
    head = f"exit {exit_code}" + (" (timed out)" if timed_out else "")
    return f"{head}\n--- stdout ---\n{tail(stdout) or '(empty)'}\n--- stderr ---\n{tail(stderr) or '(empty)'}"


class ScratchEnv:
    """The Generator's own env for one turn; `reset` swaps in a fresh one."""

    def __init__(self, provider: EnvProvider, task_id: str) -> None:
        self.provider, self.task_id = provider, task_id
        self.env: Env = provider.provision(task_id, EnvRole.DEBUG)

    def run_python(self, args: dict[str, Any]) -> str:
        code = args["code"]
        if not isinstance(code, str) or not code.strip():
            raise ToolError("`code` is empty")
        r = self.env.run_script(code, name="snippet.py", limits=SNIPPET_LIMITS)
        return format_run(r.exit_code, r.stdout, r.stderr, timed_out=r.timed_out)

    def list_files(self, args: dict[str, Any]) -> str:
        prefix = str(args.get("path") or "").strip("/").removeprefix("home/user").strip("/")
        lines = [line for line in self.env.state_view().summary().splitlines() if line.startswith(prefix)]
        return "\n".join(lines[:300]) or f"(no files under {prefix or '/home/user'})"

    def read_file(self, args: dict[str, Any]) -> str:
        try:
            data = self.env.read_file(str(args["path"]), max_bytes=4 * 1024 * 1024)
        except EnvError as exc:
            raise ToolError(exc.message) from None
        try:
            return tail(data.decode("utf-8"), 5_000)
        except UnicodeDecodeError:
            return (
                f"binary file, {len(data):,} bytes (starts {data[:8]!r}); inspect it with run_python "
                "(openpyxl, python-docx, python-pptx, pypdf, Pillow, zipfile)"
            )

    def reset(self, args: dict[str, Any]) -> str:
        self.env.close()
        self.env = self.provider.provision(self.task_id, EnvRole.DEBUG)
        return "the scratch guest is fresh again: /home/user holds only the standard empty folders"

    def tools(self) -> list[Tool]:
        return [
            Tool(
                "run_python",
                "Run a Python 3 snippet (e.g. your draft initial_setup.py) in your scratch guest; "
                "files persist between calls. Returns exit code, stdout and stderr tails.",
                params_schema({"code": "the Python source to run"}),
                self.run_python,
            ),
            Tool(
                "list_files",
                "List files under /home/user of your scratch guest (size, mode, sha256 prefix).",
                params_schema({}, {"path": "only paths starting with this (relative to /home/user)"}),
                self.list_files,
            ),
            Tool(
                "read_file",
                "Read a text file of your scratch guest (binary files: size only).",
                params_schema({"path": "absolute under /home/user, or relative to it"}),
                self.read_file,
            ),
            Tool(
                "reset_env",
                "Throw the scratch guest away and start from an empty home.",
                params_schema({}),
                self.reset,
            ),
        ]

    def close(self) -> None:
        self.env.close()


def _validate_submission(args: dict[str, Any]) -> GeneratorOutput:
    return GeneratorOutput(
        initial_setup_py=validate_script("initial_setup.py", args.get("initial_setup_py")),
        golden_patch_py=validate_script("golden_patch.py", args.get("golden_patch_py")),
        notes=str(args.get("notes") or "")[:2000],
    )


def _block_name(block) -> str | None:
    first_line = block.body.lstrip().splitlines()[0] if block.body.strip() else ""
    for text in (block.info, first_line, block.before):
        found = re.findall(r"(initial_setup|golden_patch)(?:\.py)?", text)
        if found:
            return found[-1]
    return None


def parse_generator_text(text: str) -> GeneratorOutput:
    """Two fenced blocks: named initial_setup / golden_patch (info string, first comment, or the
    heading before them), else the first two python blocks in that order."""
    blocks = [
        b
        for b in code_blocks(text)
        if b.info.split(" ")[0].lower() in ("", "python", "py", "python3") or _block_name(b)
    ]
    if not blocks:
        raise no_code_error(text, "two ```python blocks: initial_setup.py, then golden_patch.py")
    named = {name: b.body for b in blocks if (name := _block_name(b))}
    if len(named) < 2:
        if len(blocks) < 2:
            raise AgentOutputError(
                f"found {len(blocks)} code block, expected two (initial_setup.py and golden_patch.py)",
                hint="answer with both scripts, or call `submit`",
            )
        named = {"initial_setup": blocks[0].body, "golden_patch": blocks[1].body}
    try:
        return _validate_submission(
            {"initial_setup_py": named["initial_setup"], "golden_patch_py": named["golden_patch"]}
        )
    except ToolError as exc:
        raise AgentOutputError(str(exc), hint="fix the script, or call `submit` after testing it") from None


class LLMGenerator:
    """The `llm` Generator backend (see tasks/agents/base.py for the protocol)."""

    def __init__(self, client: LLMClient, provider: EnvProvider, *, max_steps: int = 12) -> None:
        self.client, self.provider, self.max_steps = client, provider, max_steps
        self.name = f"llm:{client.model}"

    def generate(self, spec: TaskSpec, skill: Skill, review: str | None, round_no: int) -> GeneratorOutput:
        """Both scripts; AgentOutputError for a malformed reply or a spent budget, LLMError for the model."""
        scratch = ScratchEnv(self.provider, spec.id)
        try:
            tools = scratch.tools()
            submit = Submit(
                "Submit both scripts (this ends your turn).",
                params_schema(
                    {
                        "initial_setup_py": "the full initial_setup.py source",
                        "golden_patch_py": "the full golden_patch.py source",
                    },
                    {"notes": "anything the reviewer should know"},
                ),
                _validate_submission,
                parse_generator_text,
            )
            opening = render_messages(
                "generator",
                task=spec,
                skill=skill.text,
                review=review,
                round=round_no,
                max_steps=self.max_steps,
                tools=[*tools, submit.tool()],
            )
            loop = AgentLoop(
                self.client,
                tools,
                submit,
                max_steps=self.max_steps,
                tags={"task_id": spec.id, "round": round_no},
            )
            return loop.run(opening)
        finally:
            scratch.close()
