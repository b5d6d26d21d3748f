"""Resumable checkpoints of a hand-written training loop (GSPO), written atomically.

`output_dir/checkpoint-<step>/` holds the model and processor (`save_pretrained`: the folder reloads
with `from_pretrained`), whatever else the loop writes into it (GSPO: `optimizer.pt`,
`rng_state.pt`), and `trainer_state.json` — the loop's counters (iteration, step) plus a manifest
of every other file's size. A checkpoint is written into a hidden `.tmp-checkpoint-<step>-<pid>`
folder, `trainer_state.json` last, and renamed into place: a kill mid-save leaves the previous
checkpoints as they were and at most a temp folder, which is never read and is cleared at the next
save.

`find_checkpoint(output_dir)` returns the newest checkpoint whose manifest matches its files. One
that does not (no trainer_state.json, a file missing or truncated) is skipped with a warning that
says why, and the previous one is used; when checkpoints exist but none is complete it raises
`CheckpointError` — a run never silently restarts from scratch.

Example:
    >>> write_checkpoint(out / "checkpoint-4", model.save_pretrained, {"iteration": 2, "step": 4})  # doctest: +SKIP
    >>> find_checkpoint(out).step                                                                  # doctest: +SKIP
    4
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from infra.errors import CuagymError

log = logging.getLogger(__name__)

STATE = "trainer_state.json"
PREFIX = "checkpoint-"
TEMP_PREFIX = ".tmp-checkpoint-"
_NAME = re.compile(rf"^{PREFIX}(\d+)$")


class CheckpointError(CuagymError):
    """No checkpoint in an output directory can be resumed from."""


@dataclass(frozen=True)
class Checkpoint:
    path: Path
    step: int
    iteration: int
    state: dict[str, Any]  # trainer_state.json as written


def write_checkpoint(target: Path, write_files: Callable[[Path], None], state: dict[str, Any]) -> Path:
    """`write_files(folder)` then `state` (+ the manifest) into a temp folder, renamed to `target`."""
    target.parent.mkdir(parents=True, exist_ok=True)
    for stale in target.parent.glob(f"{TEMP_PREFIX}*"):  # a killed save's leftovers: never complete
        shutil.rmtree(stale, ignore_errors=True)
    tmp = target.with_name(f"{TEMP_PREFIX}{target.name.removeprefix(PREFIX)}-{os.getpid()}")
    tmp.mkdir()
    try:
        write_files(tmp)
        files = {str(p.relative_to(tmp)): p.stat().st_size for p in sorted(tmp.rglob("*")) if p.is_file()}
        (tmp / STATE).write_text(json.dumps(state | {"files": files}, indent=1), encoding="utf-8")
        if target.exists():  # the same step saved again (no optimizer step since): the newer wins
            old = tmp.with_name(f"{tmp.name}-replaced")
            target.rename(old)
            tmp.rename(target)
            shutil.rmtree(old)
        else:
            tmp.rename(target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return target


def find_checkpoint(output_dir: Path) -> Checkpoint | None:
    """The newest complete checkpoint in `output_dir` (None: there is none at all)."""
    if not output_dir.is_dir():
        return None
    found = sorted(
        ((int(m.group(1)), p) for p in output_dir.iterdir() if p.is_dir() and (m := _NAME.match(p.name))),
        reverse=True,
    )
    problems = []
    for step, path in found:
        state, problem = _read(path)
        if state is None:
            log.warning("skipping %s: %s", path, problem)
            problems.append(f"{path.name}: {problem}")
            continue
        return Checkpoint(path=path, step=step, iteration=int(state["iteration"]), state=state)
    if problems:
        raise CheckpointError(
            f"no complete checkpoint in {output_dir} ({'; '.join(problems)})",
            hint="restore a checkpoint folder, or point output_dir at a new folder to start afresh",
        )
    return None


def _read(path: Path) -> tuple[dict[str, Any] | None, str]:
    """The checkpoint's state if every file the manifest lists is there at its size, else why not."""
    try:
        state = json.loads((path / STATE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, f"no {STATE} (a save that did not finish, or not a resumable checkpoint)"
    except (OSError, ValueError) as exc:
        return None, f"unreadable {STATE}: {exc}"
    if not isinstance(state, dict) or not {"iteration", "step", "files"} <= state.keys():
        return None, f"{STATE} lacks iteration, step or files"
    for name, size in state["files"].items():
        file = path / name
        if not file.is_file():
            return None, f"{name} is missing"
        if file.stat().st_size != size:
            return None, f"{name} is {file.stat().st_size} bytes, the manifest says {size} (truncated?)"
    return state, ""
