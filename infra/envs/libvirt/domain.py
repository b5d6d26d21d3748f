"""The libvirt domain XML of one guest, from a `DomainSpec` (pure: no libvirt call, no file touched).

What the guest gets, and why:
- direct kernel boot (<kernel>/<initrd>/<cmdline>): no bootloader, no firmware menu to wait for;
  PID 1 is cuagym's init (infra/envs/libvirt/guest_init.py), configured by `cuagym.*` words;
- one virtio disk, the env's qcow2 overlay over the shared base image;
- a virtio-serial channel `org.cuagym.handshake` on a Unix socket libvirt creates (the token goes in
  and the server's ready line comes out there: never on the command line the host's `ps` shows);
- the serial console into a file (console.log: the boot's story, quoted when a boot fails);
- QEMU's user network, `restrict=on` (the guest reaches nothing: not the host, not the internet),
  with one forward from the host's 127.0.0.1:<host_port> to the server's port. libvirt 9.0's own
  <interface type='user'> has no port forwards for slirp (only for passt), so the NIC is passed
  to QEMU directly (<qemu:commandline>); there is no other NIC, no graphics, no USB, no balloon.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

QEMU_NS = "http://libvirt.org/schemas/domain/qemu/1.0"
CHANNEL = "org.cuagym.handshake"  # guest_init.CHANNEL
GUEST_IP = "10.0.2.15"  # guest_init.GUEST_ADDRESS: the first address of QEMU's user network
NETDEV_ID = "cuagym0"
NIC_PCI_SLOT = "0x10"  # clear of the slots libvirt assigns to its own devices

ET.register_namespace("qemu", QEMU_NS)


@dataclass(frozen=True)
class DomainSpec:
    name: str
    kernel: Path
    initrd: Path
    disk: Path
    console_log: Path
    host_port: int
    guest_port: int = 8000
    memory_mb: int = 1024
    vcpus: int = 1
    domain_type: str = "qemu"
    width: int = 1280
    height: int = 800
    start_timeout_s: float = 120.0
    init: str = "/opt/cuagym/init"

    def cmdline(self) -> str:
        words = [
            "root=/dev/vda",
            "rw",
            "rootfstype=ext4",
            "console=ttyS0",
            f"init={self.init}",
            "quiet",
            "loglevel=4",
            "panic=-1",  # a kernel panic powers off (on_crash destroy) instead of hanging
            "mitigations=off",  # nothing else runs in this guest; TCG pays dearly for them
            f"cuagym.port={self.guest_port}",
            f"cuagym.width={self.width}",
            f"cuagym.height={self.height}",
            f"cuagym.start_timeout={self.start_timeout_s:g}",
        ]
        return " ".join(words)

    def netdev(self) -> str:
        forward = f"hostfwd=tcp:127.0.0.1:{self.host_port}-{GUEST_IP}:{self.guest_port}"
        return f"user,id={NETDEV_ID},restrict=on,{forward}"


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, tag, attrs)
    if text is not None:
        element.text = text
    return element


def domain_xml(spec: DomainSpec) -> str:
    domain = ET.Element("domain", {"type": spec.domain_type})
    _sub(domain, "name", spec.name)
    _sub(domain, "memory", str(spec.memory_mb), unit="MiB")
    _sub(domain, "vcpu", str(spec.vcpus))
    os_ = _sub(domain, "os")
    _sub(os_, "type", "hvm", arch="x86_64", machine="pc")
    _sub(os_, "kernel", str(spec.kernel))
    _sub(os_, "initrd", str(spec.initrd))
    _sub(os_, "cmdline", spec.cmdline())
    features = _sub(domain, "features")
    _sub(features, "acpi")
    _sub(domain, "clock", offset="utc")
    for event in ("on_poweroff", "on_reboot", "on_crash"):
        _sub(domain, event, "destroy")
    devices = _sub(domain, "devices")
    disk = _sub(devices, "disk", type="file", device="disk")
    _sub(disk, "driver", name="qemu", type="qcow2", cache="unsafe")
    _sub(disk, "source", file=str(spec.disk))
    _sub(disk, "target", dev="vda", bus="virtio")
    serial = _sub(devices, "serial", type="file")
    # append: a revert restarts QEMU, which would otherwise truncate the boot's log
    _sub(serial, "source", path=str(spec.console_log), append="on")
    _sub(serial, "target", port="0")
    channel = _sub(devices, "channel", type="unix")
    _sub(channel, "source", mode="bind")  # libvirt picks the path (under /var/lib/libvirt/qemu/channel)
    _sub(channel, "target", type="virtio", name=CHANNEL)
    _sub(devices, "controller", type="usb", model="none")
    video = _sub(devices, "video")
    _sub(video, "model", type="none")
    _sub(devices, "memballoon", model="none")
    commandline = _sub(domain, f"{{{QEMU_NS}}}commandline")
    for arg in (
        "-netdev",
        spec.netdev(),
        "-device",
        f"virtio-net-pci,netdev={NETDEV_ID},addr={NIC_PCI_SLOT}",
    ):
        _sub(commandline, f"{{{QEMU_NS}}}arg", value=arg)
    ET.indent(domain)
    return ET.tostring(domain, encoding="unicode")


def channel_path(live_xml: str) -> Path | None:
    """The host end of the handshake channel, from a running domain's XML (libvirt fills it in)."""
    root = ET.fromstring(live_xml)
    for channel in root.iterfind("devices/channel"):
        target = channel.find("target")
        source = channel.find("source")
        if target is not None and target.get("name") == CHANNEL and source is not None and source.get("path"):
            return Path(source.get("path", ""))
    return None
