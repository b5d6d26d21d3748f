"""`cuagym report training`: a training run's figures from the warehouse snapshot, and a PNG of its curves.

SFT runs are drawn per logged optimizer step (loss, learning rate); GSPO runs per iteration (loss,
mean reward, the shares of tokens clipped below and above the band, mean |advantage|).
`training_chart` returns the series it drew, read back from the figure itself, so what the PNG shows
can be held against the warehouse rows.

Example:
    >>> run = select_run(training_runs(Path("var/warehouse.duckdb")), None)  # doctest: +SKIP
    >>> training_chart(run, training_steps(Path("var/warehouse.duckdb"), run["run_id"]),
    ...                Path("output/reports/x.png")).series["loss"]            # doctest: +SKIP
    ([1.0, 2.0, 3.0], [7.63, 7.41, 7.27])
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from infra.errors import ConfigError
from infra.library_env import apply_library_defaults
from warehouse import reports

# per kind: the x column, then one panel per (title, columns drawn in it)
PANELS: dict[str, tuple[str, tuple[tuple[str, tuple[str, ...]], ...]]] = {
    "sft": ("step", (("loss", ("loss",)), ("learning rate", ("learning_rate",)))),
    "gspo": (
        "iteration",
        (
            ("loss", ("loss",)),
            ("reward mean", ("reward_mean",)),
            ("clipped token share", ("clip_low_fraction", "clip_high_fraction")),
            ("mean |advantage|", ("advantage_abs_mean",)),
        ),
    ),
}


@dataclass(frozen=True)
class TrainingChart:
    path: Path
    series: dict[str, tuple[list[float], list[float]]]  # column -> (x, y) as drawn; NaN where NULL


def _dicts(result) -> list[dict]:
    return [dict(zip(result.columns, row, strict=True)) for row in result.rows]


def training_runs(warehouse: Path) -> list[dict]:
    """Every training run with its totals, newest start first."""
    return _dicts(reports.training_runs(warehouse))


def training_steps(warehouse: Path, run_id: str) -> list[dict]:
    return _dicts(reports.training_steps(warehouse, run_id))


def training_evals(warehouse: Path, run_id: str) -> list[dict]:
    """The run's held-out evaluations (training/evaluate.py), the first one before training."""
    return _dicts(reports.training_evals(warehouse, run_id))


def select_run(runs: list[dict], run_id: str | None) -> dict:
    """The run `run_id` names — its id, or its output folder (the newest run written there) — or the
    newest run when it is None; an unknown one names the known ids."""
    if run_id is None:
        return runs[0]
    folder = str(Path(run_id).resolve())
    for run in runs:
        if run["run_id"] == run_id or run["output_dir"] == folder:
            return run
    known = ", ".join(r["run_id"] for r in runs)
    raise ConfigError(
        f"no training run {run_id!r} in the warehouse (known: {known})", hint="pass one of those to --run"
    )


def _value(value: float | None) -> float:
    return math.nan if value is None else float(value)


def training_chart(
    run: dict, steps: list[dict], target: Path, evals: list[dict] | None = None
) -> TrainingChart:
    """One panel per curve of `run` (PANELS), and one of its held-out evaluations when it has any
    (`held-out success_rate` and `held-out reward_mean`, 0 to 1, the first point before training),
    written to `target` as a PNG."""
    apply_library_defaults()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    x_col, panels = PANELS[run["kind"]]
    evals = evals or []
    fig, axes = plt.subplots(
        1, len(panels) + bool(evals), figsize=(4.2 * (len(panels) + bool(evals)), 3.8), squeeze=False
    )
    series: dict[str, tuple[list[float], list[float]]] = {}
    xs = [_value(s[x_col]) for s in steps]
    for ax, (title, columns) in zip(axes[0][: len(panels)], panels, strict=True):
        for column in columns:
            ax.plot(
                xs, [_value(s[column]) for s in steps], marker="." if len(steps) < 50 else None, label=column
            )
        for line in ax.get_lines():
            series[line.get_label()] = (
                [float(v) for v in line.get_xdata()],
                [float(v) for v in line.get_ydata()],
            )
        if len(columns) > 1:
            ax.legend(fontsize=8)
        ax.set_title(title)
        ax.set_xlabel(x_col)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if evals:
        ax = axes[0][-1]
        eval_x = "iteration" if run["kind"] == "gspo" else "step"
        for column, style in (
            ("success_rate", "-"),
            ("reward_mean", "--"),
        ):  # equal for all-or-nothing rewards
            label = f"held-out {column}"
            xs, ys = [_value(e[eval_x]) for e in evals], [_value(e[column]) for e in evals]
            ax.plot(xs, ys, style, marker="o", label=label)
            series[label] = (xs, ys)
        ax.set_ylim(-0.05, 1.05)
        ax.legend(fontsize=8)
        ax.set_title(f"held-out tuples ({evals[0]['tuples']})")
        ax.set_xlabel(eval_x)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    fig.suptitle(f"{run['kind']} {run['run_id']} ({run['model']})")
    fig.tight_layout()
    target.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(target, dpi=110)
    plt.close(fig)
    return TrainingChart(target, series)
