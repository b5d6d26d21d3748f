"""The libvirt provider against a real libvirtd, with QEMU under TCG booting the minimal guest.

One guest boots for the module (~20 s under TCG on a 2-core host) and every test reverts it to its
initial snapshot first, so the tests are independent and nothing boots twice. Boot and revert times
are printed (`pytest -s`) for the README, never asserted (bench/ is for timings).
"""

from __future__ import annotations

import io
import time

import pytest
from PIL import Image

from infra.envs.base import Capability, EnvRole, Snapshot
from infra.envs.desktop.actions import MoveTo
from infra.errors import EnvError
from infra.sandbox import Limits

pytestmark = pytest.mark.slow

WRITE = "from pathlib import Path\nPath('/home/user/{path}').write_text('{text}')\nprint('wrote {path}')\n"


@pytest.fixture(scope="module")
def vm_provider(vm_image, tmp_path_factory):
    import shutil
    import tempfile
    from pathlib import Path

    from infra.envs.libvirt import LibvirtProvider, VmConfig

    root = Path(tempfile.mkdtemp(prefix="cuagym-vm-"))
    root.chmod(0o711)
    provider = LibvirtProvider(root, config=VmConfig(width=1024, height=768), image=vm_image)
    yield provider
    leftovers = provider.domains()
    provider.close()
    shutil.rmtree(root, ignore_errors=True)
    assert not leftovers, f"domains left behind: {leftovers}"


@pytest.fixture(scope="module")
def guest(vm_provider):
    started = time.monotonic()
    env = vm_provider.provision("vm-test", EnvRole.DEBUG)
    print(f"\nprovision {time.monotonic() - started:.1f} s (boot {env.boot_s:.1f} s)")
    yield env
    env.close()


@pytest.fixture
def vm(guest):
    revert_s = guest.reset()
    print(f"revert to the initial snapshot {revert_s:.1f} s")
    return guest


def test_a_script_writes_the_home_and_the_state_view_shows_it(vm):
    result = vm.run_script(WRITE.format(path="Desktop/report.txt", text="q3"), name="initial_setup.py")
    assert (result.exit_code, result.stdout) == (0, "wrote Desktop/report.txt\n")
    view = vm.state_view()
    entry = view.entry("Desktop/report.txt")
    assert entry is not None and entry.kind == "file" and entry.size == 2
    assert vm.read_file("/home/user/Desktop/report.txt") == b"q3"
    # The guest user owns what its scripts write; the home holds nothing but the standard folders.
    assert {f.path for f in view.files} == {
        "Desktop",
        "Desktop/report.txt",
        "Documents",
        "Downloads",
        "Music",
        "Pictures",
        "Public",
        "Templates",
        "Videos",
        ".config",
        ".config/libreoffice",
        ".config/libreoffice/4",
        ".config/libreoffice/4/user",
        ".config/libreoffice/4/user/registrymodifications.xcu",
        ".cache",
        ".cache/openbox",
        ".cache/openbox/openbox.log",
    }


def test_restore_brings_back_the_snapshot_and_nothing_written_after_it(vm):
    vm.run_script(WRITE.format(path="first.txt", text="1"), name="a.py")
    started = time.monotonic()
    snap = vm.snapshot()
    print(f"snapshot {time.monotonic() - started:.1f} s")
    vm.run_script(WRITE.format(path="second.txt", text="2"), name="b.py")
    assert vm.state_view().entry("second.txt") is not None
    vm.restore(snap)
    print(f"restore {vm.revert_s:.1f} s")
    view = vm.state_view()
    assert view.entry("first.txt") is not None and view.entry("second.txt") is None
    vm.reset()
    assert vm.state_view().entry("first.txt") is None


def test_a_reverted_guest_keeps_the_hosts_time_not_the_snapshots(vm):
    snap = vm.snapshot()
    time.sleep(8)  # a guest whose clock came back with the snapshot would now be 8 s behind
    vm.restore(snap)
    guest_now = float(vm.client.execute(["date", "+%s.%N"], timeout_s=30).output)
    assert abs(guest_now - time.time()) < 4


def test_scripts_see_their_environment_exit_codes_and_timeouts(vm):
    result = vm.run_script(
        "import os, sys\nprint(os.environ['CUAGYM_X'], os.getuid(), os.getcwd())\nsys.exit(3)\n",
        name="reward.py",
        env={"CUAGYM_X": "forty-two"},
    )
    assert result.exit_code == 3 and result.stdout.split() == ["forty-two", "1000", "/home/user"]
    slow = vm.run_script("import time\ntime.sleep(60)\n", name="slow.py", limits=Limits(timeout_s=2))
    assert slow.timed_out
    # Each script ran alone in its folder, removed afterwards.
    listing = vm.client.execute(["ls", "-A", "/opt/cuagym/scripts"], timeout_s=30)
    assert listing.output == ""


def test_screenshot_is_a_png_of_the_configured_size_and_the_pointer_moves(vm):
    png = vm.screenshot()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert Image.open(io.BytesIO(png)).size == (1024, 768) == vm.screen_size()
    vm.gui_input(MoveTo(x=300, y=200))
    assert vm.cursor_position() == (300, 200)
    assert {Capability.SNAPSHOT, Capability.SCREENSHOT, Capability.GUI_INPUT} <= vm.capabilities


def test_reading_outside_the_home_or_through_a_symlink_is_refused(vm):
    vm.run_script("import os\nos.symlink('/etc/passwd', '/home/user/link')\n", name="link.py")
    with pytest.raises(EnvError, match="symlinks are not followed"):
        vm.read_file("link")
    with pytest.raises(EnvError, match="outside"):
        vm.read_file("/etc/passwd")
    with pytest.raises(EnvError, match="no file"):
        vm.read_file("Desktop/none.txt")
    assert vm.state_view().entry("link").target == "/etc/passwd"


def test_a_snapshot_of_another_env_is_refused(vm):
    with pytest.raises(EnvError, match="belongs to env"):
        vm.restore(Snapshot(env_id="someone-else", ref="s1"))


def test_provision_from_a_home_folder_then_close_leaves_nothing(vm_provider, tmp_path):
    home = tmp_path / "home"
    (home / "Documents").mkdir(parents=True)
    (home / "Documents/notes.md").write_text("# from the host\n")
    (home / "latest").symlink_to("Documents/notes.md")
    env = vm_provider.provision("vm-test", EnvRole.INITIAL, from_snapshot=Snapshot(env_id="x", ref=str(home)))
    try:
        assert env.read_file("Documents/notes.md") == b"# from the host\n"
        assert env.state_view().entry("latest").target == "Documents/notes.md"
        env.run_script(WRITE.format(path="Documents/extra.md", text="x"), name="s.py")
        env.reset()  # the initial state is the loaded home
        assert env.state_view().entry("Documents/extra.md") is None
        assert env.read_file("Documents/notes.md") == b"# from the host\n"
    finally:
        env.close()
    assert env.domain_name not in vm_provider.domains()
    assert not env.disk.exists() and not env.root.exists()


def test_a_guest_that_cannot_boot_in_time_says_why_and_is_removed(vm_image, vm_root):
    from infra.envs.libvirt import LibvirtProvider, VmConfig, VmStartError

    provider = LibvirtProvider(vm_root, config=VmConfig(boot_timeout_s=2), image=vm_image)
    before = provider.domains()  # the module's guest may be running
    try:
        with pytest.raises(VmStartError, match="no ready line within 2 s") as err:
            provider.provision("vm-test", EnvRole.DEBUG)
        assert "console ends with" in str(err.value) and "CUAGYM_VM_BOOT_TIMEOUT_S" in err.value.hint
        assert provider.domains() == before
        assert not any(vm_root.rglob("*.qcow2"))
    finally:
        provider.close()
