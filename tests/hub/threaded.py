"""A hub served by uvicorn on a thread of the test process: real HTTP and keep-alive connections,
yet `monkeypatch` reaches its code (a separate process, as in conftest.py, cannot be patched)."""

from __future__ import annotations

import threading
import time

import httpx
import uvicorn

from infra.hub import HubSettings, create_app
from tests.hub.conftest import free_port


class ThreadedHub:
    """`with ThreadedHub(settings) as base_url:` serves `create_app(settings)` until the block ends."""

    def __init__(self, settings: HubSettings) -> None:
        self.settings = settings
        self.server: uvicorn.Server | None = None
        self.thread: threading.Thread | None = None

    def __enter__(self) -> str:
        port = free_port()
        config = uvicorn.Config(create_app(self.settings), host="127.0.0.1", port=port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="threaded-hub", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the threaded hub did not start")
            time.sleep(0.02)
        return f"http://127.0.0.1:{port}"

    def __exit__(self, *exc: object) -> None:
        assert self.server is not None and self.thread is not None
        self.server.should_exit = True
        self.thread.join(timeout=15)


def local_port(response: httpx.Response) -> int:
    """The client-side port of the TCP connection that carried `response` (same port: same connection)."""
    return response.extensions["network_stream"].get_extra_info("socket").getsockname()[1]
