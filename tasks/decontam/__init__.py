"""Decontamination: no tuple too close to a benchmark task (issue 29).

The stage compares each verified tuple with every task of the benchmark sets a run is given — on the
instruction (word 3-gram containment and MiniLM cosine) and on what the reward checks (files, cells,
values, URLs) — and marks one above the thresholds `contaminated`, never exported. Modules:
`config` (thresholds and default sets), `sets` (loading OSWorld's layout and JSONL), `targets`
(normalising text and targets), `index` (built once per run, vectorised scoring), `stage` (deciding
and recording). Nothing here imports Prefect.
"""
