"""`cuagym desktop serve`: one desktop set up for a bundle, its URL and first screenshot printed, served
until Ctrl-C."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from flows.cli import main

from .conftest import export_bundle, png_size

pytestmark = pytest.mark.slow


def _read_until(proc: subprocess.Popen, marker: str, timeout_s: float) -> dict[str, str]:
    """The `key: value` lines the command printed, once a line starts with `marker`."""
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout], daemon=True).start()
    fields: dict[str, str] = {}
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=1)
        except queue.Empty:
            if proc.poll() is not None:
                raise AssertionError(
                    f"serve exited early with {proc.returncode}: {proc.stderr.read()}"
                ) from None
            continue
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip()
        if line.startswith(marker):
            return fields
    raise AssertionError(f"serve printed no {marker!r} line in {timeout_s:g} s; got {fields}")


def test_serve_sets_up_a_bundle_and_stops_on_ctrl_c(tmp_path, families, desktop_python):
    bundle = export_bundle(families, "calc.padded_ids", 4, tmp_path / "final")
    env = {**os.environ, "CUAGYM_VAR_DIR": str(tmp_path / "var"), "CUAGYM_DESKTOP_VENV": str(desktop_python)}
    cuagym = Path(sys.executable).with_name(
        "cuagym"
    )  # the console script (`python -m flows.cli` cannot import itself)
    proc = subprocess.Popen(
        [str(cuagym), "desktop", "serve", "--bundle", str(bundle)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        fields = _read_until(proc, "opened", timeout_s=300)
        url, token = fields["server"].split("token")[0].strip(), fields["server"].rsplit(" ", 1)[1]
        assert url.startswith("http://127.0.0.1:")
        assert png_size(Path(fields["screenshot"]).read_bytes()) == (1920, 1080)
        assert fields["opened"].endswith(".xlsx")
        assert httpx.get(f"{url}/platform", timeout=30).status_code == 401
        assert httpx.get(f"{url}/platform", auth=("anyone", token), timeout=30).text == "Linux"
        assert f'vm_ip="cuagym:{token}@127.0.0.1"' in fields["osworld"]
    finally:
        proc.send_signal(signal.SIGINT)
        try:  # communicate drains both pipes: a child blocked writing to a full pipe never exits
            _, stderr = proc.communicate(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert proc.returncode == 0, stderr
    # Whatever serve started, it stops: the desktop's folder goes with it (--keep-home keeps it).
    assert Path(fields["home"]).is_relative_to(tmp_path / "var" / "desktops")
    assert not (tmp_path / "var" / "desktops" / bundle.name).exists()


def test_stop_engine_stops_the_dockerd_cuagym_started_and_no_other(tmp_path, monkeypatch):
    from infra.envs.docker.daemon import _children, docker_client, recorded_dockerd
    from infra.server.daemon import start_ticks
    from infra.settings import get_settings

    monkeypatch.setenv("CUAGYM_VAR_DIR", str(tmp_path / "var"))
    get_settings.cache_clear()
    try:
        docker_client().close()  # starts (and records) a dockerd unless an engine already answers
        ours = recorded_dockerd()
        if ours is None:  # an engine we did not start (a service, another test's): never ours to stop
            result = CliRunner().invoke(main, ["desktop", "stop-engine"])
            assert result.exit_code == 0 and "no dockerd started by cuagym" in result.output
            docker_client(start=False).ping()
            return
        engine = [(pid, start_ticks(pid)) for pid in [ours.pid, *_children(ours.pid)]]
        assert any("containerd" in Path(f"/proc/{pid}/cmdline").read_text() for pid, _ in engine)
        result = CliRunner().invoke(main, ["desktop", "stop-engine"])
        assert result.exit_code == 0 and f"stopped dockerd (pid {ours.pid})" in result.output
        assert [pid for pid, ticks in engine if start_ticks(pid) == ticks] == []  # containerd too
        assert recorded_dockerd() is None
        again = CliRunner().invoke(main, ["desktop", "stop-engine"])
        assert "no dockerd started by cuagym" in again.output
    finally:
        get_settings.cache_clear()


def test_serve_rejects_a_folder_that_is_not_a_bundle(tmp_path):
    result = CliRunner().invoke(main, ["desktop", "serve", "--bundle", str(tmp_path)])
    assert (
        result.exit_code == 1 and "config.json" in result.output and "hint:" in result.output
    )  # rich wraps lines
