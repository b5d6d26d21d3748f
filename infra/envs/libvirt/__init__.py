"""The `libvirt` env provider: each env a QEMU guest run by libvirt, reset by reverting a snapshot.

A guest boots Debian's kernel straight from a base image built here (infra/envs/libvirt/image.py:
bookworm with a minimal X session, the desktop venv and the in-guest server), over its own qcow2
overlay (`<root>/<task>/<env id>/disk.qcow2`). Its init (guest_init.py) starts the same in-guest
server the `desktop` provider runs, on a TCP port that QEMU's user network forwards to the host's
127.0.0.1 (the guest's only network: `restrict=on`, it reaches nothing itself); the host hands over
the token and reads the ready line through a virtio-serial channel (domain.py). The env then
drives the guest as `desktop` does, through `DesktopClient` over that port: scripts run through
/execute, the state view and file reads are small stdlib scripts run in the guest (guest_tools.py,
the rules of infra/envs/home.py), screenshots and xdotool input through the server.

Right after boot the provider snapshots the running guest (disk and memory) as its initial state;
`reset()`/`restore()` revert to a snapshot, so nothing boots again. `close()` destroys and undefines
the domain with its snapshots and deletes the overlay.

Needs: a libvirtd (`qemu:///system` by default; `ensure_libvirtd()` starts one where there is no
systemd), the guest image (`cuagym vm image`), and root for building that image. Settings are
`VmConfig` (`CUAGYM_VM_*`). Under TCG (no KVM) a boot takes ~20 s and a revert a few seconds
(docs/desktops.md, "VM guests (libvirt)").

Example:
    >>> provider = LibvirtProvider()                      # var/vms, var/images, qemu:///system
    >>> with provider.provision("t1", EnvRole.INITIAL) as env:
    ...     env.run_script("open('/home/user/a.txt', 'w').write('hi')", name="setup.py")
    ...     start = env.snapshot()
    ...     env.restore(start)
    ...     png = env.screenshot()
"""

from infra.envs.libvirt.config import VmConfig
from infra.envs.libvirt.connection import LibvirtUnavailableError, ensure_libvirtd, stop_daemons
from infra.envs.libvirt.env import LibvirtEnv, VmStartError
from infra.envs.libvirt.image import VmImage, VmImageMissingError, build_image, require_image
from infra.envs.libvirt.provider import LibvirtProvider

__all__ = [
    "LibvirtEnv",
    "LibvirtProvider",
    "LibvirtUnavailableError",
    "VmConfig",
    "VmImage",
    "VmImageMissingError",
    "VmStartError",
    "build_image",
    "ensure_libvirtd",
    "require_image",
    "stop_daemons",
]
