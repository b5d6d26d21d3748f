"""Run a hub as a child process for the length of a synthesis run (or a test, or a verify).

The pipeline talks to it over a unix socket: sandboxes have no network, and the socket is the one
door bound into them (infra/hub_route.py forwards the guest's 127.0.0.1:8400 to it).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

from infra.errors import CuagymError, TransientError
from infra.lifetime import child_env


class HubStartError(CuagymError, TransientError):
    """The hub process did not come up."""


class HubProcess:
    """`with HubProcess(data_dir, uds) as hub:` — a hub serving `uds` (and optionally a TCP port)."""

    def __init__(
        self,
        data_dir: Path,
        uds: Path,
        *,
        port: int = 0,
        apps: list[str] | None = None,
        start_timeout_s: float = 60.0,
    ) -> None:
        self.data_dir = data_dir
        self.uds = uds
        self.port = port
        self.apps = apps
        self.start_timeout_s = start_timeout_s
        self.proc: subprocess.Popen | None = None

    def client(self, timeout_s: float = 10.0) -> httpx.Client:
        return httpx.Client(
            transport=httpx.HTTPTransport(uds=str(self.uds)), base_url="http://hub", timeout=timeout_s
        )

    def start(self) -> HubProcess:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.uds.parent.mkdir(parents=True, exist_ok=True)
        env = child_env(
            {
                **os.environ,
                "CUAGYM_HUB_DATA_DIR": str(self.data_dir),
                "CUAGYM_HUB_UDS": str(self.uds),
                "CUAGYM_HUB_PORT": str(self.port),
            }
        )
        if self.apps:
            env["CUAGYM_HUB_APPS"] = ",".join(self.apps)
        log = open(self.data_dir / "hub.log", "ab")  # noqa: SIM115 - handed to the child
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "infra.hub"], env=env, stdout=log, stderr=log, start_new_session=True
        )
        log.close()
        deadline = time.monotonic() + self.start_timeout_s
        with self.client(timeout_s=2.0) as client:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    raise HubStartError(
                        f"the hub exited with {self.proc.returncode}", hint=f"see {self.data_dir / 'hub.log'}"
                    )
                with contextlib.suppress(httpx.HTTPError):
                    if client.get("/healthz").status_code == 200:
                        return self
                time.sleep(0.1)
        self.stop()
        raise HubStartError(
            f"the hub did not answer on {self.uds} within {self.start_timeout_s:g} s",
            hint=f"see {self.data_dir / 'hub.log'}",
        )

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        with contextlib.suppress(FileNotFoundError):
            self.uds.unlink()
        if self.uds.parent.name.startswith("cuagym-hub-"):  # a private socket dir made for this hub
            with contextlib.suppress(OSError):
                self.uds.parent.rmdir()

    def __enter__(self) -> HubProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
