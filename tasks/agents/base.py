"""The two agent roles of co-generation and what each is allowed to see.

The Generator gets the task, the skill and the previous REVIEW, and writes initial_setup.py and
golden_patch.py. The Discriminator gets the task, the skill, the previous REVIEW and the two
*state views* — never the Generator's scripts — and writes reward.py. Backends (procedural, llm)
implement these; tasks/agents/isolation.py runs a Discriminator in its own sandboxed process so the
barrier is enforced by what the process can reach, not by a promise.
"""

from __future__ import annotations

import base64
from typing import Protocol

from pydantic import BaseModel, Field

from infra.envs.base import Env, StateView
from infra.errors import CuagymError
from tasks.models import TaskSpec
from tasks.skills import Skill


class AgentOutputError(CuagymError):
    """An agent's reply could not be turned into a script (malformed, empty, oversized…)."""


class GeneratorOutput(BaseModel):
    initial_setup_py: str
    golden_patch_py: str
    notes: str = ""


class FileBlob(BaseModel):
    """The bytes of one regular file of a state (path relative to /home/user)."""

    path: str
    data_b64: str


MAX_BLOB_BYTES = (
    2 * 1024 * 1024
)  # per file: documents and workbooks are KBs; bigger ones are listed, not shipped
MAX_STATE_BYTES = 16 * 1024 * 1024  # per state: bounds the JSON line that crosses the barrier


def state_files(
    env: Env, view: StateView, *, max_file: int = MAX_BLOB_BYTES, max_total: int = MAX_STATE_BYTES
) -> list[FileBlob]:
    """The contents of a state's small regular files (what `view` lists), smallest first until
    `max_total`; a file the env will not read (vanished, not regular) is skipped, as is a big one."""
    blobs, total = [], 0
    for entry in sorted(
        (f for f in view.files if f.kind == "file" and f.size <= max_file), key=lambda f: f.size
    ):
        if total + entry.size > max_total:
            break
        try:
            data = env.read_file(entry.path, max_bytes=max_file)
        except CuagymError:
            continue
        total += len(data)
        blobs.append(FileBlob(path=entry.path, data_b64=base64.b64encode(data).decode()))
    return blobs


class DiscriminatorRequest(BaseModel):
    """Everything a Discriminator is given — the whole of it crosses the process barrier as JSON.

    `initial_files` / `golden_files` carry the states' small files (only for a Discriminator that
    asks for them, e.g. the LLM one, which reads them and tests rewards on them); they are state
    contents, like the views — never the Generator's scripts."""

    task: TaskSpec
    skill: str
    initial_state: StateView
    golden_state: StateView
    review: str | None = None
    round: int = 1
    initial_files: list[FileBlob] = Field(default_factory=list)
    golden_files: list[FileBlob] = Field(default_factory=list)


class DiscriminatorOutput(BaseModel):
    reward_py: str
    notes: str = ""


class Generator(Protocol):
    name: str

    def generate(
        self, spec: TaskSpec, skill: Skill, review: str | None, round_no: int
    ) -> GeneratorOutput: ...


class Discriminator(Protocol):
    name: str

    def write_reward(self, request: DiscriminatorRequest) -> DiscriminatorOutput: ...

    def close(self) -> None: ...
