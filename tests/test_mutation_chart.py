"""The mutation chart names the apps its bar colours stand for (issue "What operators and analysts
hit", item 7). The per-run default file name is held by tests/test_mutation_pipeline.py."""

from __future__ import annotations

from tasks.mutation.report import mutation_chart, mutation_figure

ROWS = [
    {"family": "calc.sum", "app": "calc", "mutation_score": 1.0, "mutants": 8, "killed": 8},
    {"family": "calc.chart", "app": "calc", "mutation_score": 0.75, "mutants": 8, "killed": 6},
    {"family": "writer.heading", "app": "writer", "mutation_score": 0.9, "mutants": 10, "killed": 9},
]


def test_the_legend_names_every_app_beside_the_target_lines():
    import matplotlib.pyplot as plt

    fig = mutation_figure(ROWS)
    try:
        labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    finally:
        plt.close(fig)
    assert labels[:2] == ["95 % (overall target)", "80 % (per-family floor)"]
    assert labels[2:] == ["calc", "writer"]


def test_the_chart_is_written_where_it_is_asked(tmp_path):
    target = tmp_path / "reports" / "run-1-mutation.png"
    assert mutation_chart(ROWS, target) == target and target.stat().st_size > 5_000
