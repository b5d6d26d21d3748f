"""The libvirt provider short of booting: its domain XML, disks made with the real tools, the server's
TCP mode and the client over TCP, the guest-side tools against infra/envs/home.py's rules, the image
bookkeeping, and (where libvirtd runs) libvirt accepting the XML."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from infra.envs.desktop.client import DesktopClient
from infra.envs.home import walk_state
from infra.envs.libvirt import domain as dom
from infra.envs.libvirt import guest_init, guest_tools, image
from infra.errors import DesktopError
from infra.images.disk import backing_file, create_overlay, make_ext4, to_qcow2
from infra.settings import PROJECT_ROOT

TOKEN = "t" * 32


def _spec(tmp_path: Path, **overrides) -> dom.DomainSpec:
    fields = dict(
        name="cuagym-unit",
        kernel=tmp_path / "vmlinuz",
        initrd=tmp_path / "initrd.img",
        disk=tmp_path / "disk.qcow2",
        console_log=tmp_path / "console.log",
        host_port=45678,
        memory_mb=768,
        vcpus=2,
    )
    return dom.DomainSpec(**{**fields, **overrides})


def test_domain_xml_boots_the_kernel_over_the_overlay_with_one_loopback_forward(tmp_path):
    spec = _spec(tmp_path)
    root = ET.fromstring(dom.domain_xml(spec))
    assert root.get("type") == "qemu"  # TCG: this host has no usable KVM
    assert root.findtext("memory") == "768" and root.find("memory").get("unit") == "MiB"
    assert root.findtext("vcpu") == "2"
    assert root.findtext("os/kernel") == str(tmp_path / "vmlinuz")
    assert root.findtext("os/initrd") == str(tmp_path / "initrd.img")
    cmdline = root.findtext("os/cmdline").split()
    assert "init=/opt/cuagym/init" in cmdline and "root=/dev/vda" in cmdline and "console=ttyS0" in cmdline
    assert TOKEN not in " ".join(cmdline)
    disks = root.findall("devices/disk")
    assert len(disks) == 1
    assert disks[0].find("source").get("file") == str(spec.disk)
    assert disks[0].find("driver").get("type") == "qcow2"
    channel = root.find("devices/channel")
    assert channel.get("type") == "unix" and channel.find("target").get("name") == guest_init.CHANNEL
    serial = root.find("devices/serial")
    assert serial.get("type") == "file" and serial.find("source").get("path") == str(spec.console_log)
    # No libvirt network at all, no display: the only NIC is the user-mode one passed to QEMU.
    assert root.findall("devices/interface") == [] and root.findall("devices/graphics") == []
    args = [a.get("value") for a in root.iterfind(f"{{{dom.QEMU_NS}}}commandline/{{{dom.QEMU_NS}}}arg")]
    assert args.count("-netdev") == 1 and args.count("-device") == 1
    netdev = args[args.index("-netdev") + 1].split(",")
    assert netdev[0] == "user" and "restrict=on" in netdev
    assert [p for p in netdev if p.startswith("hostfwd=")] == ["hostfwd=tcp:127.0.0.1:45678-10.0.2.15:8000"]
    assert args[args.index("-device") + 1].startswith(f"virtio-net-pci,netdev={dom.NETDEV_ID}")


def test_the_init_reads_the_settings_the_domain_puts_on_the_command_line(tmp_path):
    spec = _spec(tmp_path, guest_port=8123, width=1024, height=768, start_timeout_s=90)
    assert guest_init.settings(spec.cmdline()) == {
        "port": "8123",
        "width": "1024",
        "height": "768",
        "start_timeout": "90",
    }
    assert dom.CHANNEL == guest_init.CHANNEL and guest_init.GUEST_ADDRESS.startswith(dom.GUEST_IP + "/")
    assert spec.init == image.GUEST_INIT


def test_channel_path_is_read_from_the_live_xml():
    live = f"""<domain><devices>
      <channel type='unix'><source mode='bind' path='/var/lib/libvirt/qemu/channel/target/d/x'/>
        <target type='virtio' name='org.qemu.guest_agent.0'/></channel>
      <channel type='unix'><source mode='bind' path='/var/lib/libvirt/qemu/channel/target/d/h'/>
        <target type='virtio' name='{dom.CHANNEL}' state='connected'/></channel>
    </devices></domain>"""
    assert dom.channel_path(live) == Path("/var/lib/libvirt/qemu/channel/target/d/h")
    assert dom.channel_path("<domain><devices/></domain>") is None


def test_a_folder_becomes_an_ext4_qcow2_and_an_overlay_records_its_backing_file(tmp_path):
    tree = tmp_path / "tree"
    (tree / "etc").mkdir(parents=True)
    (tree / "etc/hello").write_text("hello from the image\n")
    raw = make_ext4(tree, tmp_path / "disk.raw", free_mb=8)
    base = to_qcow2(raw, tmp_path / "base.qcow2")
    overlay = create_overlay(base, tmp_path / "env.qcow2")
    assert backing_file(overlay) == base.resolve()
    assert backing_file(base) is None
    # The file system holds the tree (read back with e2fsprogs' debugfs, no mount needed).
    cat = subprocess.run(["debugfs", "-R", "cat /etc/hello", str(raw)], capture_output=True, text=True)
    assert cat.stdout == "hello from the image\n"
    assert overlay.stat().st_size < 1024 * 1024  # copy-on-write: nothing copied from the base


def test_the_server_serves_over_tcp_and_the_client_speaks_it(tmp_path):
    # The real entry point with the X session stubbed out (the session is the desktop tests' subject).
    boot = (
        "import sys; from infra.desktop_server import __main__ as m, session; "
        "session.Session.start = lambda self: None; sys.exit(m.main())"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", boot, "--tcp", "127.0.0.1:0", "--no-accessibility"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=PROJECT_ROOT,
    )
    try:
        proc.stdin.write(TOKEN.encode() + b"\n")
        proc.stdin.flush()
        ready = json.loads(proc.stdout.readline())
        assert ready["ready"] is True and "socket" not in ready
        host, port = ready["tcp"].rsplit(":", 1)
        assert host == "127.0.0.1" and int(port) > 0
        client = DesktopClient.over_tcp(host, int(port), TOKEN)
        assert client.health()["accessibility"] is False
        result = client.execute(["sh", "-c", "echo over tcp"], timeout_s=30)
        assert (result.returncode, result.output) == (0, "over tcp\n")
        with pytest.raises(DesktopError, match="401"):
            DesktopClient.over_tcp(host, int(port), "wrong" * 8).health()
        client.close()
    finally:
        proc.stdin.close()  # EOF on stdin ends the server, as in the sandbox protocol
        assert proc.wait(timeout=30) == 0


def test_the_server_wants_exactly_one_place_to_serve():
    from infra.desktop_server.__main__ import _parse

    assert _parse(["--tcp", "0.0.0.0:8000"]).tcp == ("0.0.0.0", 8000)
    assert _parse(["--socket", "/run/x.sock"]).tcp is None
    for argv in ([], ["--socket", "/s", "--tcp", "h:1"], ["--tcp", "nohost"], ["--tcp", "h:99999"]):
        with pytest.raises(SystemExit):
            _parse(argv)


def test_a_closed_client_names_its_tcp_address():
    client = DesktopClient.over_tcp("127.0.0.1", 9, TOKEN)  # port 9 (discard): nothing listens
    with pytest.raises(DesktopError, match="127.0.0.1:9"):
        client.health()
    with pytest.raises(ValueError):
        DesktopClient(None, TOKEN)


def _tricky_home(home: Path) -> None:
    (home / "Desktop/sub").mkdir(parents=True)
    (home / "Desktop/a.txt").write_text("alpha")
    (home / "Desktop/sub/b.bin").write_bytes(bytes(range(256)))
    (home / "link-out").symlink_to("/etc/passwd")
    (home / "link-in").symlink_to("Desktop/a.txt")
    os.mkfifo(home / "pipe")
    (home / "secret").write_text("x")
    (home / "secret").chmod(0o600)


def test_the_guest_walk_lists_what_the_host_walk_lists(tmp_path):
    home = tmp_path / "home"
    _tricky_home(home)
    host, host_truncated = walk_state(home)
    guest, guest_truncated = guest_tools.walk(str(home), 20_000)
    assert [e.model_dump(exclude_defaults=False) for e in host] == [
        {"size": 0, "mode": "0644", "sha256": None, "unhashed": None, "target": None, **g} for g in guest
    ]
    assert host_truncated is guest_truncated is False
    assert guest_tools.walk(str(home), 3)[1] is True


def test_the_guest_reader_follows_no_symlink_and_opens_no_fifo(tmp_path, capsys):
    home = tmp_path / "home"
    _tricky_home(home)
    assert guest_tools.read(str(home), "Desktop/a.txt", 100) == (0, "")
    assert capsys.readouterr().out == "YWxwaGE="  # base64 of "alpha"
    assert guest_tools.read(str(home), "missing.txt", 100)[0] == guest_tools.MISSING
    assert guest_tools.read(str(home), "link-out", 100)[0] == guest_tools.UNREADABLE
    assert guest_tools.read(str(home), "pipe", 100)[0] == guest_tools.UNREADABLE
    assert guest_tools.read(str(home), "Desktop/sub/b.bin", 10)[0] == guest_tools.TOO_LARGE


def test_a_home_archive_unpacks_over_the_guest_home(tmp_path):
    import tarfile

    from infra.envs.libvirt.env import _portable

    source = tmp_path / "source"
    _tricky_home(source)
    archive = tmp_path / "home.tar"
    with tarfile.open(archive, "w") as tar:
        for child in sorted(source.iterdir()):
            tar.add(child, arcname=child.name, filter=_portable)
    target = tmp_path / "target"
    (target / "Documents").mkdir(parents=True)
    (target / "old.txt").write_text("gone after unpack")
    guest_tools.unpack(str(target), str(archive))
    assert not archive.exists()
    strip = [e.model_dump(exclude={"mode"}) for e in walk_state(source)[0]]
    assert [e.model_dump(exclude={"mode"}) for e in walk_state(target)[0]] == strip


def test_the_image_digest_follows_its_sources_and_a_missing_image_says_how_to_build(tmp_path, monkeypatch):
    before = image.image_digest()
    init = tmp_path / "guest_init.py"
    init.write_text(image.INIT_SOURCE.read_text() + "\n# changed\n")
    monkeypatch.setattr(image, "INIT_SOURCE", init)
    assert image.image_digest() != before
    with pytest.raises(image.VmImageMissingError, match="none is built") as err:
        image.require_image(tmp_path / "images")
    assert "cuagym vm image" in err.value.hint


def test_packages_the_guest_image_lists_exist_for_the_server():
    packages = image.guest_packages()
    assert "linux-image-amd64" in packages and "python3" in packages
    assert not {"libreoffice-calc", "chromium"} & set(packages)  # too slow under TCG


def test_libvirt_accepts_the_domain_and_forgets_it_again(tmp_path, libvirtd):
    from infra.envs.libvirt.connection import connect

    conn = connect(libvirtd)
    try:
        defined = conn.defineXML(dom.domain_xml(_spec(tmp_path, name="cuagym-unit-define")))
        try:
            live = ET.fromstring(defined.XMLDesc(0))
            assert live.get("type") == "qemu" and not defined.isActive()
            assert live.findtext("os/kernel") == str(tmp_path / "vmlinuz")
        finally:
            defined.undefine()
        assert "cuagym-unit-define" not in [d.name() for d in conn.listAllDomains(0)]
    finally:
        conn.close()


def test_no_libvirtd_is_an_error_that_says_how_to_start_one():
    pytest.importorskip("libvirt")
    from infra.envs.libvirt.connection import LibvirtUnavailableError, connect

    with pytest.raises(LibvirtUnavailableError, match="cannot connect") as err:
        connect("qemu:///system?socket=/nonexistent/libvirt-sock")
    assert "libvirtd" in err.value.hint


def test_folders_above_a_guests_files_are_opened_to_qemu_for_search_only(tmp_path):
    from infra.envs.libvirt.provider import open_to_qemu

    closed = tmp_path / "clone"  # a checkout under a 0700 folder, as a mktemp or a home is
    (closed / "var" / "images").mkdir(parents=True)
    closed.chmod(0o700)
    (closed / "var").chmod(0o755)
    target = closed / "var" / "images"
    changed = open_to_qemu(target)
    assert closed in changed and (closed / "var") not in changed
    assert stat.S_IMODE(closed.stat().st_mode) == 0o701  # search, not read: nothing becomes listable
    assert all(os.stat(p).st_mode & 0o001 for p in [target, *target.parents])
    assert open_to_qemu(target) == []  # nothing left to change
