"""Entry point inside the guest: `python3 -m desktop_server (--socket PATH | --tcp HOST:PORT) [--width W …]`.

--socket serves on a Unix socket (the `desktop` provider's sandbox); --tcp on a TCP port instead (the
`libvirt` provider's VM, whose port QEMU forwards to the host's loopback).

Protocol with the host (infra/envs/desktop/sandbox.py), over stdin/stdout:
1. the server boots the session while the host writes the access token as the first stdin line
   (never on argv or in the environment, where other guest processes could read it);
2. the server reads the token, binds the Unix socket (0600) or the TCP port and prints one JSON line:
   {"ready": true, ...} or {"ready": false, "error": "..."} (then exits 1);
3. when stdin reaches EOF (the host closed it, or died) the server ends the session and exits.
Logs go to stderr only, so stdout carries nothing but that line.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import socket
import sys
import threading

from .app import create_app
from .session import Session, SessionConfig, SessionError


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="desktop_server")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--socket", help="Unix socket path to serve on")
    where.add_argument("--tcp", type=_address, help="HOST:PORT to serve on (port 0: any free one)")
    parser.add_argument("--width", type=int, default=1920)
    parser.add_argument("--height", type=int, default=1080)
    parser.add_argument("--no-accessibility", action="store_true", help="skip D-Bus and AT-SPI")
    parser.add_argument("--start-timeout", type=float, default=30.0)
    return parser.parse_args(argv)


def _address(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not HOST:PORT")
    return host, int(port)


def _bind_tcp(address: tuple[str, int]) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(address)
    sock.listen(128)
    return sock


def _bind(path: str) -> socket.socket:
    if os.path.exists(path):
        os.unlink(path)  # a stale socket from an earlier run of the same env
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(path)
    os.chmod(path, 0o600)
    sock.listen(128)
    return sock


def _exit_on_eof(session: Session) -> None:
    sys.stdin.read()
    session.stop()
    os._exit(0)


def main(argv: list[str] | None = None) -> int:
    args = _parse(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(
        stream=sys.stderr, level=logging.INFO, format="desktop_server %(levelname)s %(message)s"
    )
    session = Session(
        SessionConfig(
            width=args.width,
            height=args.height,
            accessibility=not args.no_accessibility,
            start_timeout_s=args.start_timeout,
        )
    )
    try:
        session.start()  # booting does not need the token: the host may send it while X starts
        token = sys.stdin.readline().strip()
        if not token:
            raise ValueError("no token on stdin")
        sock = _bind(args.socket) if args.socket else _bind_tcp(args.tcp)
        app = create_app(session, token)
    except (SessionError, OSError, ValueError) as exc:
        session.stop()
        print(json.dumps({"ready": False, "error": str(exc)}), flush=True)
        return 1
    import uvicorn

    where = {"socket": args.socket} if args.socket else {"tcp": "{}:{}".format(*sock.getsockname()[:2])}
    print(
        json.dumps(
            {
                "ready": True,
                **where,
                "accessibility": session.accessibility,
                "started_in_s": round(session.started_in_s, 3),
            }
        ),
        flush=True,
    )
    threading.Thread(target=_exit_on_eof, args=(session,), daemon=True, name="stdin-eof").start()
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", timeout_keep_alive=60)
    uvicorn.Server(config).run(sockets=[sock])
    session.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
