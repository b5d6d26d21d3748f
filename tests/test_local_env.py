"""The local env provider: state views, file reads that never escape the home, snapshots, the CLI."""

from __future__ import annotations

import textwrap

import pytest
from click.testing import CliRunner

from flows.cli import main
from infra.envs.base import EnvRole
from infra.errors import EnvError

SCRIPT = textwrap.dedent("""
    import os
    from pathlib import Path
    home = Path.home()
    (home / "Desktop/report.txt").write_text("quarterly numbers")
    os.symlink("/etc/hostname", home / "Desktop/escape")
    os.symlink("report.txt", home / "Desktop/inside")
    os.chmod(home / "Desktop/report.txt", 0o600)
""")


def test_state_view_lists_files_without_following_links(provider):
    with provider.provision("t1", EnvRole.INITIAL) as env:
        assert env.run_script(SCRIPT, name="s.py").ok
        view = env.state_view()
        report = view.entry("Desktop/report.txt")
        assert report.kind == "file" and report.size == len("quarterly numbers") and report.mode == "0600"
        assert report.sha256 and len(report.sha256) == 64
        escape = view.entry("Desktop/escape")
        assert escape.kind == "symlink" and escape.target == "/etc/hostname" and escape.sha256 is None
        assert "Desktop/report.txt" in view.summary()


def test_read_file_refuses_escapes(provider):
    with provider.provision("t1", EnvRole.INITIAL) as env:
        env.run_script(SCRIPT, name="s.py")
        assert env.read_file("/home/user/Desktop/report.txt") == b"quarterly numbers"
        with pytest.raises(EnvError, match="symlinks are not followed"):
            env.read_file("Desktop/escape")
        with pytest.raises(EnvError, match="outside /home/user"):
            env.read_file("/etc/passwd")
        with pytest.raises(EnvError, match="climbs out"):
            env.read_file("../../../../etc/passwd")


def test_snapshot_restore_and_close(provider):
    env = provider.provision("t1", EnvRole.ROLLOUT)
    env.run_script("open('/home/user/a.txt','w').write('1')", name="a.py")
    snap = env.snapshot()
    env.run_script("open('/home/user/a.txt','w').write('2')", name="b.py")
    env.restore(snap)
    assert env.read_file("a.txt") == b"1"
    env.close()
    with pytest.raises(EnvError, match="closed"):
        env.state_view()


def test_envs_are_isolated_from_each_other(provider):
    with provider.provision("t1", EnvRole.INITIAL) as a, provider.provision("t1", EnvRole.GOLDEN) as b:
        a.run_script("open('/home/user/only-a.txt','w').write('a')", name="w.py")
        assert b.state_view().entry("only-a.txt") is None


def test_cli_env_run_passes_through_output_and_exit_codes(tmp_path, guest_python):
    runner = CliRunner()
    ok = tmp_path / "ok.py"
    ok.write_text("print('hello'); open('/home/user/Desktop/made.txt','w').write('x')")
    res = runner.invoke(main, ["env", "run", str(ok), "--home", str(tmp_path / "h")])
    assert res.exit_code == 0 and "hello" in res.output
    assert (tmp_path / "h/Desktop/made.txt").read_text() == "x"
    crash = tmp_path / "crash.py"
    crash.write_text("raise SystemExit(3)")
    assert runner.invoke(main, ["env", "run", str(crash), "--home", str(tmp_path / "h")]).exit_code == 3
    loop = tmp_path / "loop.py"
    loop.write_text("while True: pass")
    res = runner.invoke(main, ["env", "run", str(loop), "--home", str(tmp_path / "h"), "--timeout", "1"])
    assert res.exit_code == 124
    hog = tmp_path / "hog.py"
    hog.write_text("x = b'x' * (3 << 30)")
    res = runner.invoke(main, ["env", "run", str(hog), "--home", str(tmp_path / "h"), "--memory", "256"])
    assert res.exit_code == 137


def test_cli_isolation_none_warns(tmp_path, guest_python):
    script = tmp_path / "s.py"
    script.write_text("import os; print(os.getcwd())")
    res = CliRunner().invoke(
        main, ["env", "run", str(script), "--home", str(tmp_path / "h"), "--isolation", "none"]
    )
    assert res.exit_code == 0
    assert "WARNING" in res.output and str(tmp_path / "h") in res.output


def test_web_env_reaches_its_hub_session_and_nothing_else(provider):
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]
    threading.Thread(target=lambda: server.accept(), daemon=True).start()
    script = textwrap.dedent(f"""
        import os, socket, requests
        hub, sid = os.environ["CUAGYM_HUB_URL"], os.environ["CUAGYM_SID"]
        r = requests.post(f"{{hub}}/chat/post", params={{"sid": sid}}, timeout=10,
                          json={{"action": "set_current", "state": {{"probe": 7}}, "merge": True}})
        print("HUB", r.status_code)
        for host, p in (("127.0.0.1", {port}), ("1.1.1.1", 80)):
            try:
                socket.create_connection((host, p), timeout=3)
                print("REACHED", host)
            except OSError:
                print("BLOCKED", host)
    """)
    with (
        provider.provision("web.task", EnvRole.INITIAL, apps=["chat"]) as env,
        provider.provision("web.task", EnvRole.GOLDEN, apps=["chat"]) as other,
    ):
        result = env.run_script(script, name="probe.py")
        assert result.ok, result.stderr
        assert result.stdout.split("\n")[:3] == ["HUB 200", "BLOCKED 127.0.0.1", "BLOCKED 1.1.1.1"]
        assert env.state_view().app_state["chat"]["state_diff"] == {"probe": {"old": None, "new": 7}}
        assert other.state_view().app_state["chat"]["state_diff"] == {}  # its own session
    server.close()


def test_web_task_without_a_hub_fails_clearly(tmp_path, guest_python):
    from infra.envs.local import LocalProvider

    with pytest.raises(EnvError, match="needs the hub"):
        LocalProvider(tmp_path / "envs", guest_python).provision("t", EnvRole.INITIAL, apps=["mail"])
