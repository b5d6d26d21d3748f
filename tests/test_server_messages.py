"""`cuagym server start` on a stack that is already up says so, instead of "starting … (about a
minute)" (issue "What operators and analysts hit", item 7). The recorded server and worker are real
processes here, so `Daemon.running()` checks them as it checks the real ones (pid and start time)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

from click.testing import CliRunner

from flows.cli import main
from infra.server.daemon import Daemon, start_ticks
from infra.server.stack import ServerState


def test_starting_a_running_server_says_it_is_already_running(tmp_path):
    sleepers = [subprocess.Popen(["sleep", "60"]) for _ in range(2)]
    try:
        server, worker = (
            Daemon(name=name, pid=p.pid, started=start_ticks(p.pid), log=tmp_path / f"{name}.log")
            for name, p in zip(("server", "worker"), sleepers, strict=True)
        )
        state = ServerState(
            api_url="http://127.0.0.1:4299/api", ui_url="http://127.0.0.1:4299", pool="cuagym",
            postgres_dir=tmp_path / "postgres", postgres_port=5999, server=server, worker=worker,
        )  # fmt: skip
        (tmp_path / "server.json").write_text(state.model_dump_json())
        result = CliRunner().invoke(main, ["server", "start", "--state-dir", str(tmp_path), "--port", "4299"])
        assert result.exit_code == 0, result.output
        assert f"already running (server pid {server.pid}, worker pid {worker.pid})" in result.output
        assert "about a minute" not in result.output and "http://127.0.0.1:4299" in result.output
        assert all(p.poll() is None for p in sleepers)  # nothing was stopped or restarted
    finally:
        for p in sleepers:
            p.kill()
            p.wait()


def test_a_daemon_started_with_sigint_ignored_still_stops_on_sigint(tmp_path):
    """`cuagym server start &` hands its daemons SIGINT ignored (a shell without job control does);
    `stop` must still end them with the SIGINT it sends first, not only with the later SIGKILL."""
    sleeper = [sys.executable, "-c", "import time\nprint('ready', flush=True)\nwhile True: time.sleep(0.1)"]
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        daemon = Daemon.spawn("sleeper", sleeper, env={}, cwd=tmp_path, log=tmp_path / "sleeper.log")
    finally:
        signal.signal(signal.SIGINT, previous)
    deadline = time.monotonic() + 30
    while "ready" not in daemon.log_tail():  # SIGINT before the exec would find it still ignored
        assert daemon.running() and time.monotonic() < deadline, daemon.log_tail()
        time.sleep(0.05)
    daemon.stop(timeout_s=20)
    assert daemon._popen.returncode == -signal.SIGINT, daemon.log_tail()
