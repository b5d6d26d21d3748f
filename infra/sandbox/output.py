"""Reading a sandbox's stdout and stderr within a byte budget, head and tail kept."""

from __future__ import annotations

import os
import selectors
import subprocess
import time
from collections.abc import Callable

_TAIL_BYTES = 64 * 1024  # kept from the end of a truncated stream: REWARD is the last line


class StreamCapture:
    """Keeps the head and the tail of a stream within a byte budget; counts what it dropped."""

    def __init__(self, cap: int) -> None:
        self.tail_cap = min(_TAIL_BYTES, cap // 2)
        self.head_cap = cap - self.tail_cap
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def feed(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self.head_cap - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        if chunk and self.tail_cap:
            self.tail += chunk
            if len(self.tail) > self.tail_cap:
                del self.tail[: len(self.tail) - self.tail_cap]

    @property
    def truncated(self) -> bool:
        return self.total > len(self.head) + len(self.tail)

    def edges(self, n: int = 2000) -> str:
        """The last `n` bytes of the head and of the tail, for sniffing error messages."""
        return (bytes(self.head[-n:]) + bytes(self.tail[-n:])).decode("utf-8", errors="replace")

    def text(self) -> str:
        if not self.truncated:
            return (bytes(self.head) + bytes(self.tail)).decode("utf-8", errors="replace")
        dropped = self.total - len(self.head) - len(self.tail)
        marker = f"\n[cuagym: {dropped} bytes of output dropped]\n".encode()
        return (bytes(self.head) + marker + bytes(self.tail)).decode("utf-8", errors="replace")


def pump(
    proc: subprocess.Popen, max_bytes: int, deadline: float, stop: Callable[[], bool] = lambda: False
) -> tuple[StreamCapture, StreamCapture, bool]:
    """Read both pipes until EOF, the deadline, or `stop()`; returns (stdout, stderr, timed_out)."""
    out, err = StreamCapture(max_bytes), StreamCapture(max_bytes)
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ, out)
    sel.register(proc.stderr, selectors.EVENT_READ, err)
    open_streams = 2
    timed_out = False
    while open_streams and not stop():
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            timed_out = True
            break
        for key, _ in sel.select(timeout=min(remaining, 0.2)):
            chunk = os.read(key.fd, 1 << 16)
            if chunk:
                key.data.feed(chunk)
            else:
                sel.unregister(key.fileobj)
                open_streams -= 1
    sel.close()
    return out, err, timed_out
