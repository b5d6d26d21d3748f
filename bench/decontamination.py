"""Decontamination cost per tuple against a benchmark set of 400 tasks and of 10,000.

Synthetic benchmark tasks (office, web and file work drawn from word lists, each with file, cell and
value targets) stand in for OSWorld-sized and large sets. The index is built once per set size (its
build time, embeddings included, is its own row); then TUPLES synthetic tuples are checked, timing
the instruction's MiniLM embedding and the search (3-gram and target sparse products, the embedding
product, the decision) apart. The embedding is timed two ways: one call per tuple (what a tuple the
batch did not prime costs) and batched, BATCH instructions per call (what `Decontaminator.prime` does
when a batch is planned: per tuple, the call's time over BATCH). Target: <= 20 ms per tuple at 10,000
tasks. Run: `.venv/bin/python bench/decontamination.py [TUPLES]`.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

import numpy as np
from rich.console import Console
from rich.table import Table

from tasks.decontam.config import Thresholds
from tasks.decontam.index import BenchmarkIndex
from tasks.decontam.sets import BenchmarkTask
from tasks.decontam.stage import decide
from tasks.decontam.targets import spec_targets, text_targets
from tasks.dedupe import load_embedder

SIZES = (400, 10_000)
BATCH = 200  # the nightly deployment's count (prefect.yaml): one batch, one priming call
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


def search_ms(
    index: BenchmarkIndex, tuples: list[str], vectors: np.ndarray, thresholds: Thresholds
) -> list[float]:
    times = []
    for n, (text, vector) in enumerate(zip(tuples, vectors, strict=True)):
        start = time.perf_counter()
        scores = index.score(text, spec_targets(text, {}), vector)
        decide(f"t{n}", scores, index.tasks, thresholds)
        times.append((time.perf_counter() - start) * 1000)
    return times


def single_embed_ms(index: BenchmarkIndex, tuples: list[str]) -> tuple[list[float], np.ndarray]:
    times, vectors = [], []
    for text in tuples:
        start = time.perf_counter()
        vectors.append(index.embed([text])[0])
        times.append((time.perf_counter() - start) * 1000)
    return times, np.stack(vectors)


def batched_embed_ms(index: BenchmarkIndex, tuples: list[str]) -> float:
    """Per tuple: the embedding calls' time over the tuples, BATCH instructions per call."""
    start = time.perf_counter()
    for i in range(0, len(tuples), BATCH):
        index.embed(tuples[i : i + BATCH])
    return (time.perf_counter() - start) * 1000 / len(tuples)


def main(count: int) -> None:
    console = Console()
    embed = load_embedder()
    embed(["warm up"])  # the model's first call allocates; a run pays it once
    rng = random.Random(7)
    tuples = [synthetic_instruction(rng)[0] for _ in range(count)]
    table = Table(
        title=f"decontamination per tuple ({count} tuples; batched: {BATCH} instructions per embedding call)"
    )
    for col in ("benchmark tasks", "index build s", "embed ms, own call (median)", "embed ms, batched",
                "search ms (median)", "search ms (p95)", "total ms, own call (median)",
                "total ms, batched (median)"):  # fmt: skip
        table.add_column(col, justify="right")
    for size in SIZES:
        tasks = benchmark_set(size, seed=size)
        start = time.perf_counter()
        index = BenchmarkIndex(tasks, embed)
        build = time.perf_counter() - start
        console.print(f"{size:,} tasks: index built in {build:.1f} s")
        single, vectors = single_embed_ms(index, tuples)
        batched = batched_embed_ms(index, tuples)
        search = search_ms(index, tuples, vectors, Thresholds())
        q95 = statistics.quantiles(search, n=20)[-1]
        median_search = statistics.median(search)
        table.add_row(
            f"{size:,}", f"{build:.1f}", f"{statistics.median(single):.2f}", f"{batched:.2f}",
            f"{median_search:.2f}", f"{q95:.2f}",
            f"{statistics.median([e + s for e, s in zip(single, search, strict=True)]):.2f}",
            f"{batched + median_search:.2f}",
        )  # fmt: skip
    console.print(table)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
