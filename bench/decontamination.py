"""Decontamination cost per tuple against a benchmark set of 400 tasks and of 10,000.

Synthetic benchmark tasks (office, web and file work drawn from word lists, each with file, cell and
value targets) stand in for OSWorld-sized and large sets. The index is built once per set size (its
build time, embeddings included, is its own row); then TUPLES synthetic tuples are checked one at a
time, as the stage checks them, timing the instruction's MiniLM embedding and the search (3-gram and
target sparse products, the embedding product, the decision) apart. Target: <= 20 ms per tuple at
10,000 tasks. Run: `.venv/bin/python bench/decontamination.py [TUPLES]`.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from rich.console import Console
from rich.table import Table

from tasks.decontam.config import Thresholds
from tasks.decontam.index import BenchmarkIndex
from tasks.decontam.sets import BenchmarkTask
from tasks.decontam.stage import decide
from tasks.decontam.targets import spec_targets, text_targets
from tasks.dedupe import load_embedder

SIZES = (400, 10_000)
VERBS = ["Open", "Update", "Fill", "Sort", "Rename", "Format", "Export", "Merge", "Move", "Insert", "Delete"]
OBJECTS = ["the budget sheet", "the quarterly report", "the slide deck", "the invoice folder", "the settings",
           "the contact list", "the reading list", "the sprint board", "the inbox", "the bookmarks"]  # fmt: skip
ACTIONS = ["so that column {c} holds the totals", "and bold the header row", "and set the margins to 2 cm",
           "then save it as {f}", "and add a chart of {c}2:{c}13", "and label the row {v}",
           "and move it to the Archive folder", "and forward it to {v}@example.test"]  # fmt: skip
SUFFIXES = ["xlsx", "docx", "pptx", "csv", "pdf", "txt", "json"]


def synthetic_instruction(rng: random.Random) -> tuple[str, str]:
    name = f"{rng.choice(['sales', 'grades', 'trip', 'stock', 'team', 'notes'])}_{rng.randrange(10_000)}"
    file = f"{name}.{rng.choice(SUFFIXES)}"
    action = rng.choice(ACTIONS).format(
        c=rng.choice("BCDEFGH"), f=file, v=rng.choice(["Q3", "north", "draft"])
    )
    text = f"{rng.choice(VERBS)} {rng.choice(OBJECTS)} in ~/Documents/{file} {action}; the total is {rng.randrange(100, 99_999)}.{rng.randrange(10, 99)}."
    return text, file


def benchmark_set(size: int, seed: int) -> list[BenchmarkTask]:
    rng = random.Random(seed)
    tasks = []
    for i in range(size):
        text, _ = synthetic_instruction(rng)
        tasks.append(BenchmarkTask("synthetic", f"b{i:05d}", text, frozenset(text_targets(text))))
    return tasks


def measure(
    index: BenchmarkIndex, tuples: list[str], thresholds: Thresholds
) -> tuple[list[float], list[float]]:
    embed_ms, search_ms = [], []
    for n, text in enumerate(tuples):
        start = time.perf_counter()
        vector = index.embed([text])[0]
        embedded = time.perf_counter()
        scores = index.score(text, spec_targets(text, {}), vector)
        decide(f"t{n}", scores, index.tasks, thresholds)
        done = time.perf_counter()
        embed_ms.append((embedded - start) * 1000)
        search_ms.append((done - embedded) * 1000)
    return embed_ms, search_ms


def main(count: int) -> None:
    console = Console()
    embed = load_embedder()
    embed(["warm up"])  # the model's first call allocates; a run pays it once
    rng = random.Random(7)
    tuples = [synthetic_instruction(rng)[0] for _ in range(count)]
    table = Table(title=f"decontamination per tuple ({count} tuples, one at a time)")
    for col in ("benchmark tasks", "index build s", "embed ms (median)", "search ms (median)",
                "search ms (p95)", "total ms (median)", "total ms (p95)"):  # fmt: skip
        table.add_column(col, justify="right")
    for size in SIZES:
        tasks = benchmark_set(size, seed=size)
        start = time.perf_counter()
        index = BenchmarkIndex(tasks, embed)
        build = time.perf_counter() - start
        embed_ms, search_ms = measure(index, tuples, Thresholds())
        total = [e + s for e, s in zip(embed_ms, search_ms, strict=True)]
        q95 = lambda xs: statistics.quantiles(xs, n=20)[-1]  # noqa: E731
        table.add_row(
            f"{size:,}", f"{build:.1f}", f"{statistics.median(embed_ms):.2f}",
            f"{statistics.median(search_ms):.2f}", f"{q95(search_ms):.2f}",
            f"{statistics.median(total):.2f}", f"{q95(total):.2f}",
        )  # fmt: skip
        console.print(f"{size:,} tasks: index built in {build:.1f} s")
    console.print(table)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
