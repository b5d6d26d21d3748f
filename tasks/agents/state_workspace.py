"""The Discriminator's view of the two states, and its private place to try rewards on them.

Everything here is built from a `DiscriminatorRequest` alone — the state views and the states'
shipped file contents — so it can reach nothing of the Generator. `materialise` writes one state
into the workspace (inside the isolated worker that is its private /home/user, which is where
scripts expect the guest home), and `run` executes a snippet or a candidate reward.py there, in a
child process with a cleared environment (no API key), a timeout and lowered rlimits.
"""

from __future__ import annotations

import base64
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path, PurePosixPath

from infra.sandbox import EXIT_TIMEOUT, HOME_SUBDIRS, SandboxResult
from tasks.agents.base import DiscriminatorRequest
from tasks.agents.llm_loop import ToolError

GUEST_PYTHON = Path("/opt/cuagym/python/bin/python3")  # the guest venv, bound in by the isolation layer
RUN_TIMEOUT_S = 60.0
OUTPUT_CAP = 256 * 1024
MEMORY_CAP = 2048 * 1024 * 1024


def _limits() -> None:  # runs in the child before exec: only ever lowers limits
    for res, cap in (
        (resource.RLIMIT_AS, MEMORY_CAP),
        (resource.RLIMIT_FSIZE, 256 * 1024 * 1024),
        (resource.RLIMIT_CORE, 0),
    ):
        soft, hard = resource.getrlimit(res)
        new = cap if hard == resource.RLIM_INFINITY else min(cap, hard)
        resource.setrlimit(res, (new, new))


class StateWorkspace:
    """The two states of one request; `workspace` is wiped and rewritten by `materialise`."""

    def __init__(self, request: DiscriminatorRequest, workspace: Path, python: str | None = None) -> None:
        self.request = request
        self.workspace = workspace
        self.python = python or (str(GUEST_PYTHON) if GUEST_PYTHON.exists() else sys.executable)
        self.views = {"initial": request.initial_state, "golden": request.golden_state}
        self.files = {
            "initial": {b.path: b.data_b64 for b in request.initial_files},
            "golden": {b.path: b.data_b64 for b in request.golden_files},
        }
        self.current: str | None = None

    def _which(self, env: object) -> str:
        if env not in self.views:
            raise ToolError(f"env must be 'initial' or 'golden', not {env!r}")
        return str(env)

    def list_files(self, env: object, prefix: str = "") -> str:
        which = self._which(env)
        prefix = prefix.strip("/").removeprefix("home/user").strip("/")
        lines = [line for line in self.views[which].summary().splitlines() if line.startswith(prefix)]
        return "\n".join(lines[:300]) or f"(no files under {prefix or '/home/user'} in {which})"

    def read_file(self, env: object, path: str, limit: int = 5_000) -> str:
        which = self._which(env)
        rel = str(PurePosixPath(path.strip())).removeprefix("/home/user/").lstrip("/")
        entry = self.views[which].entry(rel)
        if entry is None or entry.kind != "file":
            raise ToolError(f"{which} has no file {rel!r}; list_files shows what exists")
        if rel not in self.files[which]:
            return f"{rel}: {entry.size:,} bytes, not shipped (too large); its sha256 is {entry.sha256}"
        data = base64.b64decode(self.files[which][rel])
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return (
                f"binary file, {len(data):,} bytes (starts {data[:8]!r}); inspect it with run_python "
                "(openpyxl, python-docx, python-pptx, pypdf, Pillow, zipfile)"
            )
        return text if len(text) <= limit else text[:limit] + f"\n… [{len(text) - limit:,} more characters]"

    def changes(self) -> str:
        """Paths added, removed or modified from initial to golden (by content hash)."""
        return self.views["golden"].changes_since(self.views["initial"])

    def materialise(self, env: object) -> list[str]:
        """Write state `env` into the workspace (wiping it first); returns the paths not shipped."""
        which = self._which(env)
        self.workspace.mkdir(parents=True, exist_ok=True)
        for child in self.workspace.iterdir():
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child)
            else:
                child.unlink()
        for sub in HOME_SUBDIRS:
            (self.workspace / sub).mkdir(exist_ok=True)
        missing = []
        for entry in self.views[which].files:
            target = self.workspace / entry.path
            if ".." in PurePosixPath(entry.path).parts:
                continue  # views never hold such paths; refuse rather than write outside
            if entry.kind == "dir":
                target.mkdir(parents=True, exist_ok=True)
            elif entry.kind == "symlink" and entry.target is not None:
                target.parent.mkdir(parents=True, exist_ok=True)
                os.symlink(entry.target, target)
            elif entry.kind == "file":
                target.parent.mkdir(parents=True, exist_ok=True)
                if entry.path in self.files[which]:
                    target.write_bytes(base64.b64decode(self.files[which][entry.path]))
                    os.chmod(target, int(entry.mode, 8) & 0o777 | 0o600)
                else:
                    missing.append(entry.path)
        self.current = which
        return missing

    def run(
        self, env: object, source: str, *, name: str = "snippet.py", timeout_s: float = RUN_TIMEOUT_S
    ) -> SandboxResult:
        """Materialise `env`, then run `source` as `python3 <name>` with HOME = the workspace."""
        self.materialise(env)
        with tempfile.TemporaryDirectory(prefix="cuagym-run-") as tmp:
            script, out_path, err_path = Path(tmp) / name, Path(tmp) / "out", Path(tmp) / "err"
            script.write_text(source, encoding="utf-8")
            env_vars = {
                "HOME": str(self.workspace),
                "PATH": "/usr/local/bin:/usr/bin:/bin",
                "LANG": "C.UTF-8",
                "PYTHONDONTWRITEBYTECODE": "1",
                "TMPDIR": tmp,
            }
            start = time.monotonic()
            with open(out_path, "wb") as out, open(err_path, "wb") as err:
                proc = subprocess.Popen(
                    [self.python, str(script)],
                    cwd=self.workspace,
                    env=env_vars,
                    stdout=out,
                    stderr=err,
                    stdin=subprocess.DEVNULL,
                    start_new_session=True,
                    preexec_fn=_limits,
                )
                try:
                    code = proc.wait(timeout=timeout_s)
                    timed_out = False
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
                    code, timed_out = EXIT_TIMEOUT, True
            return SandboxResult(
                exit_code=code if code >= 0 else 128 - code,
                stdout=_read_capped(out_path),
                stderr=_read_capped(err_path),
                duration_s=round(time.monotonic() - start, 4),
                timed_out=timed_out,
            )


def _read_capped(path: Path) -> str:
    # Keep the end: a reward's score is its last line.
    with open(path, "rb") as fh:
        size = fh.seek(0, os.SEEK_END)
        fh.seek(max(0, size - OUTPUT_CAP))
        return fh.read().decode("utf-8", errors="replace")
