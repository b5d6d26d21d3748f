"""Hostile and benign scripts through the real bubblewrap sandbox (infra/sandbox/)."""

from __future__ import annotations

import os
import socket
import textwrap
import threading
import time
import uuid
from pathlib import Path

import pytest

from infra.errors import SandboxUnavailableError
from infra.sandbox import EXIT_MEMORY, EXIT_TIMEOUT, Isolation, Limits, run_in_sandbox
from infra.sandbox import command as sandbox_command
from infra.settings import PROJECT_ROOT


def run(code: str, home: Path, guest: Path, **kw):
    return run_in_sandbox(["python3", "-c", textwrap.dedent(code)], home=home, guest_python=guest, **kw)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "env-a" / "home"


def test_host_loopback_server_is_unreachable(home, guest_python):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]
    accepted = []
    threading.Thread(target=lambda: accepted.append(server.accept()), daemon=True).start()
    result = run(
        f"""
        import socket
        try:
            socket.create_connection(("127.0.0.1", {port}), timeout=3)
            print("CONNECTED")
        except OSError as exc:
            print("BLOCKED", type(exc).__name__)
    """,
        home,
        guest_python,
    )
    server.close()
    assert result.stdout.startswith("BLOCKED"), result.stdout
    assert not accepted


def test_cannot_read_sibling_home_root_or_checkout(tmp_path, home, guest_python):
    sibling = tmp_path / "env-b" / "home"
    sibling.mkdir(parents=True)
    (sibling / "secret.txt").write_text("sibling secret")
    targets = [
        str(sibling / "secret.txt"),
        "/root",
        str(PROJECT_ROOT / "pyproject.toml"),
        "/home/user/../../" + str(sibling / "secret.txt").lstrip("/"),
    ]
    result = run(
        f"""
        import os
        for path in {targets!r}:
            try:
                if os.path.isdir(path):
                    print("LISTED", path, os.listdir(path))
                else:
                    print("READ", path, open(path).read()[:20])
            except OSError as exc:
                print("DENIED", path, type(exc).__name__)
    """,
        home,
        guest_python,
    )
    lines = result.stdout.splitlines()
    assert len(lines) == len(targets)
    assert all(line.startswith("DENIED") for line in lines), result.stdout


def test_system_is_read_only(home, guest_python):
    result = run(
        """
        for path in ("/usr/evil", "/usr/lib/python3/evil.py", "/etc/evil"):
            try:
                open(path, "w").write("x")
                print("WROTE", path)
            except OSError as exc:
                print("DENIED", path, exc.errno)
    """,
        home,
        guest_python,
    )
    assert result.stdout.count("DENIED") == 3, result.stdout
    assert not Path("/usr/evil").exists()


def test_process_count_is_capped(home, guest_python):
    result = run(
        """
        import os, time
        children = 0
        for _ in range(500):
            try:
                pid = os.fork()
            except OSError:
                break
            if pid == 0:
                time.sleep(30)
                os._exit(0)
            children += 1
        print("FORKED", children)
    """,
        home,
        guest_python,
        limits=Limits(max_procs=40, timeout_s=20),
    )
    forked = int(result.stdout.split()[-1])
    assert forked < 40, result.stdout


def _processes_whose_command_line_holds(marker: str) -> list[int]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if marker.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(int(pid))
        except OSError:
            continue
    return found


def test_fork_bomb_is_contained(home, guest_python):
    # Every fork of the bomb carries its command line, marker included: counting
    # those, not all of /proc, keeps other test workers' processes out of the sum.
    marker = f"fork-bomb-{uuid.uuid4().hex}"
    started = time.monotonic()
    result = run(
        f"""
        import os
        MARKER = "{marker}"
        while True:
            try:
                os.fork()
            except OSError:
                pass
    """,
        home,
        guest_python,
        limits=Limits(max_procs=64, timeout_s=3),
    )
    assert result.timed_out and result.exit_code == EXIT_TIMEOUT
    assert time.monotonic() - started < 15
    time.sleep(0.5)
    assert _processes_whose_command_line_holds(marker) == [], "fork bomb processes survived the sandbox"


def test_memory_hog_is_killed_and_reported(home, guest_python):
    result = run("x = b'x' * (4 << 30)\nprint('ALLOCATED')", home, guest_python, limits=Limits(memory_mb=512))
    assert result.killed_for_memory
    assert result.exit_code == EXIT_MEMORY
    assert "ALLOCATED" not in result.stdout


def test_infinite_loop_ends_at_timeout(home, guest_python):
    started = time.monotonic()
    result = run("while True: pass", home, guest_python, limits=Limits(timeout_s=1.5))
    assert result.timed_out and result.exit_code == EXIT_TIMEOUT
    assert 1.4 < time.monotonic() - started < 10


def test_huge_stdout_is_truncated_and_reported(home, guest_python):
    result = run(
        """
        import sys
        block = "x" * (1 << 20)
        for _ in range(200):
            sys.stdout.write(block)
        print()
        print("REWARD: 0.5")
    """,
        home,
        guest_python,
        limits=Limits(max_output_bytes=256 * 1024, timeout_s=60),
    )
    assert result.exit_code == 0
    assert result.stdout_truncated and result.truncated
    assert len(result.stdout) < 300 * 1024
    assert "bytes of output dropped" in result.stdout
    assert result.stdout.rstrip().endswith("REWARD: 0.5"), "the tail (where REWARD lives) must survive"


def test_host_environment_does_not_leak(home, guest_python, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "secret")
    result = run(
        "import os; print(sorted(os.environ)); print(os.environ.get('OPENAI_API_KEY'))",
        home,
        guest_python,
        env={"CUAGYM_SID": "s1"},
    )
    assert "secret" not in result.stdout
    assert "OPENAI_API_KEY" not in result.stdout
    assert "CUAGYM_SID" in result.stdout


def test_file_size_cap(home, guest_python):
    result = run(
        """
        try:
            with open("/home/user/big.bin", "wb") as fh:
                fh.write(b"x" * (3 << 20))
            print("WROTE")
        except OSError as exc:
            print("CAPPED", exc.errno)
    """,
        home,
        guest_python,
        limits=Limits(max_file_mb=1),
    )
    assert "WROTE" not in result.stdout
    assert (home / "big.bin").stat().st_size <= 1 << 20


def test_allowed_libraries_work_and_files_land_in_home(home, guest_python):
    result = run(
        """
        from pathlib import Path
        import openpyxl, docx, pptx, pypdf, requests, PIL.Image
        home = Path.home()
        wb = openpyxl.Workbook(); wb.active["A1"] = 42; wb.save(home / "Desktop/a.xlsx")
        d = docx.Document(); d.add_paragraph("hello"); d.save(home / "Documents/b.docx")
        p = pptx.Presentation(); p.slides.add_slide(p.slide_layouts[0]); p.save(home / "Desktop/c.pptx")
        w = pypdf.PdfWriter(); w.add_blank_page(100, 100); w.write(str(home / "Desktop/d.pdf"))
        PIL.Image.new("RGB", (4, 3), "red").save(home / "Pictures/e.png")
        print(str(home), requests.__name__)
    """,
        home,
        guest_python,
    )
    assert result.ok, result.stderr
    assert result.stdout.split() == ["/home/user", "requests"]
    import docx
    import openpyxl

    assert openpyxl.load_workbook(home / "Desktop/a.xlsx").active["A1"].value == 42
    assert docx.Document(home / "Documents/b.docx").paragraphs[0].text == "hello"
    assert (home / "Desktop/c.pptx").stat().st_size > 0 and (home / "Desktop/d.pdf").stat().st_size > 0


def test_guest_python_has_only_the_allowed_libraries(home, guest_python):
    result = run(
        """
        import importlib.util
        for name in ("numpy", "pandas", "duckdb", "prefect", "cuagym", "tasks", "infra"):
            print(name, importlib.util.find_spec(name) is not None)
    """,
        home,
        guest_python,
    )
    assert all(line.endswith("False") for line in result.stdout.splitlines()), result.stdout


def test_missing_bubblewrap_fails_with_install_hint(home, guest_python, monkeypatch):
    monkeypatch.setattr(sandbox_command.shutil, "which", lambda name: None)
    with pytest.raises(SandboxUnavailableError, match="apt-get install bubblewrap"):
        run("print(1)", home, guest_python)


def test_isolation_none_runs_on_host_with_warning(home, guest_python, caplog):
    result = run("import os; print(os.getcwd())", home, guest_python, isolation=Isolation.NONE)
    assert result.stdout.strip() == str(home)
    assert "WITHOUT isolation" in caplog.text
