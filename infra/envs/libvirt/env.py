"""`LibvirtEnv`: one running QEMU guest, driven through its in-guest server (see the package docstring)."""

from __future__ import annotations

import base64
import binascii
import io
import json
import logging
import socket
import tarfile
import time
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from infra.envs.base import Capability, EnvRole, FileEntry, ScriptResult, Snapshot, StateView
from infra.envs.desktop.actions import GuiAction, xdotool_args
from infra.envs.desktop.client import DesktopClient, ServerEnv
from infra.envs.desktop.sandbox import new_token
from infra.envs.home import MAX_STATE_ENTRIES, guest_relative, safe_script_name
from infra.envs.libvirt.config import VmConfig
from infra.envs.libvirt.connection import libvirt_module
from infra.envs.libvirt.domain import DomainSpec, channel_path, domain_xml
from infra.envs.libvirt.image import GUEST_SCRIPTS, VmImage
from infra.errors import DesktopError, DesktopStartError, EnvError
from infra.images.disk import create_overlay
from infra.sandbox import GUEST_HOME, Limits

log = logging.getLogger(__name__)

DOMAIN_PREFIX = "cuagym-"
_TOOLS = Path(__file__).with_name("guest_tools.py")
_TOOL_EXIT_MISSING, _TOOL_EXIT_UNREADABLE, _TOOL_EXIT_TOO_LARGE = 3, 4, 5  # guest_tools.py's
_PORT_TRIES = 3  # a free port picked here can be taken before QEMU binds it


class VmStartError(DesktopStartError):
    """A guest did not boot to its server's ready line (or its server said it was not ready)."""


class VmHost(Protocol):
    """What a guest needs of whoever provisioned it (LibvirtProvider): declared here so that the env
    does not import its provider, which imports the env."""

    config: VmConfig
    image: VmImage
    conn: Any  # a libvirt.virConnect
    script_limits: Limits
    keep: bool


class LibvirtEnv(ServerEnv):
    """One running guest: the domain `cuagym-<env id>`, its overlay, console log and server client."""

    not_running_hint = "provision it through LibvirtProvider"
    capabilities = frozenset(
        {
            Capability.RUN_SCRIPT,
            Capability.STATE_VIEW,
            Capability.SNAPSHOT,
            Capability.SCREENSHOT,
            Capability.GUI_INPUT,
        }
    )

    def __init__(self, provider: VmHost, env_id: str, task_id: str, role: EnvRole, root: Path) -> None:
        super().__init__(provider, env_id, task_id, role, root)
        self.disk = root / "disk.qcow2"
        self.console_log = root / "console.log"
        self.domain_name = DOMAIN_PREFIX + env_id
        # Handed to the guest over the handshake channel at boot; it lives in the guest's memory, so
        # every snapshot (and so every revert) keeps it.
        self.token = new_token()
        self.host_port = 0
        self.boot_s: float | None = None
        self.revert_s: float | None = None
        self._domain: Any = None

    # --- lifecycle --------------------------------------------------------------------------------

    def boot(self) -> float:
        """Define and start the domain over a fresh overlay, hand it the token and wait for its ready
        line; returns seconds taken. VmStartError (with the console's tail) when it does not come up."""
        self._check_open()
        libvirt = libvirt_module()
        started = time.monotonic()
        self.root.mkdir(parents=True, exist_ok=True)
        create_overlay(self.provider.image.disk, self.disk)
        for attempt in range(_PORT_TRIES):
            self.host_port = _free_port()
            self._domain = self.provider.conn.defineXML(domain_xml(self._spec()))
            try:
                self._domain.create()
                break
            except libvirt.libvirtError as exc:
                self._undefine()
                port_taken = "hostfwd" in str(exc) or "host forwarding" in str(exc)
                if port_taken and attempt + 1 < _PORT_TRIES:
                    continue
                raise VmStartError(
                    f"libvirt could not start {self.domain_name}: {exc}",
                    hint="see libvirtd's log (/var/log/libvirt/qemu/<domain>.log)",
                ) from None
        ready = self._handshake(started + self.provider.config.boot_timeout_s)
        self._connect()
        self.boot_s = time.monotonic() - started
        log.info(
            "%s booted in %.1f s (server up in %s s)",
            self.domain_name,
            self.boot_s,
            ready.get("started_in_s"),
        )
        return self.boot_s

    def _spec(self) -> DomainSpec:
        c, image = self.provider.config, self.provider.image
        return DomainSpec(
            name=self.domain_name,
            kernel=image.kernel,
            initrd=image.initrd,
            disk=self.disk,
            console_log=self.console_log,
            host_port=self.host_port,
            guest_port=c.guest_port,
            memory_mb=c.memory_mb,
            vcpus=c.vcpus,
            domain_type=c.domain_type,
            width=c.width,
            height=c.height,
            start_timeout_s=max(30.0, c.boot_timeout_s / 2),
        )

    def _handshake(self, deadline: float) -> dict:
        """Over the virtio-serial channel: the token in, the server's JSON ready line out."""
        path = channel_path(self._domain.XMLDesc(0))
        if path is None:
            self._fail_start("libvirt did not give the handshake channel a socket path")
        line = b""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(1.0)
            sock.connect(str(path))
            sock.sendall(self.token.encode() + b"\n")
            while b"\n" not in line:
                if time.monotonic() > deadline:
                    self._fail_start(f"no ready line within {self.provider.config.boot_timeout_s:g} s")
                try:
                    chunk = sock.recv(4096)
                except TimeoutError:
                    if not self._domain.isActive():
                        self._fail_start("the guest stopped before its server was ready")
                    continue
                if not chunk:
                    self._fail_start("the guest closed the handshake channel")
                line += chunk
        try:
            info = json.loads(line.split(b"\n", 1)[0])
        except ValueError:
            self._fail_start(f"the guest answered {line[:300]!r}, not a ready line")
        if not info.get("ready"):
            self._fail_start(f"the in-guest server failed to start: {info.get('error')}")
        return info

    def _set_guest_clock(self) -> None:
        """Tell the guest's init the time: a revert brings back the clock of the snapshot's moment."""
        path = channel_path(self._domain.XMLDesc(0))
        if path is None:
            raise EnvError(f"{self.domain_name} has no handshake channel", hint="provision a new env")
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(10.0)
            sock.connect(str(path))
            sock.sendall(f"clock {time.time_ns()}\n".encode())

    def _fail_start(self, why: str) -> None:
        raise VmStartError(
            f"{self.domain_name} did not come up: {why}; its console ends with:\n{self.console_tail()}",
            hint=f"the full console log is {self.console_log}; a slow host may need a larger "
            "CUAGYM_VM_BOOT_TIMEOUT_S; rebuild the image with `cuagym vm image --force` if it is damaged",
        )

    def _connect(self, *, timeout_s: float = 60.0) -> None:
        """A fresh client (connections from before a snapshot or revert are dead), once /health answers."""
        if self._client is not None:
            self._client.close()
        self._client = DesktopClient.over_tcp("127.0.0.1", self.host_port, self.token)
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                self._client.health()
                return
            except DesktopError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def console_tail(self, lines: int = 30) -> str:
        try:
            text = self.console_log.read_text(errors="replace")
        except OSError:
            return "(no console log)"
        return "\n".join(text.splitlines()[-lines:]) or "(the console is empty)"

    def reset(self, snapshot: Snapshot | None = None) -> float:
        """Revert the running guest to `snapshot` (default: the initial state) — memory included, so
        nothing boots. Returns seconds taken (also kept as `revert_s`)."""
        self._check_open()
        target = snapshot or self._initial
        if target is None:
            raise EnvError(
                f"env {self.id} has no initial snapshot", hint="provision it through LibvirtProvider"
            )
        libvirt = libvirt_module()
        started = time.monotonic()
        try:
            snap = self._domain.snapshotLookupByName(target.ref, 0)
            self._domain.revertToSnapshot(snap, libvirt.VIR_DOMAIN_SNAPSHOT_REVERT_RUNNING)
        except libvirt.libvirtError as exc:
            raise EnvError(
                f"cannot revert {self.domain_name} to {target.ref}: {exc}",
                hint="take snapshots with env.snapshot()",
            ) from None
        self._set_guest_clock()
        self._connect()
        self.revert_s = time.monotonic() - started
        return self.revert_s

    @property
    def running(self) -> bool:
        return self._domain is not None and bool(self._domain.isActive())

    # --- Env interface ----------------------------------------------------------------------------

    def run_script(
        self, source: str, *, name: str, limits: Limits | None = None, env: Mapping[str, str] | None = None
    ) -> ScriptResult:
        """Run `python3 <name>` in the guest (its display, as the guest user), like an OSWorld
        `execute`. The script is uploaded alone into a fresh folder outside the home, removed after."""
        timeout_s = (limits or self.provider.script_limits).timeout_s
        folder = f"{GUEST_SCRIPTS}/{uuid.uuid4().hex}"
        path = f"{folder}/{safe_script_name(name)}"
        self.client.upload(path, source.encode())
        try:
            return self.client.run_script(["python3", path], timeout_s=timeout_s, env=env)
        finally:
            self.client.execute(["rm", "-rf", folder], timeout_s=60)

    def _tool(self, *args: str, timeout_s: float = 300.0):
        return self.client.execute(["python3", "-c", _TOOLS.read_text(), *args], timeout_s=timeout_s)

    def state_view(self) -> StateView:
        self._check_open()
        result = self._tool("walk", GUEST_HOME, str(MAX_STATE_ENTRIES))
        if result.returncode != 0:
            raise EnvError(
                f"listing the home of {self.id} failed: {result.error.strip()[-800:]}",
                hint=f"see the guest's console log {self.console_log}",
            )
        data = json.loads(result.output)
        if data["truncated"]:
            log.warning("state view of %s truncated at %d entries", self.id, MAX_STATE_ENTRIES)
        files = [FileEntry(**entry) for entry in data["entries"]]
        return StateView(env_id=self.id, role=self.role, files=files)

    def read_file(self, path: str, *, max_bytes: int = 16 * 1024 * 1024) -> bytes:
        self._check_open()
        rel = guest_relative(path).as_posix()
        if rel in ("", "."):
            raise EnvError(f"{path!r} is the home itself", hint="name a file inside it")
        result = self._tool("read", GUEST_HOME, rel, str(max_bytes))
        hints = {
            _TOOL_EXIT_MISSING: "list files with state_view()",
            _TOOL_EXIT_UNREADABLE: "only regular files inside the home can be read",
            _TOOL_EXIT_TOO_LARGE: "raise max_bytes",
        }
        if result.returncode in hints:
            raise EnvError(result.error.strip(), hint=hints[result.returncode])
        if result.returncode != 0:
            raise EnvError(
                f"reading {path!r} in {self.id} failed: {result.error.strip()[-800:]}", hint="see the message"
            )
        try:
            return base64.b64decode(result.output, validate=True)
        except binascii.Error:
            raise EnvError(
                f"reading {path!r} in {self.id} returned no file", hint="see the guest's console log"
            ) from None

    def load_home(self, home: Path) -> None:
        """Replace the guest's home with a host folder's contents (a snapshot made by `local` or
        `desktop`, or any home folder): symlinks as links, FIFOs re-made, sockets and devices left out."""
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w") as tar:
            for child in sorted(home.iterdir()):
                tar.add(child, arcname=child.name, filter=_portable)
        archive = f"{GUEST_SCRIPTS}/{uuid.uuid4().hex}.tar"
        self.client.upload(archive, buffer.getvalue())
        result = self._tool("unpack", GUEST_HOME, archive)
        if result.returncode != 0:
            raise EnvError(
                f"loading {home} into {self.id} failed: {result.error.strip()[-800:]}", hint="see the message"
            )

    def snapshot(self) -> Snapshot:
        """A libvirt snapshot of the running guest (disk and memory, inside the env's overlay). Valid
        for `restore()` on this env while it is open."""
        self._check_open()
        self._snapshots += 1
        name = f"s{self._snapshots}"
        libvirt = libvirt_module()
        try:
            self._domain.snapshotCreateXML(f"<domainsnapshot><name>{name}</name></domainsnapshot>", 0)
        except libvirt.libvirtError as exc:
            raise EnvError(f"cannot snapshot {self.domain_name}: {exc}", hint="see libvirtd's log") from None
        self._connect()
        return Snapshot(env_id=self.id, ref=name)

    def restore(self, snapshot: Snapshot) -> None:
        if snapshot.env_id != self.id:
            raise EnvError(
                f"snapshot {snapshot.ref} belongs to env {snapshot.env_id}, not {self.id}",
                hint="a libvirt snapshot lives in its own env's disk; provision from a home folder instead",
            )
        self.reset(snapshot)

    def screenshot(self) -> bytes:
        """The screen as PNG bytes, cursor included."""
        return self.client.screenshot()

    def screen_size(self) -> tuple[int, int]:
        return self.provider.config.width, self.provider.config.height

    def cursor_position(self) -> tuple[int, int]:
        return self.client.cursor_position()

    def gui_input(self, action: GuiAction, *, at: tuple[int, int] | None = None) -> None:
        """One mouse or keyboard action through xdotool in the guest (as the `desktop` provider)."""
        width, height = self.screen_size()
        x, y = getattr(action, "x", None), getattr(action, "y", None)
        if (x is not None and x >= width) or (y is not None and y >= height):
            raise DesktopError(
                f"{action!r} is off the {width}x{height} screen",
                hint="coordinates are screen pixels, 0-based",
            )
        if at is None and x is not None:
            at = self.cursor_position()
        result = self.client.execute(["xdotool", *xdotool_args(action, at=at)], timeout_s=60)
        if result.returncode != 0:
            raise DesktopError(
                f"{action!r} failed: {(result.error or result.output).strip()[-500:]}",
                hint="check coordinates are on screen and key names are valid",
            )

    def _undefine(self) -> None:
        if self._domain is None:
            return
        libvirt = libvirt_module()
        try:
            if self._domain.isActive():
                self._domain.destroy()
            self._domain.undefineFlags(libvirt.VIR_DOMAIN_UNDEFINE_SNAPSHOTS_METADATA)
        except libvirt.libvirtError as exc:
            if exc.get_error_code() != libvirt.VIR_ERR_NO_DOMAIN:
                log.warning("cannot remove domain %s: %s", self.domain_name, exc)
        self._domain = None

    def _release(self) -> None:
        """Destroy and undefine the domain (snapshots with it); `close` then deletes the overlay."""
        super()._release()
        self._undefine()


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _portable(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
    """What a guest home can hold of a host one: files, folders, symlinks, FIFOs; owned by the guest."""
    if info.ischr() or info.isblk() or info.islnk():
        return None
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    return info
