"""`cuagym report training`: the newest (or named) training run's summary table and a PNG whose curves
are the warehouse rows — an SFT run trained for real, a GSPO run recorded through the store methods
its trainer writes with; unknown run ids and an empty warehouse are told apart."""

from __future__ import annotations

import math

import pytest
from click.testing import CliRunner
from PIL import Image

from flows.cli import main
from training.config import load_config
from training.report import select_run, training_chart, training_runs, training_steps
from training.sft import run_sft
from warehouse.store import Warehouse

from .test_data import write_dataset

# two GSPO iterations as training/gspo_records.py's record_iteration writes them; iteration 2 has an unscored group
GSPO_ITERATIONS = [
    dict(iteration=1, step=2, loss=0.0125, reward_mean=0.5, unscored=0, groups=2, zero_variance_groups=1,
         advantage_abs_mean=0.25, clip_low_fraction=0.1, clip_high_fraction=0.0, tokens=900, seconds=1.5),
    dict(iteration=2, step=4, loss=-0.003, reward_mean=None, unscored=8, groups=2, zero_variance_groups=2,
         advantage_abs_mean=0.0, clip_low_fraction=0.0, clip_high_fraction=0.2, tokens=600, seconds=0.5),
]  # fmt: skip


def _record_gspo(warehouse: Warehouse, run_id: str) -> None:
    config = {"kind": "gspo", "group_size": 4}
    warehouse.start_training_run(
        dict(run_id=run_id, kind="gspo", model="tiny:qwen2-vl", output_dir="var/g", config=config,
             resumed_from=None, samples=0, dropped=0)
    )  # fmt: skip
    for it in GSPO_ITERATIONS:
        warehouse.save_training_step(
            it | dict(run_id=run_id, epoch=None, learning_rate=1e-4, grad_norm=0.5, trained_tokens=100,
                      rollouts=8, ratio_mean=1.0, rollout_seconds=3.0)
        )  # fmt: skip
    warehouse.finish_training_run(run_id, status="done", summary={})
    warehouse.refresh_snapshot(force=True)


def _png_size(path) -> tuple[int, int]:
    with Image.open(path) as image:
        assert image.format == "PNG"
        image.verify()
        return image.size


def test_report_training_shows_the_newest_run_and_draws_its_warehouse_rows(isolated_settings, tmp_path):
    path = isolated_settings.warehouse_path
    runner = CliRunner()
    empty = runner.invoke(main, ["report", "training", "--warehouse", str(tmp_path / "none.duckdb")])
    assert empty.exit_code == 1 and "no warehouse at" in empty.output  # no file at all: a hint, not a crash
    Warehouse(path).refresh_snapshot(force=True)
    result = runner.invoke(main, ["report", "training", "--warehouse", str(path)])
    assert result.exit_code == 0 and "no training runs" in result.output, result.output

    _record_gspo(Warehouse(path), "gspo-older")
    write_dataset(tmp_path / "ds", n_steps=6)
    config = load_config(None, {"kind": "sft", "model": "tiny:qwen2-vl", "family": "qwen2.5-vl",
                                "datasets": [str(tmp_path / "ds")], "output_dir": str(tmp_path / "sft"),
                                "epochs": 3, "learning_rate": 1e-3, "min_learning_rate": 1e-4})  # fmt: skip
    sft = run_sft(config, warehouse=path)  # the newest run: the default
    assert sft.steps == 3

    result = runner.invoke(main, ["report", "training", "--warehouse", str(path)])
    assert result.exit_code == 0, result.output
    assert sft.run_id in result.output and f"{sft.first_loss:.4f}" in result.output
    assert f"{sft.last_loss:.4f}" in result.output and "GSPO iterations" not in result.output
    png = isolated_settings.output_dir / "reports" / f"{sft.run_id}-training.png"
    assert f"{sft.run_id}-training.png" in result.output.replace("\n", "")
    width, height = _png_size(png)
    assert width > 600 and height > 300

    # the curves drawn are the warehouse's rows of that run
    run = select_run(training_runs(path), None)
    rows = training_steps(path, sft.run_id)
    drawn = training_chart(run, rows, tmp_path / "sft.png").series
    assert drawn["loss"] == ([1.0, 2.0, 3.0], pytest.approx(sft.losses))
    assert drawn["learning_rate"][1] == pytest.approx([r["learning_rate"] for r in rows])
    assert drawn["learning_rate"][1][0] == pytest.approx(1e-3) and drawn["learning_rate"][1][-1] < 1e-3

    chart = tmp_path / "g.png"
    result = runner.invoke(main, ["report", "training", "--warehouse", str(path), "--run", "gspo-older",
                                  "--chart", str(chart)])  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.output
    assert "GSPO iterations" in out and "0.500" in out and "1/2" in out and "2/2" in out
    assert "1500" in out and "750.0" in out  # tokens over the run, and per second of update
    assert _png_size(chart)[0] > 1000  # four panels side by side
    drawn = training_chart(select_run(training_runs(path), "gspo-older"), training_steps(path, "gspo-older"),
                           tmp_path / "g2.png").series  # fmt: skip
    for column in ("loss", "reward_mean", "clip_low_fraction", "clip_high_fraction", "advantage_abs_mean"):
        xs, ys = drawn[column]
        assert xs == [1.0, 2.0]
        expected = [math.nan if it[column] is None else it[column] for it in GSPO_ITERATIONS]
        assert ys == pytest.approx(expected, nan_ok=True), column

    unknown = runner.invoke(main, ["report", "training", "--warehouse", str(path), "--run", "sft-nope"])
    assert unknown.exit_code == 1 and "sft-nope" in unknown.output
    assert sft.run_id in unknown.output and "gspo-older" in unknown.output and "hint" in unknown.output


def test_report_training_tokens_per_s_is_the_sql_views_and_gspo_counts_what_it_sampled(tmp_path):
    from warehouse.query import run_query

    path = tmp_path / "w.duckdb"
    warehouse = Warehouse(path)
    warehouse.start_training_run(
        dict(run_id="sft-uneven", kind="sft", model="tiny", output_dir="var/s", config={},
             resumed_from=None, samples=2, dropped=0)
    )  # fmt: skip
    # a fast step and a slow one: 2,000 tokens in 2 s is 1,000 tokens/s, while the mean of the two
    # steps' rates (10,000 and 526) is 5,263 — the report and the views must say the same 1,000
    for step, seconds in ((1, 0.1), (2, 1.9)):
        warehouse.save_training_step(
            dict(run_id="sft-uneven", step=step, epoch=1.0, loss=1.0, learning_rate=1e-4, grad_norm=1.0,
                 tokens=1000, trained_tokens=400, seconds=seconds)
        )  # fmt: skip
    _record_gspo(warehouse, "gspo-flat")
    for it in GSPO_ITERATIONS:  # every group zero-variance in this run: nothing trained, tokens sampled
        warehouse.save_training_step(
            it | dict(run_id="gspo-flat", epoch=None, learning_rate=1e-4, grad_norm=None, tokens=0,
                      trained_tokens=0, rollouts=2, rollout_seconds=3.0, zero_variance_groups=2)
        )  # fmt: skip
    warehouse.save_gspo_rollouts(
        [dict(run_id="gspo-flat", iteration=1, tuple_id="t", repeat=k, reward=0.0, advantage=0.0,
              model_steps=2, completion_tokens=24, seconds=1.0) for k in range(2)]
    )  # fmt: skip
    warehouse.refresh_snapshot(force=True)

    totals = "SELECT tokens_per_s FROM training_run_totals WHERE run_id = 'sft-uneven'"
    assert run_query(path, totals).rows == [(pytest.approx(1000.0),)]
    so_far = "SELECT tokens_per_s_so_far FROM training_curves WHERE run_id = 'sft-uneven' ORDER BY step"
    assert run_query(path, so_far).rows[-1] == (pytest.approx(1000.0),)
    sft = CliRunner().invoke(main, ["report", "training", "--warehouse", str(path), "--run", "sft-uneven",
                                    "--chart", str(tmp_path / "s.png")])  # fmt: skip
    assert sft.exit_code == 0, sft.output
    assert "1000.0 (tokens / step seconds)" in sft.output and "5263" not in sft.output

    gspo = CliRunner().invoke(main, ["report", "training", "--warehouse", str(path), "--run", "gspo-flat",
                                     "--chart", str(tmp_path / "g.png")])  # fmt: skip
    assert gspo.exit_code == 0, gspo.output
    assert "tokens sampled" in gspo.output and " 48 " in gspo.output.replace("│", " ")
    assert "tokens (updates)" in gspo.output


def test_report_training_shows_held_out_evaluations_as_a_table_a_view_and_a_panel(tmp_path):
    from warehouse.query import run_query

    path = tmp_path / "w.duckdb"
    warehouse = Warehouse(path)
    _record_gspo(warehouse, "gspo-evaluated")
    # before training (iteration 0) and after each iteration, as training/evaluate.py records them;
    # iteration 1's evaluation has an unscored episode (its desktop failed): left out of the rates
    evals = [
        dict(step=0, iteration=0, tuples=2, episodes=4, scored=4, successes=1, reward_mean=0.25,
             success_rate=0.25, seconds=3.0),
        dict(step=2, iteration=1, tuples=2, episodes=4, scored=3, successes=2, reward_mean=0.8,
             success_rate=2 / 3, seconds=3.5),
        dict(step=4, iteration=2, tuples=2, episodes=4, scored=4, successes=4, reward_mean=1.0,
             success_rate=1.0, seconds=2.5),
    ]  # fmt: skip
    for row in evals:
        warehouse.save_training_eval("gspo-evaluated", row)
    warehouse.refresh_snapshot(force=True)

    view = run_query(path, "SELECT step, success_rate, success_gain FROM training_eval_curves ORDER BY step")
    assert view.rows == [
        (0, 0.25, 0.0),
        (2, pytest.approx(2 / 3), pytest.approx(2 / 3 - 0.25)),
        (4, 1.0, 0.75),
    ]
    chart = tmp_path / "g.png"
    result = CliRunner().invoke(main, ["report", "training", "--warehouse", str(path), "--run", "gspo-evaluated",
                                       "--chart", str(chart)])  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.output.replace("│", " ")
    assert "held-out evaluation gspo-evaluated" in result.output
    assert " 1/4 " in out and " 2/3 " in out and " 4/4 " in out and "67%" in out and "100%" in out
    assert _png_size(chart)[0] > 1200  # five panels: the four GSPO ones and the held-out one
    run = select_run(training_runs(path), "gspo-evaluated")
    drawn = training_chart(run, training_steps(path, "gspo-evaluated"), tmp_path / "g2.png",
                           [dict(r) for r in evals]).series  # fmt: skip
    assert drawn["held-out success_rate"] == ([0.0, 1.0, 2.0], pytest.approx([0.25, 2 / 3, 1.0]))
    assert drawn["held-out reward_mean"][1] == pytest.approx([0.25, 0.8, 1.0])
