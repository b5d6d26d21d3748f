"""The submit window both batch flows use (synthesis: tuples; rollout: episodes): keep at most
`workers` submitted items in flight and submit the next as soon as one finishes, so a slow item
never holds a whole wave back and the workers (threads or Dask) stay busy."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from prefect.futures import as_completed

Item = TypeVar("Item")
Result = TypeVar("Result")


def in_window(
    items: Iterable[Item],
    submit: Callable[[Item], Any],
    finish: Callable[[Any, Item], Result],
    workers: int,
    on_result: Callable[[Item, Result], None],
    *,
    answered: Callable[[Any], bool] = lambda _: False,
) -> list[Result]:
    """Results in completion order. `submit(item)` returns a future, or — when `answered(it)` says
    so — the item's result at once (a tuple a resumed run already holds); `finish(future, item)` turns
    a completed future into its result; `on_result(item, result)` runs after each (progress, snapshot)."""
    waiting = list(reversed(list(items)))
    running: dict[Any, Item] = {}
    results: list[Result] = []

    def done(item: Item, result: Result) -> None:
        results.append(result)
        on_result(item, result)

    while waiting or running:
        while waiting and len(running) < workers:
            item = waiting.pop()
            submitted = submit(item)
            if answered(submitted):
                done(item, submitted)
            else:
                running[submitted] = item
        for future in as_completed(list(running)):
            item = running.pop(future)
            done(item, finish(future, item))
            break  # refill the window before waiting again
    return results
