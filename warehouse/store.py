"""The warehouse's write API: one method per thing a pipeline step records.

Each method opens the file, runs one transaction and closes it (see warehouse/db.py for why), so a
killed run loses at most the step that was in flight. Rows are plain dicts: the warehouse knows the
schema, not the pipeline's pydantic models (dependencies point from tasks to warehouse, never back).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import duckdb

from warehouse.contamination_store import ContaminationRows
from warehouse.db import connect, migrate, owner_only, sql, transaction
from warehouse.episode_store import EpisodeRows
from warehouse.quality_store import QualityRows
from warehouse.values import naive as _naive
from warehouse.values import now as _now
from warehouse.values import to_json as _json

log = logging.getLogger(__name__)

SNAPSHOT_EVERY_S = 2.0
# training_steps columns only GSPO fills (migration 007); an SFT row leaves them NULL


def snapshot_path_for(path: Path) -> Path:
    return path.with_name(path.stem + ".snapshot.duckdb")


class Warehouse(EpisodeRows, QualityRows, ContaminationRows):
    """The single writer of one DuckDB file; thread-safe within the process."""

    def __init__(self, path: Path) -> None:
        self.path = path.resolve()
        self.snapshot_path = snapshot_path_for(self.path)
        self._lock = threading.RLock()
        self._migrated = False
        self._last_snapshot = 0.0

    @contextlib.contextmanager
    def _connection(self) -> Iterator[duckdb.DuckDBPyConnection]:
        with self._lock:
            con = connect(self.path)
            try:
                if not self._migrated:
                    migrate(con)
                    self._migrated = True
                yield con
            finally:
                con.close()

    @contextlib.contextmanager
    def _write(self) -> Iterator[duckdb.DuckDBPyConnection]:
        with self._connection() as con, transaction(con):
            yield con

    def _rows(self, name: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        with self._connection() as con:
            cur = con.execute(sql(name), params)
            cols = [d[0] for d in cur.description]
            return [dict(zip(cols, row, strict=True)) for row in cur.fetchall()]

    # --- runs ------------------------------------------------------------------------------------

    def start_run(
        self, run_id: str, *, backend: str, seed: int, git_rev: str, params: dict, kind: str = "synth"
    ) -> None:
        """Record a run as running; `kind` is synth (it samples a batch) or retry (it re-attempts)."""
        with self._write() as con:
            con.execute(
                sql("insert_run"),
                {
                    "run_id": run_id,
                    "started_at": _now(),
                    "backend": backend,
                    "seed": seed,
                    "git_rev": git_rev,
                    "params": _json(params),
                    "kind": kind,
                },
            )

    def finish_run(self, run_id: str, *, status: str, summary: dict) -> None:
        with self._write() as con:
            con.execute(
                sql("finish_run"),
                {"run_id": run_id, "finished_at": _now(), "status": status, "summary": _json(summary)},
            )

    # --- specs -----------------------------------------------------------------------------------

    def save_specs(self, run_id: str, specs: Sequence[dict]) -> None:
        now = _now()
        with self._write() as con:
            for position, spec in enumerate(specs):
                con.execute(
                    sql("insert_spec"),
                    {
                        "task_id": spec["id"],
                        "run_id": run_id,
                        "position": position,
                        "family": spec["family"],
                        "template": spec["template"],
                        "apps": spec["apps"],
                        "platform": spec["platform"],
                        "domain": spec["domain"],
                        "difficulty": spec["difficulty"],
                        "scenario": spec["scenario"],
                        "persona": spec["persona"],
                        "taxonomy_leaf": spec["taxonomy_leaf"],
                        "seed": spec["seed"],
                        "instruction": spec["instruction"],
                        "spec": _json(spec),
                        "created_at": now,
                    },
                )
                con.execute(
                    sql("insert_run_task"), {"run_id": run_id, "task_id": spec["id"], "position": position}
                )

    def run_specs(self, run_id: str) -> list[dict]:
        return [json.loads(r["spec"]) for r in self._rows("run_specs", {"run_id": run_id})]

    # --- tuples and rounds -----------------------------------------------------------------------

    def start_tuple(self, task_id: str, run_id: str, provenance: dict) -> int:
        """Mark the tuple `generating` and return its attempt number (1, or previous + 1). The tuple
        keeps the run that first started it; the attempt records `run_id` (e.g. a retry run)."""
        now = _now()
        with self._write() as con:
            row = con.execute(
                sql("start_tuple"),
                {"task_id": task_id, "run_id": run_id, "provenance": _json(provenance), "now": now},
            ).fetchone()
            attempt = int(row[0])
            con.execute(
                sql("insert_attempt"),
                {"task_id": task_id, "attempt": attempt, "run_id": run_id, "now": now},
            )
        return attempt

    def save_round(self, row: dict, findings: Sequence[dict] = (), mutants: Sequence[dict] = ()) -> None:
        """Record one finished round (its scan findings, its mutants) and the tuple's progress, atomically."""
        keys = {
            k: row[k]
            for k in (
                "task_id",
                "attempt",
                "round",
                "verdict",
                "reject_reason",
                "reward_initial",
                "reward_golden",
                "review_md",
                "initial_setup_py",
                "golden_patch_py",
                "reward_py",
                "started_at",
                "mutation_units",
                "mutation_total",
                "mutation_killed",
                "mutation_skipped",
                "mutation_truncated",
                "mutation_error",
            )
        }
        keys |= {
            "conditions": _json(row["conditions"]),
            "review": _json(row["review"]),
            "timings": _json(row["timings"]),
        }
        with self._write() as con:
            con.execute(sql("insert_round"), keys)
            where = {"task_id": row["task_id"], "attempt": row["attempt"], "round": row["round"]}
            for f in findings:
                con.execute(sql("insert_finding"), where | f)
            for m in mutants:
                con.execute(sql("insert_mutant"), where | m)
            for skip in row.get("mutation_skips") or ():
                con.execute(sql("insert_mutation_skip"), where | skip)
            con.execute(
                sql("update_tuple_progress"),
                {
                    "task_id": row["task_id"],
                    "rounds": row["round"],
                    "reward_initial": row["reward_initial"],
                    "reward_golden": row["reward_golden"],
                    "now": _now(),
                },
            )

    def finish_tuple(
        self,
        task_id: str,
        *,
        status: str,
        rounds: int,
        reward_initial: float | None,
        reward_golden: float | None,
        reject_reason: str | None,
        error: str | None,
        seconds: float,
    ) -> None:
        columns = {
            "task_id": task_id,
            "status": status,
            "rounds": rounds,
            "reward_initial": reward_initial,
            "reward_golden": reward_golden,
            "reject_reason": reject_reason,
            "error": error,
            "seconds": seconds,
            "now": _now(),
        }
        with self._write() as con:
            con.execute(sql("finish_tuple"), columns)
            con.execute(
                sql("finish_attempt"),
                {k: columns[k] for k in ("task_id", "status", "reject_reason", "rounds", "seconds", "now")},
            )

    def mark_exported(self, task_id: str, bundle_path: str) -> None:
        with self._write() as con:
            con.execute(sql("mark_exported"), {"task_id": task_id, "bundle_path": bundle_path, "now": _now()})

    def tuple_outcome(self, task_id: str) -> dict | None:
        rows = self._rows("tuple_outcome", {"task_id": task_id})
        return rows[0] if rows else None

    def accepted_round(self, task_id: str) -> dict | None:
        rows = self._rows("accepted_round", {"task_id": task_id})
        return rows[0] if rows else None

    def spec(self, task_id: str) -> dict | None:
        rows = self._rows("spec_by_id", {"task_id": task_id})
        return json.loads(rows[0]["spec"]) if rows else None

    def select_for_retry(
        self, *, task_ids: list[str], status: str, reject_reason: str | None, app: str | None, limit: int
    ) -> list[dict]:
        rows = self._rows(
            "select_for_retry",
            {
                "task_ids": task_ids,
                "status": status,
                "reject_reason": reject_reason,
                "app": app,
                "limit": limit,
            },
        )
        return [json.loads(r["spec"]) for r in rows]

    def coverage_counts(self) -> list[dict]:
        return self._rows("coverage_counts", {})

    def all_instructions(self) -> list[str]:
        return [r["instruction"] for r in self._rows("all_instructions", {})]

    def save_run_quotas(self, run_id: str, rows: Sequence[dict]) -> None:
        with self._write() as con:
            for row in rows:
                con.execute(sql("insert_run_quota"), {"run_id": run_id, **row})

    def save_data_checks(self, run_id: str, rows: Sequence[dict]) -> None:
        with self._write() as con:
            for row in rows:
                con.execute(
                    sql("insert_data_check"),
                    {"run_id": run_id, "checked_at": _now(), **row, "details": _json(row.get("details"))},
                )

    def frame(self, name: str, params: dict | None = None):
        """A named query's result as a pandas DataFrame (for data-quality suites)."""
        with self._connection() as con:
            return con.execute(sql(name), params or {}).df()

    def verified_task_ids(self) -> list[str]:
        return [r["task_id"] for r in self._rows("verified_task_ids", {})]

    # --- LLM usage and votes ---------------------------------------------------------------------

    def save_llm_calls(self, rows: Sequence[dict]) -> None:
        """Record model-call tries (infra.llm.CallRecord dumps flattened with run_id/task_id/round/step)."""
        with self._write() as con:
            for row in rows:
                con.execute(
                    sql("insert_llm_call"),
                    {
                        "call_id": row["call_id"],
                        "run_id": row.get("run_id"),
                        "task_id": row.get("task_id"),
                        "attempt": row.get("attempt"),
                        "round": row.get("round"),
                        "step": row.get("step"),
                        "role": row["role"],
                        "model": row["model"],
                        "status": row["status"],
                        "error_kind": row.get("error_kind"),
                        "error": row.get("error"),
                        "try_no": row["try_no"],
                        "input_tokens": row["input_tokens"],
                        "cached_input_tokens": row.get("cached_input_tokens", 0),
                        "output_tokens": row["output_tokens"],
                        "cost_usd": row.get("cost_usd"),
                        "latency_s": row["latency_s"],
                        "started_at": _naive(row["started_at"]),
                    },
                )

    def save_votes(self, task_id: str, attempt: int, votes: Sequence[dict], result: dict) -> None:
        """Record every critic vote of a tuple attempt and their aggregate, atomically."""
        now = _now()
        with self._write() as con:
            for vote in votes:
                con.execute(
                    sql("insert_vote"),
                    {
                        "task_id": task_id,
                        "attempt": attempt,
                        "critic": vote["critic"],
                        "model": vote["model"],
                        "decision": vote["decision"],
                        "reason": vote["reason"],
                        "criteria": _json(vote["criteria"]),
                        "created_at": now,
                    },
                )
            con.execute(
                sql("insert_vote_result"),
                {
                    "task_id": task_id,
                    "attempt": attempt,
                    "created_at": now,
                    **{k: result[k] for k in ("decision", "keep", "modify_query", "reject", "errors")},
                },
            )

    def tuple_llm_usage(self, task_id: str) -> dict:
        """Calls, failed tries, tokens, cost (None if unknown) and latency of one tuple, all roles."""
        return self._rows("tuple_llm_usage", {"task_id": task_id})[0]

    def tuple_votes(self, task_id: str) -> list[dict]:
        return [
            r | {"criteria": json.loads(r["criteria"])}
            for r in self._rows("tuple_votes", {"task_id": task_id})
        ]

    # --- readers' copies -------------------------------------------------------------------------

    # --- rollouts ---------------------------------------------------------------------------------

    def export_parquet(self, target: Path, *, bundles_at: tuple[str, str] | None = None) -> int:
        """Write every tuple (spec, status, final scripts) to `target` atomically; returns the row count.

        `bundles_at=(local, published)`: bundle paths under the folder `local` are written as under
        `published` instead (an s3:// output's staging folder and its URL), so the Parquet names
        where the bundles are read from, not where this machine staged them."""
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.tmp")
        quoted = str(tmp).replace("'", "''")
        query = sql("all_tuples_for_export")
        if bundles_at is not None:  # COPY takes no parameters: the two literals are quoted here
            local, published = (_literal(p.rstrip("/") + "/") for p in bundles_at)
            query = sql("tuples_published_at").format(query=query, local=local, published=published)
        with self._connection() as con:
            con.execute(f"COPY ({query}) TO '{quoted}' (FORMAT PARQUET)")
            count = con.execute(f"SELECT count(*) FROM read_parquet('{quoted}')").fetchone()[0]
        os.replace(tmp, target)
        return int(count)

    def refresh_snapshot(self, *, force: bool = False) -> Path | None:
        """Copy the warehouse to the snapshot file readers use (at most every SNAPSHOT_EVERY_S)."""
        with self._lock:
            if not force and time.monotonic() - self._last_snapshot < SNAPSHOT_EVERY_S:
                return None
            with self._connection() as con:
                con.execute("CHECKPOINT")
            tmp = self.snapshot_path.with_name(f".{self.snapshot_path.name}.{os.getpid()}.tmp")
            shutil.copyfile(self.path, tmp)
            owner_only(tmp)
            # Readers holding the old snapshot keep their inode; new readers see the new one.
            os.replace(tmp, self.snapshot_path)
            self._last_snapshot = time.monotonic()
            return self.snapshot_path


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
