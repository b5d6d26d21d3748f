"""A TCP port on the host's loopback that leads to one desktop's Unix socket.

OSWorld's controllers speak HTTP to `http://{vm_ip}:{port}`; the in-guest server listens only on a
Unix socket inside a private network namespace. `TcpForwarder` bridges the two byte for byte (it
does not parse HTTP; the server checks the token). It binds loopback addresses only — never a public
one — so the desktop is reachable from this machine alone, and only with its token.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import selectors
import socket
import threading
from pathlib import Path

from infra.errors import ConfigError

log = logging.getLogger(__name__)

_CHUNK = 1 << 16


def _loopback(host: str) -> str:
    host = "127.0.0.1" if host == "localhost" else host
    try:
        if ipaddress.ip_address(host).is_loopback:
            return host
    except ValueError:
        pass
    raise ConfigError(
        f"refusing to expose a desktop on {host!r}: not a loopback address",
        hint="use 127.0.0.1 (or ::1); the desktop must never be reachable from the network",
    )


class TcpForwarder:
    """Accepts on host:port (0 = any free port) and splices each connection to `unix_path`."""

    def __init__(self, unix_path: Path, *, host: str = "127.0.0.1", port: int = 0) -> None:
        self.unix_path = unix_path
        self.host = _loopback(host)
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        try:
            self._listener = socket.create_server((self.host, port), family=family, backlog=64)
        except OSError as exc:
            raise ConfigError(
                f"cannot listen on {self.host}:{port}: {exc.strerror}",
                hint="pick another --port, or 0 for any free one",
            ) from None
        self._listener.settimeout(0.5)  # so close() is noticed without waking accept() from outside
        self.port = self._listener.getsockname()[1]
        self._closed = threading.Event()
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._thread = threading.Thread(
            target=self._accept_loop, name=f"desktop-forward-{self.port}", daemon=True
        )
        self._thread.start()

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def _accept_loop(self) -> None:
        while not self._closed.is_set():
            try:
                client, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                break
            threading.Thread(target=self._splice, args=(client,), daemon=True).start()

    def _splice(self, client: socket.socket) -> None:
        upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            upstream.connect(str(self.unix_path))
        except OSError as exc:
            log.warning("desktop at %s is not accepting connections: %s", self.unix_path, exc)
            with contextlib.suppress(OSError):
                client.sendall(
                    b"HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain\r\nConnection: close\r\n"
                    b"Content-Length: 27\r\n\r\nthe desktop is not running\n"
                )
            client.close()
            upstream.close()
            return
        with self._lock:
            self._open.update((client, upstream))
        try:
            self._pump(client, upstream)
        finally:
            with self._lock:
                self._open.difference_update((client, upstream))
            client.close()
            upstream.close()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        peer = {a: b, b: a}
        sel = selectors.DefaultSelector()
        for s in (a, b):
            sel.register(s, selectors.EVENT_READ)
        reading = {a, b}
        try:
            while reading and not self._closed.is_set():
                for key, _ in sel.select(timeout=1.0):
                    src = key.fileobj
                    try:
                        data = src.recv(_CHUNK)
                    except OSError:
                        return
                    if data:
                        try:
                            peer[src].sendall(data)
                        except OSError:
                            return
                    else:  # half-close: pass the EOF on, keep the other direction open
                        sel.unregister(src)
                        reading.discard(src)
                        with contextlib.suppress(OSError):
                            peer[src].shutdown(socket.SHUT_WR)
        finally:
            sel.close()

    def close(self) -> None:
        self._closed.set()
        self._listener.close()
        with self._lock:
            for s in list(self._open):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
        self._thread.join(timeout=2)
