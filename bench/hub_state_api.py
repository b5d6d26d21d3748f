"""State-API throughput and latency of one hub process with 1,000 live sessions.

The hub runs as its own process (`python -m infra.hub`, one uvicorn worker); this script is the
load generator, in a second process: asyncio with a minimal keep-alive HTTP/1.1 client, so the
generator costs far less CPU per request than the server it measures.

Workload (what rollouts do): 1,000 sessions spread over every app the hub hosts (the hand-written
four and every engine app), each created with `set`; then a
closed loop of CONCURRENCY connections, each request on a random session: 60 % GET /go (reward
checks), 20 % GET /state (UI load), 20 % POST set_current with merge (UI writes). Writes
invalidate the session's cached /go body, so the next /go recomputes the diff.

    .venv/bin/python bench/hub_state_api.py [--sessions 1000] [--requests 30000] [--concurrency 16]

Targets: >= 2,000 requests/s and p99 <= 20 ms on loopback, and the hub with every app loaded
answering within 3 s of its start; its resident memory after the sessions is reported.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from infra.apps import web_apps  # noqa: E402
from infra.hub.engine import APPS_DIR, load_definition  # noqa: E402
from infra.hub.engine.seed import default_state  # noqa: E402

APPS = web_apps()
# One small, valid patch per app: what a UI click sends (merged into the current state).
PATCHES = {
    "chat": lambda i: {"channels": {"c_general": {"topic": f"topic {i}"}}},
    "tracker": lambda i: {"issues": {"WEB-3": {"points": i % 13}}},
    "store": lambda i: {"orders": {"o1003": {"note": f"note {i}"}}},
    "mail": lambda i: {"messages": {"e001": {"read": bool(i % 2)}}},
}


def _engine_patch(app: str):
    """An engine app's click: retitle its first seeded record of an entity other than its people."""
    definition = load_definition(APPS_DIR / app / "definition.yaml")
    state = default_state(definition)
    entity = next(e for e in definition.entities if e != definition.people and state[e])
    record, title = next(iter(state[entity])), definition.entities[entity].title
    return lambda i: {entity: {record: {title: f"{title} {i}"}}}


for _app in APPS:
    if _app not in PATCHES:
        PATCHES[_app] = _engine_patch(_app)


class Connection:
    """One keep-alive HTTP/1.1 connection (enough protocol for the hub's JSON answers)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: bytes = b"") -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(body)}\r\n"
        if body:
            head += "Content-Type: application/json\r\n"
        self.writer.write(head.encode() + b"\r\n" + body)
        status_line = await self.reader.readline()
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        payload = await self.reader.readexactly(length)
        return int(status_line.split()[1]), payload


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_hub(port: int, data_dir: str) -> tuple[subprocess.Popen, float]:
    """The hub process and the seconds from its start to its first answer (APPS loaded)."""
    env = {**os.environ, "CUAGYM_HUB_PORT": str(port), "CUAGYM_HUB_DATA_DIR": data_dir}
    env["CUAGYM_HUB_APPS"] = ",".join(APPS)
    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "infra.hub"], cwd=ROOT, env=env)
    deadline = started + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                if sock.recv(64).startswith(b"HTTP/1.1 200"):
                    return proc, time.monotonic() - started
        except OSError:
            pass
        time.sleep(0.02)
    proc.kill()
    raise SystemExit("the hub did not start within 30 s")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def create_sessions(port: int, sessions: list[tuple[str, str]], concurrency: int) -> None:
    queue = list(sessions)

    async def worker() -> None:
        conn = Connection(port)
        while queue:
            app, sid = queue.pop()
            body = json.dumps({"action": "set", "state": {"bench": {"sid": sid}}}).encode()
            status, payload = await conn.request("POST", f"/{app}/post?sid={sid}", body)
            if status != 200:
                raise SystemExit(f"set failed for {app}/{sid}: {status} {payload[:200]!r}")

    await asyncio.gather(*(worker() for _ in range(concurrency)))


async def run_load(port: int, sessions: list[tuple[str, str]], total: int, concurrency: int, seed: int):
    rng = random.Random(seed)
    plan = []
    for i in range(total):
        app, sid = rng.choice(sessions)
        roll = rng.random()
        kind = "go" if roll < 0.6 else "state" if roll < 0.8 else "post"
        plan.append((kind, app, sid, i))
    latencies: dict[str, list[float]] = {"go": [], "state": [], "post": []}
    errors = 0

    async def worker(items) -> None:
        nonlocal errors
        conn = Connection(port)
        for kind, app, sid, i in items:
            if kind == "post":
                body = json.dumps({"action": "set_current", "merge": True, "state": PATCHES[app](i)}).encode()
                start = time.perf_counter()
                status, _ = await conn.request("POST", f"/{app}/post?sid={sid}", body)
            else:
                start = time.perf_counter()
                status, _ = await conn.request("GET", f"/{app}/{kind}?sid={sid}")
            latencies[kind].append(time.perf_counter() - start)
            errors += status != 200

    started = time.perf_counter()
    await asyncio.gather(*(worker(plan[c::concurrency]) for c in range(concurrency)))
    return latencies, errors, time.perf_counter() - started


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc), to report the hub's cost per request."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(coro):
    # uvloop makes the generator cheaper, leaving more of a small machine to the hub it measures.
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    return uvloop.run(coro)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def print_table(
    latencies: dict[str, list[float]],
    errors: int,
    elapsed: float,
    hub_cpu: float,
    args,
    start_s: float,
    rss: float,
) -> bool:
    every = [v for vs in latencies.values() for v in vs]
    rate = len(every) / elapsed
    print(
        f"\nhub state API: {args.sessions} live sessions over {len(APPS)} apps, {args.concurrency} connections, "
        f"{len(every)} requests in {elapsed:.2f} s, {errors} errors"
    )
    print(f"{'endpoint':<22}{'requests':>10}{'p50 ms':>10}{'p95 ms':>10}{'p99 ms':>10}{'max ms':>10}")
    rows = [
        ("GET /go", latencies["go"]),
        ("GET /state", latencies["state"]),
        ("POST set_current", latencies["post"]),
        ("all", every),
    ]
    for name, values in rows:
        print(
            f"{name:<22}{len(values):>10}{percentile(values, 0.5):>10.2f}{percentile(values, 0.95):>10.2f}"
            f"{percentile(values, 0.99):>10.2f}{max(values) * 1000:>10.2f}"
        )
    per_request = hub_cpu / len(every) * 1e6
    print(
        f"\nhub process CPU: {hub_cpu:.2f} s = {per_request:.0f} us per request "
        f"(one core could serve ~{1e6 / per_request:,.0f} req/s with a free load generator)"
    )
    p99 = percentile(every, 0.99)
    ok = rate >= 2000 and p99 <= 20 and errors == 0 and start_s <= 3
    print(
        f"\nthroughput {rate:,.0f} req/s (target >= 2,000)   p99 {p99:.2f} ms (target <= 20)   "
        f"start {start_s:.2f} s with {len(APPS)} apps (target <= 3)   RSS {rss:.0f} MB   "
        f"{'PASS' if ok else 'FAIL'}"
    )
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--requests", type=int, default=30000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--apps", default=None, help="comma-separated apps (default: every web app)")
    args = parser.parse_args()
    global APPS
    if args.apps:
        APPS = tuple(args.apps.split(","))
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="hub-bench-") as data_dir:
        hub, start_s = start_hub(port, data_dir)
        try:
            sessions = [(APPS[i % len(APPS)], f"bench-{i:05d}") for i in range(args.sessions)]
            run(create_sessions(port, sessions, args.concurrency))
            rss = rss_mb(hub.pid)
            # Warm-up: first /go per session computes its diff; measure the steady state after it.
            run(run_load(port, sessions, min(args.requests, 5000), args.concurrency, args.seed + 1))
            cpu_before = cpu_seconds(hub.pid)
            latencies, errors, elapsed = run(
                run_load(port, sessions, args.requests, args.concurrency, args.seed)
            )
            hub_cpu = cpu_seconds(hub.pid) - cpu_before
        finally:
            hub.terminate()
            hub.wait(timeout=10)
    return 0 if print_table(latencies, errors, elapsed, hub_cpu, args, start_s, rss) else 1


if __name__ == "__main__":
    sys.exit(main())
