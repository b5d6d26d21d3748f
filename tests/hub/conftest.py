"""Hub fixtures: real hub processes on free loopback ports, an HTTP client, and Debian Chromium.

Every hub here is a separate `python -m infra.hub` process talking real HTTP, so the tests see what
reward.py and setup scripts see (and a restart is a real restart).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from infra.settings import PROJECT_ROOT

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = PROJECT_ROOT / "var" / "screenshots"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class HubProcess:
    """One hub server process; `settings` become CUAGYM_HUB_* variables."""

    def __init__(self, data_dir: Path, **settings: object) -> None:
        self.data_dir = data_dir
        self.port = free_port()
        self.settings = settings
        self.proc: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, app: str, endpoint: str, sid: str | None = None) -> str:
        query = f"?sid={sid}" if sid is not None else ""
        return f"{self.base}/{app}/{endpoint}{query}"

    def start(self) -> HubProcess:
        env = {**os.environ, "CUAGYM_HUB_PORT": str(self.port), "CUAGYM_HUB_DATA_DIR": str(self.data_dir)}
        env |= {f"CUAGYM_HUB_{k.upper()}": str(v) for k, v in self.settings.items()}
        # Output goes to a file: a pipe nobody reads could fill up and stall the server.
        self.log = self.data_dir.parent / f"{self.data_dir.name}-{self.port}.log"
        with self.log.open("wb") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "infra.hub"],
                cwd=PROJECT_ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"hub exited early: {self.log.read_text(errors='replace')}")
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.TransportError:
                time.sleep(0.1)
        raise RuntimeError("hub did not answer /healthz within 30 s")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture(scope="session")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubProcess]:
    # Small limits keep the oversize cases cheap; the TTL is the default hour.
    server = HubProcess(
        tmp_path_factory.mktemp("hub-data"), max_body_bytes=1_048_576, max_upload_bytes=2_097_152
    ).start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=10) as client:
        yield client


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        pytest.fail("Debian chromium is missing: run `make system` (or apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1366, "height": 820})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"
