"""`cuagym server start` on a stack that is already up says so, instead of "starting … (about a
minute)" (issue "What operators and analysts hit", item 7). The recorded server and worker are real
processes here, so `Daemon.running()` checks them as it checks the real ones (pid and start time)."""

from __future__ import annotations

import subprocess

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
