"""Hostile scripts against the host's kernel, environment and disk, through the real sandbox.

cuagym and CI run as root: the uid inside the sandbox maps to host root, so anything of the kernel
that is writable inside is a way out. These are the regression tests for what a hostile generated
script found there (issue "Hardening").
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from infra.sandbox import EXIT_DISK, Limits, run_in_sandbox

SECRET = "sk-planted-e3b0c44298fc1c149afbf4c8996fb924"


def run(code: str, home: Path, guest: Path, **kw):
    return run_in_sandbox(["python3", "-c", textwrap.dedent(code)], home=home, guest_python=guest, **kw)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "env" / "home"


def test_kernel_settings_are_read_only(home, guest_python):
    # Writing back the value each file already holds: harmless if the wall ever breaks again.
    result = run(
        """
        import os
        for path in ("/proc/sys/kernel/core_pattern", "/proc/sys/vm/drop_caches", "/proc/sys/kernel/modprobe",
                     "/proc/sysrq-trigger"):
            try:
                current = open(path).read() if path != "/proc/sysrq-trigger" else ""
                with open(path, "w") as fh:
                    fh.write(current or "\\n")
                print("WROTE", path)
            except OSError as exc:
                print("DENIED", path, exc.strerror)
        print("SYS", os.path.exists("/sys/kernel"))
    """,
        home,
        guest_python,
    )
    lines = result.stdout.splitlines()
    assert sum(line.startswith("DENIED") for line in lines) == 4, result.stdout + result.stderr
    assert "SYS False" in lines


def test_nested_user_namespaces_are_disabled(home, guest_python):
    result = run(
        """
        import ctypes, os
        libc = ctypes.CDLL(None, use_errno=True)
        CLONE_NEWUSER = 0x10000000
        if libc.unshare(CLONE_NEWUSER) == 0:
            print("UNSHARED")
        else:
            print("DENIED", os.strerror(ctypes.get_errno()))
    """,
        home,
        guest_python,
    )
    assert result.stdout.startswith("DENIED"), result.stdout + result.stderr


def test_no_process_inside_sees_the_host_environment(home, guest_python, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("CUAGYM_TEST_SECRET", SECRET)
    result = run(
        """
        import os
        seen = []
        for pid in os.listdir("/proc"):
            if pid.isdigit():
                for name in ("environ", "cmdline"):
                    try:
                        seen.append(open(f"/proc/{pid}/{name}", "rb").read().decode(errors="replace"))
                    except OSError:
                        pass
        print(len(seen))
        print("\\n".join(seen))
    """,
        home,
        guest_python,
        env={"CUAGYM_SID": "abc"},
    )
    assert result.ok, result.stderr
    assert int(result.stdout.splitlines()[0]) >= 4, "expected bwrap (pid 1) and the script to be listed"
    assert SECRET not in result.stdout
    assert "OPENAI_API_KEY" not in result.stdout
    assert str(home) not in result.stdout, "bind sources must not show on bwrap's command line"


def test_many_files_under_the_per_file_cap_cannot_fill_the_disk(home, guest_python):
    result = run(
        """
        import os
        block = os.urandom(1 << 20)
        for i in range(400):
            with open(f"/home/user/fill-{i}.bin", "wb") as fh:
                fh.write(block * 4)
        print("FILLED")
    """,
        home,
        guest_python,
        limits=Limits(max_file_mb=8, max_home_mb=64, timeout_s=60),
    )
    assert result.killed_for_disk and result.exit_code == EXIT_DISK and not result.ok
    assert "FILLED" not in result.stdout
    assert "cap" in result.stderr
    used = sum(p.stat().st_size for p in home.rglob("*") if p.is_file())
    assert used < 400 * 4 << 20, "the watcher must stop the run long before it finishes"


def test_too_many_files_are_stopped(home, guest_python):
    result = run(
        """
        import os
        for i in range(200000):
            open(f"/home/user/f{i}", "w").close()
        print("DONE")
    """,
        home,
        guest_python,
        limits=Limits(max_home_files=2000, timeout_s=60),
    )
    assert result.killed_for_disk and "DONE" not in result.stdout


def test_tmp_is_size_capped(home, guest_python):
    result = run(
        """
        try:
            with open("/tmp/big", "wb") as fh:
                for _ in range(64):
                    fh.write(b"x" * (1 << 20))
            print("WROTE")
        except OSError as exc:
            print("FULL", exc.strerror)
    """,
        home,
        guest_python,
        limits=Limits(max_tmp_mb=8),
    )
    assert result.stdout.startswith("FULL"), result.stdout + result.stderr


def test_a_home_within_its_caps_is_not_disturbed(home, guest_python):
    result = run(
        "open('/home/user/Desktop/a.txt', 'w').write('x' * 1000); print('OK')",
        home,
        guest_python,
        limits=Limits(max_home_mb=4, max_home_files=100),
    )
    assert result.ok and not result.killed_for_disk
    assert (home / "Desktop" / "a.txt").read_text() == "x" * 1000
