"""The desktop session inside the sandbox: X server, window manager, accessibility bus, app children.

`Session.start` brings up, in order and each waited for (never slept for):
1. Xvfb on :0 (its `-displayfd` pipe says when it accepts clients). Each sandbox has its own /tmp
   and network namespace, so every desktop can be :0 — as every OSWorld VM is — without clashes.
2. openbox with infra/desktop_server/openbox-rc.xml (ready once it owns the screen: `wmctrl -m`).
   Without a window manager LibreOffice dialogs never get keyboard focus.
3. with accessibility on, a D-Bus session bus (ready when it prints its address) and the AT-SPI bus
   launcher, so GTK apps started later export their accessibility tree (GET /accessibility).
4. the LibreOffice profile (profile.py) when the home has none.

Apps are children of the server (`spawn`), reaped as they exit. When the server exits, the sandbox's
pid namespace ends and takes every process of the session with it.
"""

from __future__ import annotations

import logging
import os
import select
import shlex
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from .profile import seed_profile

log = logging.getLogger(__name__)

HOME = Path("/home/user")
DISPLAY = ":0"
RUNTIME_DIR = "/tmp/runtime-user"  # the sandbox's /run/user is read-only; dconf and D-Bus need one
XAUTHORITY = "/tmp/.Xauthority"  # a real cookie: python-xlib (pyautogui) prints warnings without one
DBUS_ADDRESS = f"unix:path={RUNTIME_DIR}/bus"
OPENBOX_RC = Path(__file__).with_name("openbox-rc.xml")

# What every process of the session sees; set on the server's own environment so children inherit it.
SESSION_ENV = {
    "DISPLAY": DISPLAY,
    "XAUTHORITY": XAUTHORITY,
    "XDG_RUNTIME_DIR": RUNTIME_DIR,
    "XDG_SESSION_TYPE": "x11",
    "DBUS_SESSION_BUS_ADDRESS": DBUS_ADDRESS,
    # LibreOffice's GTK3 front end exports an AT-SPI tree (the plain X11 one exports none).
    "SAL_USE_VCLPLUGIN": "gtk3",
    "NO_AT_BRIDGE": "0",
}


class SessionError(Exception):
    """A session component failed to start; the message says which and what it printed."""


@dataclass(frozen=True)
class SessionConfig:
    width: int = 1920
    height: int = 1080
    depth: int = 24
    accessibility: bool = True
    start_timeout_s: float = 30.0


class Session:
    """One desktop session. Thread-safe: HTTP handlers call `spawn` and `reap` concurrently."""

    def __init__(self, config: SessionConfig) -> None:
        self.config = config
        self._services: dict[str, subprocess.Popen] = {}
        self._children: list[subprocess.Popen] = []
        self._lock = threading.Lock()
        self.accessibility = False
        self.started_in_s = 0.0

    def start(self) -> None:
        """Bring the session up or raise SessionError (then nothing of it is left running)."""
        started = time.monotonic()
        deadline = started + self.config.start_timeout_s
        os.environ.update(SESSION_ENV)
        Path(RUNTIME_DIR).mkdir(mode=0o700, parents=True, exist_ok=True)
        write_xauthority(Path(XAUTHORITY), display_number=DISPLAY.lstrip(":"))
        try:
            self._start_xvfb(deadline)
            self._start_openbox(deadline)
            if self.config.accessibility:
                self._start_accessibility(deadline)
            seed_profile(HOME)
        except BaseException:
            self.stop()
            raise
        self.started_in_s = time.monotonic() - started

    def _start_xvfb(self, deadline: float) -> None:
        c = self.config
        read_fd, write_fd = os.pipe()
        argv = [
            "Xvfb",
            DISPLAY,
            "-screen",
            "0",
            f"{c.width}x{c.height}x{c.depth}",
            "-nolisten",
            "tcp",
            "-noreset",
            "-dpi",
            "96",
            "-auth",
            XAUTHORITY,
            "-displayfd",
            str(write_fd),
        ]
        try:
            self._services["Xvfb"] = subprocess.Popen(
                argv, pass_fds=(write_fd,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL
            )
        except FileNotFoundError:
            raise SessionError("Xvfb is not installed (apt-get install xvfb)") from None
        finally:
            os.close(write_fd)
        with os.fdopen(read_fd, "rb") as pipe:
            # Xvfb writes the display number once it accepts connections, or closes the pipe dying.
            ready = _read_line(pipe, deadline)
        if not ready:
            raise SessionError(f"Xvfb did not start (exit code {self._services['Xvfb'].poll()})")

    def _start_openbox(self, deadline: float) -> None:
        try:
            self._services["openbox"] = subprocess.Popen(
                ["openbox", "--config-file", str(OPENBOX_RC), "--sm-disable"],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
            )
        except FileNotFoundError:
            raise SessionError("openbox is not installed (apt-get install openbox)") from None
        while time.monotonic() < deadline:
            probe = subprocess.run(["wmctrl", "-m"], capture_output=True, text=True, check=False)
            if probe.returncode == 0 and "Openbox" in probe.stdout:
                return
            if self._services["openbox"].poll() is not None:
                break
            time.sleep(0.02)
        raise SessionError(
            f"openbox did not take over the screen (exit code {self._services['openbox'].poll()})"
        )

    def _start_accessibility(self, deadline: float) -> None:
        try:
            bus = subprocess.Popen(
                [
                    "dbus-daemon",
                    "--session",
                    f"--address={DBUS_ADDRESS}",
                    "--nofork",
                    "--nopidfile",
                    "--print-address=1",
                ],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
            )
        except FileNotFoundError:
            raise SessionError("dbus-daemon is not installed (apt-get install dbus)") from None
        self._services["dbus"] = bus
        if not _read_line(bus.stdout, deadline):
            raise SessionError(f"the D-Bus session bus did not start (exit code {bus.poll()})")
        launcher = Path("/usr/libexec/at-spi-bus-launcher")
        if not launcher.exists():
            log.warning("AT-SPI is not installed (apt-get install at-spi2-core); /accessibility will fail")
            return
        # Not waited for: apps ask the session bus for the accessibility bus, which waits for it.
        self._services["at-spi"] = subprocess.Popen(
            [str(launcher), "--launch-immediately"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL
        )
        self.accessibility = True

    def spawn(self, command: list[str] | str, *, shell: bool = False) -> subprocess.Popen:
        """Start an app (or any command) in the session without waiting for it; raises OSError."""
        self.reap()
        if isinstance(command, list):
            command = [os.path.expanduser(arg) if arg.startswith("~/") else arg for arg in command]
        elif not shell:
            command = shlex.split(command)
        proc = subprocess.Popen(
            command,
            shell=shell,
            cwd=HOME,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            start_new_session=True,
        )
        with self._lock:
            self._children.append(proc)
        return proc

    def reap(self) -> None:
        """Collect exited children, so launched apps never pile up as zombies."""
        with self._lock:
            self._children = [p for p in self._children if p.poll() is None]

    def service_status(self) -> dict[str, int | None]:
        """Exit code of each session service (None while it runs)."""
        return {name: proc.poll() for name, proc in self._services.items()}

    def stop(self) -> None:
        for proc in [*self._children, *reversed(self._services.values())]:
            if proc.poll() is None:
                proc.kill()
        for proc in [*self._children, *self._services.values()]:
            try:
                proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                log.warning("process %s did not exit", proc.args)


def write_xauthority(path: Path, *, display_number: str) -> None:
    """An Xauthority file with one fresh MIT-MAGIC-COOKIE-1, for this host name and for any host.

    Xvfb reads it (`-auth`) and admits only clients presenting the cookie; every client finds it
    through $XAUTHORITY. An empty file would also let clients in, but python-xlib then prints a
    warning on stdout, into the output of every `python -c "import pyautogui; …"` an agent runs.
    """
    import secrets
    import socket
    import struct

    def field(value: bytes) -> bytes:
        return struct.pack(">H", len(value)) + value

    cookie = secrets.token_bytes(16)
    entries = b""
    for family, address in ((256, socket.gethostname().encode()), (65535, b"")):  # FamilyLocal, FamilyWild
        entries += struct.pack(">H", family) + field(address) + field(display_number.encode())
        entries += field(b"MIT-MAGIC-COOKIE-1") + field(cookie)
    path.write_bytes(entries)
    path.chmod(0o600)


def _read_line(stream, deadline: float) -> bytes:
    """One line from a pipe, or b"" on EOF or when the deadline passes."""
    fd = stream.fileno()
    data = b""
    while not data.endswith(b"\n"):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return b""
        ready, _, _ = select.select([fd], [], [], remaining)
        if not ready:
            return b""
        chunk = os.read(fd, 256)
        if not chunk:
            return b""
        data += chunk
    return data
