"""The Dask runner (`--runner dask`) on real `distributed` clusters of worker processes: the same seed
gives the same verified tuples as the local runner, each worker builds its own deps from the settings
the run sends it, the flow process stays the warehouse's only writer, and a bad address is a clear
error."""

from __future__ import annotations

import hashlib
import json
import os
import re
import socket
import time
from pathlib import Path

import pytest

from infra.errors import ConfigError
from infra.settings import get_settings
from tasks.models import SynthParams, TupleStatus
from warehouse.query import run_query

pytestmark = pytest.mark.slow

# Small, and without desktops (--teacher-k 0): two apps the procedural backend co-generates in a few
# seconds a tuple, with the mutation stage on (it runs on the workers too).
PARAMS = SynthParams(count=3, seed=0, workers=2, apps=["files", "vscode"], teacher_k=0)
SCRIPTS = ("initial_setup.py", "golden_patch.py", "reward.py", "config.json")


def _use_dirs(monkeypatch, base: Path, guest_python: Path) -> None:
    monkeypatch.setenv("CUAGYM_VAR_DIR", str(base / "var"))
    monkeypatch.setenv("CUAGYM_OUTPUT_DIR", str(base / "out"))
    monkeypatch.setenv("CUAGYM_GUEST_VENV", str(guest_python))
    get_settings.cache_clear()


def _bundles(final: Path) -> dict[str, dict[str, str]]:
    """Per bundle: the hash of each script and config.json, task.json without its clock, and REVIEW.md
    with its measured seconds masked (the only things that differ between two identical runs)."""
    found = {}
    for bundle in sorted(p for p in final.iterdir() if p.is_dir() and not p.name.startswith(".")):
        files = {name: hashlib.sha256((bundle / name).read_bytes()).hexdigest() for name in SCRIPTS}
        task = json.loads((bundle / "task.json").read_text())
        task.get("provenance", task).pop("created_at", None)
        task.pop("created_at", None)
        files["task.json"] = json.dumps(task, sort_keys=True)
        files["REVIEW.md"] = re.sub(r"\d+\.\d+ s\b", "<s>", (bundle / "REVIEW.md").read_text())
        found[bundle.name] = files
    return found


def _rows(warehouse: Path) -> dict[str, list]:
    """What the runs wrote to the warehouse, minus clocks: rounds, mutants, findings, tuples."""
    queries = {
        "rounds": "SELECT task_id, attempt, round, verdict, reject_reason, reward_initial, reward_golden, "
        "mutation_units, mutation_total, mutation_killed FROM rounds ORDER BY ALL",
        "mutants": "SELECT task_id, round, mutant_id, kind, outcome, score FROM mutants ORDER BY ALL",
        "findings": "SELECT task_id, round, rule, line FROM scan_findings ORDER BY ALL",
        "tuples": "SELECT task_id, status, rounds, attempt, bundle_path IS NOT NULL FROM tuples ORDER BY ALL",
        "instructions": "SELECT task_id, instruction FROM specs ORDER BY ALL",
    }
    return {name: run_query(warehouse, sql).rows for name, sql in queries.items()}


def _deps_held_here() -> list[str]:
    """Run ids whose co-generation deps this process still holds (called on each Dask worker)."""
    from tasks.tuple_worker import held_deps

    return [held.run_id for held in held_deps.values()]


def _processes_naming(path: Path) -> list[str]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes()
        except OSError:
            continue
        if str(path).encode() in environ and int(pid) != os.getpid():
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            if "multiprocessing.resource_tracker" not in cmdline:  # this process's, for its lifetime
                found.append(f"{pid}: {cmdline}")
    return found


def test_dask_workers_make_the_same_tuples_as_the_local_runner(
    prefect_harness, guest_python, tmp_path, monkeypatch
):
    from distributed import Client, LocalCluster, get_task_stream

    from flows.synthesis import synthesis_flow
    from tasks.tuple_worker import held_deps

    # The workers start with an environment that points elsewhere: what they use must come from the
    # run (its settings travel with every task), not from whatever the worker hosts happen to have.
    _use_dirs(monkeypatch, tmp_path / "decoy", guest_python)
    cluster = LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0")
    try:
        _use_dirs(monkeypatch, tmp_path / "local", guest_python)
        local = synthesis_flow(PARAMS)
        _use_dirs(monkeypatch, tmp_path / "dask", guest_python)
        with Client(cluster) as client:
            with get_task_stream(client) as stream:
                dask = synthesis_flow(
                    PARAMS.model_copy(update={"runner": "dask", "dask_address": cluster.scheduler_address})
                )
            ran_on = [t["worker"] for t in stream.data if "cogenerate_tuple" in t["key"]]
            held = client.run(_deps_held_here)
            workers = set(cluster.scheduler_info["workers"])
    finally:
        cluster.close()

    assert local.run_id == dask.run_id  # where a run executes is not part of what it is
    assert sorted((o.task_id, o.status, o.rounds) for o in dask.outcomes) == sorted(
        (o.task_id, o.status, o.rounds) for o in local.outcomes
    )
    assert sum(o.status is TupleStatus.EXPORTED for o in dask.outcomes) >= 2, dask.outcomes
    assert not dask.checks_failed, dask.checks_failed
    assert _bundles(tmp_path / "dask" / "out" / "final") == _bundles(tmp_path / "local" / "out" / "final")
    wrote = _rows(tmp_path / "dask" / "var" / "warehouse.duckdb")
    assert wrote == _rows(tmp_path / "local" / "var" / "warehouse.duckdb")
    assert wrote["mutants"], "the mutation stage ran on the workers and its mutants were recorded"

    # The tuples were co-generated on both worker processes, with deps each built for itself and
    # released when the run ended; this process built none.
    assert len(ran_on) == 3 and set(ran_on) == workers, (ran_on, workers)
    assert held == {worker: [] for worker in workers}
    assert held_deps.values() == []
    assert not (tmp_path / "decoy" / "var" / "work").exists()
    deadline = time.monotonic() + 15
    while _processes_naming(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = _processes_naming(tmp_path)
    assert not left, f"a worker, sandbox or hub outlived the cluster: {left}"


def _worker_facts() -> dict:

    return {
        "pid": os.getpid(),
        "var": os.environ.get("CUAGYM_VAR_DIR"),
        "prefect_home": os.environ.get("PREFECT_HOME"),
    }


def test_without_an_address_a_local_cluster_of_worker_processes_starts(isolated_settings):
    from flows.dask_runner import cluster_threads, dask_task_runner

    with dask_task_runner(2) as runner:
        threads = cluster_threads(runner)
        facts = list(runner.client.run(_worker_facts).values())
    assert threads == 2  # one thread per worker process
    assert len({f["pid"] for f in facts}) == 2 and os.getpid() not in {f["pid"] for f in facts}
    assert all(f["var"] == str(isolated_settings.var_dir) for f in facts)
    assert all(f["prefect_home"] == os.environ["PREFECT_HOME"] for f in facts)


def test_an_unreachable_scheduler_is_a_clear_error():
    from flows.dask_runner import dask_task_runner

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    with (
        pytest.raises(ConfigError, match=f"cannot reach the Dask scheduler at {address}") as caught,
        dask_task_runner(2, address),
    ):
        pass
    assert "dask scheduler" in caught.value.hint


def test_an_address_without_the_dask_runner_is_refused():
    from flows.dask_runner import wants_dask

    with pytest.raises(ConfigError, match="--dask-address tcp://h:8786 was given with --runner local"):
        wants_dask("local", "tcp://h:8786")
