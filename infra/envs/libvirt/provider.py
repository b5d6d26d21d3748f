"""`LibvirtProvider`: guests under libvirt, each an overlay of the shared base image (see the package docstring)."""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Sequence
from pathlib import Path

from infra.envs.base import EnvProvider, EnvRole, Snapshot
from infra.envs.home import dir_safe, new_env_id
from infra.envs.libvirt.config import VmConfig
from infra.envs.libvirt.connection import connect
from infra.envs.libvirt.env import DOMAIN_PREFIX, LibvirtEnv
from infra.envs.libvirt.image import VmImage, require_image
from infra.envs.local import WEB_APPS
from infra.errors import EnvError
from infra.sandbox import Limits
from infra.settings import get_settings

log = logging.getLogger(__name__)


class LibvirtProvider(EnvProvider):
    """Guests under libvirt (`config.uri`), each an overlay of the shared base image under `root`.

    `root` and the image must be reachable by the QEMU process (which libvirt runs as libvirt-qemu):
    the folders above them are given o+x where they lack it (`open_to_qemu`)."""

    name = "libvirt"

    def __init__(
        self,
        root: Path | None = None,
        *,
        config: VmConfig | None = None,
        image: VmImage | None = None,
        script_limits: Limits | None = None,
        keep: bool = False,
    ) -> None:
        self.config = config or VmConfig()
        self.root = (root or get_settings().var_dir / "vms").resolve()
        self.root.mkdir(parents=True, exist_ok=True)
        self.image = image or require_image(self.config.images_path)
        for path in (self.root, self.image.root):
            open_to_qemu(path)
        self.script_limits = script_limits or Limits()
        self.keep = keep
        self.conn = connect(self.config.uri)

    def provision(
        self, task_id: str, role: EnvRole, *, from_snapshot: Snapshot | None = None, apps: Sequence[str] = ()
    ) -> LibvirtEnv:
        """A booted guest for (task, role), its home empty or loaded from `from_snapshot` (whose ref
        is a home folder on this host, as `local` and `desktop` snapshots are), snapshotted as the
        state `reset()` returns to."""
        web = [app for app in apps if app in WEB_APPS]
        if web:
            raise EnvError(
                f"task {task_id} needs the hub for {web}, which the libvirt provider does not route",
                hint="run web tasks on the local or desktop provider",
            )
        if from_snapshot is not None and not Path(from_snapshot.ref).is_dir():
            raise EnvError(
                f"from_snapshot ref {from_snapshot.ref!r} is not a home folder on this host",
                hint="a libvirt snapshot can only be restored in its own env (env.restore)",
            )
        env_id = new_env_id()
        env = LibvirtEnv(self, env_id, task_id, role, self.root / dir_safe(task_id) / env_id)
        try:
            env.boot()
            if from_snapshot is not None:
                env.load_home(Path(from_snapshot.ref))
            env.mark_initial()
        except BaseException:
            env.close()
            raise
        return env

    def domains(self) -> list[str]:
        """Names of every cuagym domain libvirt knows (running or not), this provider's or not."""
        return sorted(d.name() for d in self.conn.listAllDomains(0) if d.name().startswith(DOMAIN_PREFIX))

    def close(self) -> None:
        self.conn.close()


def open_to_qemu(path: Path) -> list[Path]:
    """Let QEMU (which libvirt runs as libvirt-qemu) walk down to `path`: every folder above it gets
    o+x if it lacks it (search only: nothing becomes listable or readable), as libvirt's own docs
    advise. A checkout under a 0700 folder (a home, a mktemp) is otherwise unreachable for QEMU, and
    its guests fail with "Cannot access backing file". Returns the folders changed; EnvError when a
    folder cannot be changed (not its owner)."""
    changed = []
    for folder in [path, *path.parents]:
        mode = os.stat(folder).st_mode
        if mode & 0o001:
            continue
        try:
            os.chmod(folder, stat.S_IMODE(mode) | 0o001)
        except PermissionError:
            raise EnvError(
                f"{folder} is closed to other users, so QEMU (run by libvirt as libvirt-qemu) cannot reach {path}",
                hint=f"`chmod o+x {folder}`, or keep var/ on a path others may traverse",
            ) from None
        changed.append(folder)
    if changed:
        log.warning(
            "gave o+x (search only) to %s so that QEMU can reach %s", ", ".join(map(str, changed)), path
        )
    return changed
