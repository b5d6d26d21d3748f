"""Host-side handling of an env's home (infra/envs/home.py) when a script has made it hostile:
special files, symlinks swapped in while the host reads, and scripts that look for each other."""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path

import pytest

from infra.envs.base import EnvRole
from infra.envs.home import copy_home, read_home_file, walk_state
from infra.errors import EnvError

SPECIALS = """
import os, socket
os.mkfifo("/home/user/Desktop/pipe")
s = socket.socket(socket.AF_UNIX); s.bind("/home/user/Desktop/sock")
open("/home/user/Desktop/note.txt", "w").write("kept")
"""


def test_fifos_and_sockets_are_state_entries_and_snapshots_survive_them(provider):
    with provider.provision("t1", EnvRole.ROLLOUT) as env:
        assert env.run_script(SPECIALS, name="s.py").ok
        view = env.state_view()  # must not open (and block on) the FIFO
        assert view.entry("Desktop/pipe").kind == "other" and view.entry("Desktop/pipe").target == "fifo"
        assert view.entry("Desktop/sock").kind == "other" and view.entry("Desktop/sock").target == "socket"
        snap = env.snapshot()
        env.run_script("import os; os.remove('/home/user/Desktop/note.txt')", name="rm.py")
        env.restore(snap)
        assert env.read_file("Desktop/note.txt") == b"kept"
        assert env.state_view().entry("Desktop/pipe").target == "fifo"  # re-created, still not opened
        with pytest.raises(EnvError, match="not a regular file"):
            env.read_file("Desktop/pipe")


def test_copy_home_recreates_fifos_and_leaves_sockets_out(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    os.mkfifo(src / "pipe")
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(src / "sock"))
        copy_home(src, tmp_path / "dst")
    kinds = {e.path: e.target for e in walk_state(tmp_path / "dst")[0]}
    assert kinds == {"pipe": "fifo"}


def test_a_directory_swapped_for_a_symlink_never_leads_out_of_the_home(tmp_path):
    home, outside = tmp_path / "home", tmp_path / "outside"
    (home / "docs").mkdir(parents=True)
    outside.mkdir()
    (home / "docs" / "a.txt").write_text("inside")
    (outside / "a.txt").write_text("SECRET")
    stop = threading.Event()

    def swap() -> None:  # what a script in the sandbox could do while the host reads
        while not stop.is_set():
            os.rename(home / "docs", home / "real")
            os.symlink(outside, home / "docs")
            os.remove(home / "docs")
            os.rename(home / "real", home / "docs")

    swapper = threading.Thread(target=swap)
    swapper.start()
    reads = []
    # At least 3,000 reads, and on until one has landed between swaps (on a loaded machine the
    # scheduler can keep the two threads in step for a while), for at most 30 s.
    deadline = time.monotonic() + 30
    try:
        while len(reads) < 3000 or (b"inside" not in reads and time.monotonic() < deadline):
            try:
                reads.append(read_home_file(home, "/home/user/docs/a.txt", max_bytes=100))
            except EnvError:
                reads.append(None)
    finally:
        stop.set()
        swapper.join()
    assert b"SECRET" not in reads
    assert b"inside" in reads  # the race was really run: some reads landed between swaps


def test_each_script_sees_only_itself(provider):
    probe = "import os; print(sorted(os.listdir('/opt/cuagym/scripts')))"
    with provider.provision("t1", EnvRole.GOLDEN) as env:
        env.run_script("print('setup')", name="initial_setup.py")
        env.run_script("print('patch')", name="golden_patch.py")
        result = env.run_script(probe, name="reward.py")
        assert result.stdout.strip() == "['reward.py']"
        assert not any(Path(env.root).rglob("golden_patch.py")), "staged scripts are removed after their run"
