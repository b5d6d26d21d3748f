"""The trajectory dataset (DESIGN.md §3.4, the rollouts dataset card in seeds/004), written and read.

    <out>/trajectories.jsonl       one Trajectory per line (one rollout)
    <out>/screenshots-NNNN.tar     WebDataset shards: <task_id>/step_NNN.png

A rollout is durable once its line is in trajectories.jsonl: its screenshots are appended to the
open shard and flushed first, then the line. A run killed in between leaves screenshots no line
refers to (harmless: readers go by the lines) or half a member at the end of a shard, which the next
writer cuts off before appending. So a resumed run redoes only rollouts that had not finished, and
`done()` says which have. Readable with the `webdataset` library and with plain `tarfile`.
"""

from __future__ import annotations

import io
import json
import os
import tarfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

RECORDS = "trajectories.jsonl"
SHARD = "screenshots-{:04d}.tar"
SHARD_BYTES = 256 * 1024 * 1024


class TrajectoryStep(BaseModel):
    """One executed computer_use call (several share a model step and its screenshot)."""

    step: int  # index of this call in the episode
    model_step: int  # index of the model turn it came from
    call: int = 0  # index within that turn
    screenshot: str  # "screenshots/step_NNN.png": the screenshot the model saw
    shard: str
    member: str  # "<task_id>/step_NNN.png" inside the shard
    cursor_before: tuple[int, int] | None
    action: str  # computer_use action name, or "invalid"
    coordinate_screen: tuple[int, int] | None = None  # pixels actually used
    raw_action_args: dict[str, Any] = Field(default_factory=dict)  # model space, as written
    assistant_raw: str = ""  # the model's whole reply (on the first call of a turn)
    ok: bool = True
    error: str | None = None


class Trajectory(BaseModel):
    task_id: str  # "<tuple id>__r<k>"
    instruction: str
    reward: float | None  # None: the grader gave no parseable score (never imputed as 0)
    terminated: bool  # the policy ended the episode (terminate/answer) before the step budget
    screen: tuple[int, int]
    model: str
    steps: list[TrajectoryStep] = Field(default_factory=list)
    tuple_id: str = ""
    repeat: int = 0
    policy: str = ""  # scripted | llm
    coordinate_space: str = ""
    status: str | None = None  # terminate's status, when there was one
    seconds: float = 0.0
    reward_error: str | None = None


def rollout_id(tuple_id: str, repeat: int) -> str:
    return f"{tuple_id}__r{repeat}"


def _complete_prefix(path: Path) -> int:
    """Bytes of `path` that hold whole tar members (a killed writer may have left half of one)."""
    end, size = 0, path.stat().st_size
    try:
        with tarfile.TarFile(path, "r") as tar:
            for member in tar:
                member_end = member.offset_data + -(-member.size // 512) * 512
                if member_end > size:  # its header made it to disk, not all of its data
                    break
                end = member_end
    except (tarfile.ReadError, EOFError, OSError):
        pass
    return end


def _drop_partial_line(path: Path) -> None:
    """Cut a records file back to its last complete line (a kill mid-write leaves half of one)."""
    if not path.exists():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with open(path, "r+b") as fh:
            fh.truncate(data.rfind(b"\n") + 1)


class TrajectoryWriter:
    """Appends rollouts to a dataset directory; thread-safe; resumes what is there."""

    def __init__(self, out: Path, *, shard_bytes: int = SHARD_BYTES) -> None:
        self.out = out
        self.out.mkdir(parents=True, exist_ok=True)
        self.shard_bytes = shard_bytes
        self._lock = threading.Lock()
        _drop_partial_line(self.out / RECORDS)
        self._records = open(self.out / RECORDS, "a", encoding="utf-8")  # noqa: SIM115 - lives with the writer
        shards = sorted(self.out.glob("screenshots-*.tar"))
        self._index = int(shards[-1].stem.split("-")[1]) if shards else 0
        self._tar: tarfile.TarFile | None = None
        self._open_shard(repair=bool(shards))

    def _open_shard(self, *, repair: bool) -> None:
        path = self.out / SHARD.format(self._index)
        if repair and path.exists():
            end = _complete_prefix(path)
            with open(path, "r+b") as fh:
                fh.truncate(end)
                if end:  # an end-of-archive marker, which tarfile's append mode looks for
                    fh.seek(end)
                    fh.write(b"\0" * 1024)
        self._tar = tarfile.TarFile(path, "a" if path.exists() and path.stat().st_size else "w")

    @property
    def shard_name(self) -> str:
        return SHARD.format(self._index)

    def done(self) -> set[str]:
        return {t.task_id for t in read_trajectories(self.out)}

    def write(self, trajectory: Trajectory, screenshots: dict[str, bytes]) -> None:
        """`screenshots`: member name -> PNG bytes, for the members the steps refer to."""
        with self._lock:
            if self._tar.fileobj.tell() > self.shard_bytes:
                self._tar.close()
                self._index += 1
                self._open_shard(repair=False)
            shard = self.shard_name
            for member, data in sorted(screenshots.items()):
                info = tarfile.TarInfo(member)
                info.size, info.mtime, info.mode = len(data), int(time.time()), 0o644
                self._tar.addfile(info, io.BytesIO(data))
            self._tar.fileobj.flush()
            os.fsync(self._tar.fileobj.fileno())
            steps = [s.model_copy(update={"shard": shard}) for s in trajectory.steps]
            line = trajectory.model_copy(update={"steps": steps}).model_dump_json()
            self._records.write(line + "\n")
            self._records.flush()
            os.fsync(self._records.fileno())

    def close(self) -> None:
        with self._lock:
            if self._tar is not None:
                self._tar.close()
                self._tar = None
            self._records.close()

    def __enter__(self) -> TrajectoryWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_trajectories(out: Path) -> Iterator[Trajectory]:
    """Every complete record of `out/trajectories.jsonl` (a line cut off by a kill is skipped)."""
    path = out / RECORDS
    if not path.exists():
        return
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.endswith("\n") and line.strip():
                try:
                    yield Trajectory.model_validate(json.loads(line))
                except ValueError:
                    continue


class Screenshots:
    """Random access to a dataset's screenshots by (shard, member)."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self._tars: dict[str, tarfile.TarFile] = {}

    def read(self, shard: str, member: str) -> bytes:
        tar = self._tars.get(shard)
        if tar is None:
            tar = self._tars[shard] = tarfile.TarFile(self.out / shard, "r")
        extracted = tar.extractfile(member)
        if extracted is None:
            raise KeyError(f"{member} is not a file in {shard}")
        return extracted.read()

    def close(self) -> None:
        for tar in self._tars.values():
            tar.close()
