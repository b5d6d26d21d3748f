"""A stand-in for the Warehouse where the file is out of reach: it keeps the writes, in order, for the
single writer to replay.

DuckDB lets one process write a file, and a Dask worker may not even share the disk: a tuple that
runs on a worker records its rounds, votes, model calls and final status here, returns the journal
with its result, and the flow process replays it (`replay(warehouse)`), each write its own
transaction as if it had been made on the spot.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from warehouse.store import Warehouse


class WarehouseJournal:
    """The writes one tuple makes (the subset of the Warehouse API a tuple task calls)."""

    def __init__(self) -> None:
        self.writes: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    def save_round(self, row: dict, findings: Sequence[dict] = (), mutants: Sequence[dict] = ()) -> None:
        self.writes.append(("save_round", (row, list(findings), list(mutants)), {}))

    def save_votes(self, task_id: str, attempt: int, votes: Sequence[dict], result: dict) -> None:
        self.writes.append(("save_votes", (task_id, attempt, list(votes), result), {}))

    def save_llm_calls(self, rows: Sequence[dict]) -> None:
        self.writes.append(("save_llm_calls", (list(rows),), {}))

    def finish_tuple(self, task_id: str, **columns: Any) -> None:
        self.writes.append(("finish_tuple", (task_id,), columns))

    def replay(self, warehouse: Warehouse) -> int:
        """Apply every write to `warehouse` in the order it was made; returns how many."""
        for name, args, kwargs in self.writes:
            getattr(warehouse, name)(*args, **kwargs)
        return len(self.writes)
