"""flows/window.py: the submit window of the synthesis and rollout flows."""

from __future__ import annotations

import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

from prefect.futures import PrefectConcurrentFuture

from flows.window import in_window


def test_at_most_workers_in_flight_and_the_next_goes_as_one_finishes():
    lock, live, peak = threading.Lock(), [0], [0]
    durations = {"slow": 0.6, "a": 0.05, "b": 0.05, "c": 0.05, "d": 0.05}

    def work(name: str) -> str:
        with lock:
            live[0] += 1
            peak[0] = max(peak[0], live[0])
        time.sleep(durations[name])
        with lock:
            live[0] -= 1
        return name

    seen: list[str] = []
    with ThreadPoolExecutor(4) as pool:

        def submit(name: str):
            if name == "resumed":  # answered at once: never occupies the window
                return "resumed!"
            return PrefectConcurrentFuture(uuid.uuid4(), pool.submit(work, name))

        results = in_window(
            ["slow", "resumed", "a", "b", "c", "d"],
            submit,
            lambda future, name: future.result(),
            2,
            lambda name, result: seen.append(name),
            answered=lambda submitted: submitted == "resumed!",
        )
    assert peak[0] == 2  # the window is full, never over
    # the slow item holds one slot while the four short ones pass through the other: no waves
    assert results == ["resumed!", "a", "b", "c", "d", "slow"]
    assert seen == ["resumed", "a", "b", "c", "d", "slow"]
