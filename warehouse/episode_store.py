"""The episode half of the warehouse's rows, mixed into `Warehouse` (warehouse/store.py): rollout runs,
rollouts and their steps, the teacher verdict, training runs and steps, GSPO rollouts and frontier
EMAs. Each method writes through `Warehouse._write` (one short transaction) or reads through
`Warehouse._rows`; SQL is loaded by name from warehouse/sql/."""

from __future__ import annotations

import json
from collections.abc import Sequence

from warehouse.db import sql
from warehouse.values import now as _now
from warehouse.values import to_json as _json

GSPO_STEP_KEYS = (
    "iteration", "rollouts", "groups", "zero_variance_groups", "reward_mean", "unscored",
    "advantage_abs_mean", "ratio_mean", "clip_low_fraction", "clip_high_fraction", "rollout_seconds",
)  # fmt: skip


class EpisodeRows:
    """Rollout and training rows (see the module docstring); needs `_write` and `_rows`."""

    def start_rollout_run(self, run_id: str, params: dict) -> None:
        with self._write() as con:
            con.execute(
                sql("start_rollout_run"), {"run_id": run_id, "started_at": _now(), "params": _json(params)}
            )

    def finish_rollout_run(self, run_id: str, summary: dict) -> None:
        with self._write() as con:
            con.execute(
                sql("finish_rollout_run"),
                {"run_id": run_id, "finished_at": _now(), "summary": _json(summary)},
            )

    def save_rollout(self, row: dict, steps: Sequence[dict]) -> None:
        """One finished rollout and its steps, atomically (a resumed run skips it afterwards). Rows are
        keyed by run: another run's episode of the same rollout id adds rows; only the same run saving
        its episode again replaces it, steps included."""
        key = {"rollout_id": row["rollout_id"], "model": row["model"], "run_id": row["run_id"]}
        with self._write() as con:
            con.execute(sql("insert_rollout"), row | {"created_at": _now()})
            con.execute(sql("delete_rollout_steps"), key)
            for step in steps:
                con.execute(sql("insert_rollout_step"), key | step)

    def done_rollouts(self, model: str, dataset: str) -> set[str]:
        """Rollout ids the model already has in that dataset (whichever run wrote them)."""
        return {r["rollout_id"] for r in self._rows("done_rollouts", {"model": model, "dataset": dataset})}

    def rollout_candidates(self, **filters) -> list[dict]:
        """Exported tuples matching `cuagym rollout`'s filters (status, ids, app, family, run_id, limit)."""
        params = {
            "status": None,
            "ids": None,
            "app": None,
            "family": None,
            "run_id": None,
            "limit": None,
        } | filters
        return self._rows("rollout_candidates", params)

    def set_teacher(self, task_id: str, teacher: str, flag: str | None = None) -> None:
        """The teacher stage's verdict on a tuple (teacher_solved | teacher_failed) and its flag."""
        with self._write() as con:
            con.execute(
                sql("set_teacher"), {"task_id": task_id, "teacher": teacher, "flag": flag, "now": _now()}
            )

    # --- training ---------------------------------------------------------------------------------

    def start_training_run(self, row: dict) -> None:
        """Open (or, for a resumed run, reopen) a training run: run_id, kind, model, output_dir,
        config (a dict), resumed_from, samples, dropped."""
        with self._write() as con:
            con.execute(
                sql("start_training_run"), row | {"config": _json(row["config"]), "started_at": _now()}
            )

    def save_training_step(self, row: dict) -> None:
        """One logged optimizer step: run_id, step, epoch, loss, learning_rate, grad_norm, tokens,
        trained_tokens, seconds, and for GSPO the iteration's GSPO_STEP_KEYS (a step logged again
        after a resume replaces the old row)."""
        with self._write() as con:
            con.execute(
                sql("insert_training_step"), dict.fromkeys(GSPO_STEP_KEYS) | row | {"recorded_at": _now()}
            )

    def save_training_eval(self, run_id: str, row: dict) -> None:
        """One held-out evaluation (training/evaluate.py `Evaluation.row()`)."""
        with self._write() as con:
            con.execute(sql("insert_training_eval"), row | {"run_id": run_id, "recorded_at": _now()})

    def training_evals(self, run_id: str) -> list[dict]:
        return self._rows("training_evals", {"run_id": run_id})

    def save_gspo_rollouts(self, rows: list[dict]) -> None:
        """The rollouts of one GSPO iteration: run_id, iteration, tuple_id, repeat, reward, advantage,
        model_steps, completion_tokens, seconds."""
        now = _now()
        with self._write() as con:
            for row in rows:
                con.execute(sql("insert_gspo_rollout"), row | {"recorded_at": now})

    def gspo_rollouts(self, run_id: str) -> list[dict]:
        return self._rows("gspo_rollouts", {"run_id": run_id})

    def save_frontier_emas(self, rows: list[dict]) -> None:
        """One GSPO iteration's frontier state of each task it drew: run_id, iteration, tuple_id,
        success_rate, success_ema, weight, attempts, unscored (a redone iteration replaces its rows)."""
        now = _now()
        with self._write() as con:
            for row in rows:
                con.execute(sql("insert_frontier_ema"), row | {"recorded_at": now})

    def frontier_emas(self, run_id: str, *, through_iteration: int) -> list[dict]:
        """Each task's latest frontier row up to `through_iteration`: tuple_id, last_iteration,
        last_rate, success_ema, attempts, unscored."""
        return self._rows("frontier_emas", {"run_id": run_id, "through_iteration": through_iteration})

    def finish_training_run(self, run_id: str, *, status: str, summary: dict) -> None:
        with self._write() as con:
            con.execute(
                sql("finish_training_run"),
                {"run_id": run_id, "status": status, "finished_at": _now(), "summary": _json(summary)},
            )

    def training_steps(self, run_id: str) -> list[dict]:
        return self._rows("training_steps", {"run_id": run_id})

    def training_run(self, run_id: str) -> dict | None:
        rows = self._rows("training_run", {"run_id": run_id})
        return rows[0] | {"summary": json.loads(rows[0]["summary"] or "null")} if rows else None
