"""After `kill -9` of a running `cuagym synth`, every process the run started (hub, Prefect's API
server, sandboxes, desktops, the reaper itself) is gone within 5 s — at several stages of the run.

The real command runs in a subprocess; the test walks its process tree every 50 ms and remembers each
descendant with its start time (so a reused pid is never mistaken for a survivor), SIGKILLs the
parent once a stage is reached, and then waits for all of them to go.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from infra.settings import PROJECT_ROOT, get_settings

pytestmark = pytest.mark.slow

STAGE_TIMEOUT_S = 400.0  # the teacher stage on a loaded 2-core machine
GONE_WITHIN_S = 5.0

Seen = dict[int, tuple[int, str]]  # pid -> (start ticks, command line)


def _start_ticks(pid: int) -> int | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return None if fields[0] == "Z" else int(fields[19])


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def _record_tree(root: int, seen: Seen) -> None:
    stack = [root]
    while stack:
        for child in _children(stack.pop()):
            ticks = _start_ticks(child)
            try:
                cmdline = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            # Re-read every time: a child seen between fork and exec still shows its parent's command.
            if ticks is not None and seen.get(child, (ticks,))[0] == ticks:
                seen[child] = (ticks, cmdline)
            stack.append(child)


def _alive(seen: Seen) -> dict[int, str]:
    return {pid: cmd for pid, (ticks, cmd) in seen.items() if _start_ticks(pid) == ticks}


def _kill_at_stage(tmp_path: Path, args: list[str], reached: Callable[[list[str]], bool]) -> Seen:
    """Run synth, SIGKILL it once `reached(live command lines)` holds; what ran under it."""
    settings = get_settings()
    env = {
        **os.environ,
        "CUAGYM_VAR_DIR": str(tmp_path / "var"),
        "CUAGYM_OUTPUT_DIR": str(tmp_path / "output"),
        "CUAGYM_GUEST_VENV": str(settings.guest_venv_path),
        "CUAGYM_DESKTOP_VENV": str(settings.desktop_venv_path),
    }
    env.pop("CUAGYM_RUN_TOKEN", None)  # this pytest's own run, if a test armed one in-process
    log = open(tmp_path / "synth.log", "wb")  # noqa: SIM115 - handed to the child
    parent = subprocess.Popen(
        [sys.executable, "-m", "flows.cli", "synth", *args],
        cwd=PROJECT_ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    log.close()
    seen: Seen = {}
    deadline = time.monotonic() + STAGE_TIMEOUT_S
    try:
        while not reached(list(_alive(seen).values())):
            if parent.poll() is not None or time.monotonic() > deadline:
                tail = (tmp_path / "synth.log").read_text(errors="replace")[-3000:]
                raise AssertionError(f"synth never reached the stage (exit {parent.poll()}):\n{tail}")
            _record_tree(parent.pid, seen)
            time.sleep(0.05)
        _record_tree(parent.pid, seen)
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    return seen


def _assert_all_gone(seen: Seen) -> None:
    deadline = time.monotonic() + GONE_WITHIN_S
    while _alive(seen) and time.monotonic() < deadline:
        time.sleep(0.1)
    survivors = _alive(seen)
    for pid in survivors:  # leave nothing behind for the next test, then fail
        os.kill(pid, signal.SIGKILL)
    assert survivors == {}, f"alive {GONE_WITHIN_S:g} s after the parent's SIGKILL: {survivors}"


def _has(needle: str) -> Callable[[list[str]], bool]:
    return lambda commands: any(needle in command for command in commands)


def test_killed_once_the_hub_and_prefect_are_up(tmp_path):
    seen = _kill_at_stage(
        tmp_path,
        ["--count", "2", "--seed", "0", "--teacher-k", "0"],
        lambda commands: _has("-m infra.hub")(commands) and _has("prefect.server.api.server")(commands),
    )
    assert any("infra/reaper.py" in cmd for _, cmd in seen.values()), seen
    _assert_all_gone(seen)


def test_killed_during_co_generation_in_sandboxes(tmp_path):
    seen = _kill_at_stage(
        tmp_path, ["--count", "1", "--seed", "0", "--apps", "mail", "--teacher-k", "0"], _has("bwrap")
    )
    _assert_all_gone(seen)


def test_killed_during_a_teacher_rollout_on_a_desktop(tmp_path):
    # mail's families have a scripted GUI teacher: the tuple is rolled out in Chromium on a desktop.
    seen = _kill_at_stage(tmp_path, ["--count", "1", "--seed", "0", "--apps", "mail"], _has("Xvfb"))
    _assert_all_gone(seen)


def test_a_run_helper_ends_with_its_command_and_a_daemon_does_not(tmp_path):
    # A helper inherits the run token (it ends with the command, here a normal exit); a daemon is
    # started without it (`cuagym server start`'s processes must outlive that command).
    script = f"""
import os, subprocess
from pathlib import Path
from infra.lifetime import reap_when_gone
from infra.server.daemon import Daemon
reap_when_gone()
helper = subprocess.Popen(["sleep", "120"], start_new_session=True)
daemon = Daemon.spawn("sleeper", ["sleep", "120"], env=dict(os.environ), cwd=Path("/"), log=Path({str(tmp_path / "d.log")!r}))
ticks = lambda pid: Path(f"/proc/{{pid}}/stat").read_text().rsplit(")", 1)[1].split()[19]
print(helper.pid, ticks(helper.pid), daemon.pid, ticks(daemon.pid), flush=True)
"""
    env = {k: v for k, v in os.environ.items() if k != "CUAGYM_RUN_TOKEN"}
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    helper, helper_ticks, daemon, daemon_ticks = (int(field) for field in out.stdout.split())
    seen = {helper: (helper_ticks, "helper")}
    try:
        _assert_all_gone(seen)
        assert _start_ticks(daemon) == daemon_ticks
    finally:
        if _start_ticks(daemon) == daemon_ticks:
            os.kill(daemon, signal.SIGKILL)
