"""The libvirt provider's lifecycle under this host's QEMU (TCG where there is no KVM): image check,
boot to the server's ready line, a snapshot, reverts, a screenshot, close. Needs root, a built
image (`make vm-image`) and libvirtd (started for the run when none is up).

    .venv/bin/python bench/vm_lifecycle.py [REVERTS]
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from infra.envs.base import EnvRole
from infra.envs.libvirt import LibvirtProvider, VmConfig, ensure_libvirtd, require_image, stop_daemons

WRITE = "open('/home/user/Desktop/n.txt', 'w').write('x' * 4096)\n"


def main(reverts: int) -> None:
    config = VmConfig()
    started_daemons = ensure_libvirtd(config.uri)
    root = Path(tempfile.mkdtemp(prefix="cuagym-vm-bench-"))
    root.chmod(0o711)
    try:
        provider = LibvirtProvider(root, config=config, image=require_image(config.images_path))
        began = time.monotonic()
        env = provider.provision("bench", EnvRole.DEBUG)
        provision_s = time.monotonic() - began
        with env:
            snap_times, revert_times, script_times = [], [], []
            for _ in range(reverts):
                began = time.monotonic()
                env.run_script(WRITE, name="w.py")
                script_times.append(time.monotonic() - began)
                began = time.monotonic()
                env.snapshot()
                snap_times.append(time.monotonic() - began)
                revert_times.append(env.reset())
            began = time.monotonic()
            env.screenshot()
            shot_s = time.monotonic() - began
        closed = not provider.domains()
        provider.close()
    finally:
        shutil.rmtree(root, ignore_errors=True)
        stop_daemons(started_daemons)
    median = statistics.median
    print(
        f"domain {config.domain_type}, {config.memory_mb} MiB, {config.vcpus} vCPU, {config.width}x{config.height}"
    )
    print(f"provision (boot to ready + initial snapshot) {provision_s:.1f} s, boot {env.boot_s:.1f} s")
    print(
        f"script run {median(script_times):.2f} s, snapshot {median(snap_times):.2f} s, "
        f"revert {median(revert_times):.2f} s (median of {reverts}; max {max(revert_times):.2f} s)"
    )
    print(f"screenshot {shot_s * 1000:.0f} ms; closed without leftovers: {closed}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
