"""Red team, round 3: what a hostile script leaves behind, and what it tries inside the sandbox.

cuagym and CI run as root, and the uid inside the sandbox maps to host root: a file a script makes
is root's on the host. These tests reproduce each attack of the issue through the real sandbox (real
bwrap, real kernel) and check the wall that now stops it.
"""

from __future__ import annotations

import os
import platform
import shutil
import stat
import subprocess
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from infra.envs.base import EnvRole, StateView
from infra.envs.home import MAX_HASH_BYTES, copy_home, walk_state
from infra.errors import EnvError
from infra.sandbox import Limits, run_in_sandbox
from infra.sandbox.tree import MAX_DEPTH, strip_privileges

SETID = stat.S_ISUID | stat.S_ISGID
x86_64 = pytest.mark.skipif(platform.machine() != "x86_64", reason="raw x86_64 syscall numbers")


def run(code: str, home: Path, guest: Path, **kw):
    return run_in_sandbox(["python3", "-c", textwrap.dedent(code)], home=home, guest_python=guest, **kw)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "env" / "home"


def setid_paths(root: Path) -> list[str]:
    found = []
    for base, dirs, files in os.walk(root):
        for name in dirs + files:
            mode = os.lstat(os.path.join(base, name)).st_mode
            if mode & SETID or stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
                found.append(os.path.relpath(os.path.join(base, name), root))
    return found


def as_nobody(binary: Path) -> subprocess.CompletedProcess:
    """Run `binary` (a python3) as uid 65534 and report its euid and whether /etc/shadow opened."""
    probe = "import os\ntry:\n open('/etc/shadow').read(1); print('SHADOW')\nexcept OSError: pass\nprint(os.geteuid())"
    return subprocess.run(
        ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", str(binary), "-c", probe],
        capture_output=True,
        text=True,
        timeout=30,
    )


# --- item 1: setuid escape -------------------------------------------------------------------


def test_script_cannot_make_a_setuid_root_binary(home, guest_python, tmp_path):
    # The attack: copy python3 into the home, chmod 4755; on the host it would be setuid root.
    result = run(
        """
        import os, shutil
        shutil.copy("/usr/bin/python3", "py")
        for label, call in [
            ("chmod", lambda: os.chmod("py", 0o4755)),
            ("chmod-g", lambda: os.chmod("py", 0o2755)),
            ("fchmod", lambda: os.fchmod(os.open("py", os.O_RDONLY), 0o6755)),
            ("creat", lambda: os.open("made", os.O_CREAT | os.O_WRONLY, 0o4755)),
            ("mkdir", lambda: os.mkdir("d", 0o2775)),
        ]:
            try:
                call()
                print(label, "ALLOWED")
            except PermissionError:
                print(label, "EPERM")
        os.chmod("py", 0o755)  # an ordinary mode still works
        print("plain", oct(os.stat("py").st_mode & 0o7777))
        """,
        home,
        guest_python,
    )
    assert result.ok, result.stderr
    lines = result.stdout.split("\n")
    assert [line for line in lines if line.endswith("EPERM")] == [
        "chmod EPERM",
        "chmod-g EPERM",
        "fchmod EPERM",
        "creat EPERM",
        "mkdir EPERM",
    ], result.stdout
    assert "plain 0o755" in lines
    assert setid_paths(home) == []
    # The file as the host sees it, run by another user, is no way to root.
    exposed = tmp_path / "open" / "py"
    exposed.parent.mkdir(mode=0o755)
    shutil.copy2(home / "py", exposed)
    probe = as_nobody(exposed)
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.split() == ["65534"]


def test_setuid_bits_and_devices_left_in_a_home_are_stripped_after_a_run(home, guest_python):
    # Defence behind the filter: whatever got a setuid bit or a device node in (a host-side
    # writer, an older run) does not survive the next run.
    home.mkdir(parents=True)
    shutil.copy("/usr/bin/python3", home / "py")
    (home / "py").chmod(0o4755)
    (home / "shared").mkdir()
    (home / "shared").chmod(0o3777)  # setgid + sticky folder
    os.mknod(home / "mem", stat.S_IFCHR | 0o666, os.makedev(1, 1))
    result = run("print('ok')", home, guest_python)
    assert result.ok, result.stderr
    assert setid_paths(home) == []
    assert stat.S_IMODE((home / "py").stat().st_mode) == 0o755
    assert stat.S_IMODE((home / "shared").stat().st_mode) == 0o1777  # sticky stays on folders
    assert not (home / "mem").exists()


def test_copies_strip_setuid_bits_devices_and_xattrs(tmp_path):
    src = tmp_path / "src"
    (src / "d").mkdir(parents=True)
    shutil.copy("/usr/bin/python3", src / "d" / "py")
    (src / "d" / "py").chmod(0o6755)
    (src / "d").chmod(0o2755)
    (src / "t").write_text("x")
    (src / "t").chmod(0o1644)
    os.mknod(src / "null", stat.S_IFCHR | 0o666, os.makedev(1, 3))
    os.setxattr(src / "t", "user.cuagym", b"1")
    copy_home(src, tmp_path / "dst")
    dst = tmp_path / "dst"
    assert setid_paths(dst) == []
    assert stat.S_IMODE((dst / "d" / "py").stat().st_mode) == 0o755
    assert stat.S_IMODE((dst / "d").stat().st_mode) == 0o755
    assert stat.S_IMODE((dst / "t").stat().st_mode) == 0o644
    assert not (dst / "null").exists()
    assert os.listxattr(dst / "t") == []
    assert stat.S_IMODE(dst.stat().st_mode) == 0o700


def test_strip_privileges_reports_what_it_changed(tmp_path):
    (tmp_path / "a").write_text("x")
    (tmp_path / "a").chmod(0o4755)
    (tmp_path / "b").write_text("y")
    assert strip_privileges(tmp_path) == ["a"]
    assert strip_privileges(tmp_path) == []


def test_homes_and_work_folders_are_private(home, guest_python, provider):
    assert run("print(1)", home, guest_python).ok
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    env = provider.provision("t-private", EnvRole.INITIAL)
    try:
        assert stat.S_IMODE(provider.root.stat().st_mode) == 0o700
        assert stat.S_IMODE(env.home.stat().st_mode) == 0o700
        snapshot = env.snapshot()
        assert stat.S_IMODE(Path(snapshot.ref).stat().st_mode) == 0o700
    finally:
        env.close()


def test_env_run_home_is_private_and_its_parent_untouched(tmp_path, isolated_settings):
    from flows.cli.env import env as env_cli

    parent = tmp_path / "mine"
    parent.mkdir()
    script = tmp_path / "s.py"
    script.write_text("import os; open('/home/user/out.txt', 'w').write('hi')\n")
    result = CliRunner().invoke(env_cli, ["run", str(script), "--home", str(parent / "h")])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in parent.iterdir()) == ["h"]  # no .sandbox-identity beside it
    assert stat.S_IMODE((parent / "h").stat().st_mode) == 0o700
    assert (parent / "h" / "out.txt").read_text() == "hi"
    assert stat.S_IMODE(isolated_settings.var_dir.stat().st_mode) == 0o700


# --- item 3: sparse files ---------------------------------------------------------------------

SPARSE = """
with open("/home/user/{name}", "wb") as fh:
    fh.seek(256 * 1024 * 1024 - 1)
    fh.write(b"x")
"""


def test_sparse_files_stay_sparse_in_copies(provider):
    env = provider.provision("t-sparse", EnvRole.INITIAL)
    try:
        for name in ("a.bin", "b.bin"):
            assert env.run_script(SPARSE.format(name=name), name="w.py").ok
        snapshot = env.snapshot()
        for name in ("a.bin", "b.bin"):
            st = (Path(snapshot.ref) / name).stat()
            assert st.st_size == 256 * 1024 * 1024
            assert st.st_blocks * 512 <= 1024 * 1024, st.st_blocks  # holes kept (dense: 256 MB)
        assert (Path(snapshot.ref) / "a.bin").read_bytes()[-1:] == b"x"
        env.restore(snapshot)
        assert (env.home / "a.bin").stat().st_blocks * 512 <= 1024 * 1024
    finally:
        env.close()


def test_state_view_does_not_hash_past_the_cap(tmp_path):
    (tmp_path / "big.bin").touch()
    os.truncate(tmp_path / "big.bin", MAX_HASH_BYTES + 1)
    (tmp_path / "small.txt").write_text("s")
    entries = {e.path: e for e in walk_state(tmp_path)[0]}
    assert entries["big.bin"].sha256 is None
    assert "hash cap" in entries["big.bin"].unhashed
    assert entries["big.bin"].size == MAX_HASH_BYTES + 1
    assert entries["small.txt"].sha256 is not None and entries["small.txt"].unhashed is None


def test_home_quota_counts_apparent_size(home, guest_python):
    # 8 blocks on disk, 256 MB to every reader: over a 64 MB home cap.
    result = run(SPARSE.format(name="big.bin"), home, guest_python, limits=Limits(max_home_mb=64))
    assert result.killed_for_disk, (result.exit_code, result.stderr)


def test_home_quota_counts_a_tree_too_deep_to_measure(home, guest_python):
    # Past the walk's depth nothing could be measured: a script must not hide data down there.
    result = run(
        f"""
        import os
        for _ in range({MAX_DEPTH + 5}):
            os.mkdir("d")
            os.chdir("d")
        """,
        home,
        guest_python,
    )
    assert result.killed_for_disk, (result.exit_code, result.stderr)
    assert "deeper than" in result.stderr


def test_state_diff_sees_a_change_of_an_unhashed_file(tmp_path):
    big = tmp_path / "big.bin"
    big.touch()
    os.truncate(big, MAX_HASH_BYTES + 1)
    before = StateView(env_id="e", role=EnvRole.INITIAL, files=walk_state(tmp_path)[0])
    os.truncate(big, MAX_HASH_BYTES + 2)
    after = StateView(env_id="e", role=EnvRole.INITIAL, files=walk_state(tmp_path)[0])
    assert "modified: big.bin" in after.changes_since(before)


# --- item 2 (walk_state part): trees deeper than PATH_MAX --------------------------------------


def make_deep_tree(root: Path, depth: int) -> str:
    """`depth` nested folders of 9-character names (past PATH_MAX at 500), a file at the bottom."""
    root.mkdir(parents=True, exist_ok=True)
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(depth):
        os.mkdir("deepdir00", dir_fd=fd)
        nxt = os.open("deepdir00", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = nxt
    bottom = os.open("bottom.txt", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
    os.write(bottom, b"deep")
    os.close(bottom)
    os.close(fd)
    return "/".join(["deepdir00"] * depth + ["bottom.txt"])


def test_state_view_lists_a_500_level_tree(tmp_path):
    bottom = make_deep_tree(tmp_path / "home", 500)
    assert len(str(tmp_path / "home" / bottom)) > 4096  # past PATH_MAX
    entries, truncated = walk_state(tmp_path / "home")
    assert not truncated
    assert len(entries) == 501
    assert entries[-1].path == bottom and entries[-1].sha256 is not None


def test_copy_home_copies_a_500_level_tree(tmp_path):
    bottom = make_deep_tree(tmp_path / "home", 500)
    copy_home(tmp_path / "home", tmp_path / "copy")
    entries, truncated = walk_state(tmp_path / "copy")
    assert not truncated
    assert any(e.path == bottom for e in entries)


def test_too_deep_tree_is_reported_not_dropped(tmp_path):
    make_deep_tree(tmp_path / "home", MAX_DEPTH + 5)
    entries, truncated = walk_state(tmp_path / "home")
    assert truncated
    with pytest.raises(EnvError, match=f"deeper than {MAX_DEPTH} levels"):
        copy_home(tmp_path / "home", tmp_path / "copy")


def test_script_made_deep_tree_is_listed(home, guest_python):
    # The attack as a script runs it: chdir down 500 levels (each mkdir path is short).
    result = run(
        """
        import os
        for _ in range(500):
            os.mkdir("deepdir00")
            os.chdir("deepdir00")
        open("bottom.txt", "w").write("deep")
        """,
        home,
        guest_python,
    )
    assert result.ok, result.stderr
    entries, truncated = walk_state(home)
    assert not truncated
    assert any(e.path.endswith("/bottom.txt") and e.path.count("/") == 500 for e in entries)


# --- item 8: seccomp ----------------------------------------------------------------------------


@x86_64
def test_io_uring_and_other_kernel_surfaces_are_refused(home, guest_python):
    result = run(
        """
        import ctypes, os
        libc = ctypes.CDLL(None, use_errno=True)
        for name, nr in [("io_uring_setup", 425), ("bpf", 321), ("perf_event_open", 298),
                         ("userfaultfd", 323), ("keyctl", 250), ("add_key", 248), ("kexec_load", 246),
                         ("process_vm_readv", 310), ("open_by_handle_at", 304)]:
            rc = libc.syscall(nr, 0, 0, 0, 0, 0)
            print(name, rc, os.strerror(ctypes.get_errno()) if rc < 0 else "")
        """,
        home,
        guest_python,
    )
    assert result.ok, result.stderr
    for line in result.stdout.splitlines():
        assert line.split(" ", 2)[1:] == ["-1", "Operation not permitted"], result.stdout


def test_ptrace_of_the_sandbox_init_fails_fast(home, guest_python):
    # Before the filter, PTRACE_ATTACH stopped the sandbox's pid 1 and the run hung to its timeout.
    result = run(
        """
        import ctypes, os
        libc = ctypes.CDLL(None, use_errno=True)
        rc = libc.ptrace(16, 1, None, None)  # PTRACE_ATTACH
        print(rc, os.strerror(ctypes.get_errno()))
        """,
        home,
        guest_python,
        limits=Limits(timeout_s=30),
    )
    assert not result.timed_out
    assert result.stdout.strip() == "-1 Operation not permitted", result.stdout + result.stderr


@x86_64
def test_foreign_abi_syscalls_kill_the_process(home, guest_python):
    result = run(
        """
        import ctypes
        ctypes.CDLL(None).syscall(0x40000000 | 39)  # x32 getpid: not in the filter's table
        print("survived")
        """,
        home,
        guest_python,
    )
    assert "survived" not in result.stdout
    assert result.exit_code == 128 + 31, (result.exit_code, result.stderr)  # SIGSYS


# --- item 8: files readable by others -----------------------------------------------------------


def test_warehouse_files_are_owner_only(tmp_path):
    from warehouse.store import Warehouse

    wh = Warehouse(tmp_path / "w" / "warehouse.duckdb")
    snapshot = wh.refresh_snapshot(force=True)
    assert stat.S_IMODE((tmp_path / "w" / "warehouse.duckdb").stat().st_mode) == 0o600
    assert stat.S_IMODE(snapshot.stat().st_mode) == 0o600


def test_prefect_home_and_database_are_owner_only(tmp_path, monkeypatch, isolated_settings):
    from infra.library_env import apply_library_defaults

    prefect_home = isolated_settings.var_dir / "prefect"
    prefect_home.mkdir(parents=True, mode=0o755)
    (prefect_home / "prefect.db").write_bytes(b"")
    (prefect_home / "prefect.db").chmod(0o644)
    isolated_settings.var_dir.chmod(0o755)
    monkeypatch.setenv("PREFECT_HOME", str(prefect_home))
    apply_library_defaults()
    assert stat.S_IMODE(isolated_settings.var_dir.stat().st_mode) == 0o700
    assert stat.S_IMODE(prefect_home.stat().st_mode) == 0o700
    assert stat.S_IMODE((prefect_home / "prefect.db").stat().st_mode) == 0o600
