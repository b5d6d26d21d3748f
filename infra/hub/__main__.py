"""`python -m infra.hub`: run the hub from `CUAGYM_HUB_*` settings alone (what tests and bench/ start
as a separate process; people use `cuagym hub serve`)."""

from __future__ import annotations

import os
import socket

import uvicorn

from infra.hub import HubSettings, create_app
from infra.lifetime import exit_with_parent


def _sockets(settings: HubSettings) -> list[socket.socket]:
    """TCP for browsers and load generators, a unix socket for sandboxes (which have no network)."""
    sockets = []
    if settings.port:
        tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        tcp.bind((settings.host, settings.port))
        sockets.append(tcp)
    if settings.uds:
        if settings.uds.exists():
            settings.uds.unlink()
        unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        unix.bind(str(settings.uds))
        os.chmod(settings.uds, 0o666)  # the sandbox's uid must be able to connect
        sockets.append(unix)
    return sockets


def main() -> None:
    exit_with_parent()  # when started by a run (HubProcess), end with it
    settings = HubSettings()
    app = create_app(settings)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False))
    app.state.routes.attach(server)  # per-env pinned sockets are served by this same server
    server.run(sockets=_sockets(settings))


if __name__ == "__main__":
    main()
