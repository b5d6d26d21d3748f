"""The operator's workflows on a real Prefect server: PostgreSQL, `prefect server start` on it,
prefect.yaml's deployments on a process work pool (`prefect deploy --all`) and a process worker,
all started once for this module by infra/server and stopped by `cuagym server stop`.

Each test drives the server's REST API exactly as the UI does: find a deployment
(`POST /api/deployments/filter`), start a custom run of it with parameters
(`POST /api/deployments/{id}/create_flow_run`), follow it (`GET /api/flow_runs/{id}`), and look at its
stages (`POST /api/task_runs/filter`) and logs (`POST /api/logs/filter`). The flow runs are the
worker's subprocesses; what they write to the warehouse and the output folder is read back here.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx
import pytest

from infra.errors import ConfigError
from infra.server.postgres import PostgresCluster, PostgresError
from infra.server.stack import OperatorServer, ServerState
from infra.settings import Settings, get_settings
from tasks.models import SynthParams, TupleStatus
from tasks.runtime import run_id_for
from warehouse.query import run_query

from .agents_fixtures import LazyGenerator
from .conftest import SKILLS
from .training.test_data import write_dataset

CUAGYM = str(Path(sys.executable).with_name("cuagym"))
FINAL_STATES = {"COMPLETED", "FAILED", "CRASHED", "CANCELLED"}
RUN_DEADLINE_S = 600  # a hang fails the test instead of blocking the suite; no run takes near this


class Operator:
    """A client of the server's REST API, as the UI is one."""

    def __init__(self, stack: OperatorServer, state: ServerState, settings: Settings) -> None:
        self.stack, self.state = stack, state
        self.api = httpx.Client(base_url=state.api_url, timeout=30.0)
        self.settings = settings
        self.worker_log = state.worker.log
        self.stopped = False  # set by the test that stops the server itself

    def deployment(self, name: str) -> dict:
        reply = self.api.post("/deployments/filter", json={"deployments": {"name": {"any_": [name]}}})
        reply.raise_for_status()
        (found,) = reply.json()
        return found

    def run(self, deployment: dict, parameters: dict) -> dict:
        """A custom run, then wait until the worker has finished it."""
        reply = self.api.post(
            f"/deployments/{deployment['id']}/create_flow_run", json={"parameters": parameters}
        )
        reply.raise_for_status()
        run_id = reply.json()["id"]
        deadline = time.monotonic() + RUN_DEADLINE_S
        while time.monotonic() < deadline:
            run = self.api.get(f"/flow_runs/{run_id}").json()
            if run["state_type"] in FINAL_STATES:
                return run
            time.sleep(1.0)
        pytest.fail(f"flow run {run_id} did not finish; worker log:\n{self.worker_log.read_text()[-4000:]}")

    def task_runs(self, flow_run: dict) -> list[dict]:
        body = {"flow_runs": {"id": {"any_": [flow_run["id"]]}}, "sort": "EXPECTED_START_TIME_ASC"}
        reply = self.api.post("/task_runs/filter", json=body)
        reply.raise_for_status()
        return reply.json()

    def stages(self, flow_run: dict) -> Counter:
        """Task runs by stage (a task run is named `<task name>-<suffix>`), counting completed ones."""
        runs = self.task_runs(flow_run)
        assert all(t["state_type"] == "COMPLETED" for t in runs), [(t["name"], t["state_type"]) for t in runs]
        return Counter(t["name"].rsplit("-", 1)[0] for t in runs)

    def wait_for_log(self, flow_run: dict, text: str) -> list[str]:
        """The run's log lines once one holds `text`: a run's last logs reach the API in a batch
        sent after it is already COMPLETED, so they may lag behind its state."""
        body = {"logs": {"flow_run_id": {"any_": [flow_run["id"]]}}, "sort": "TIMESTAMP_ASC"}
        deadline = time.monotonic() + 60
        while True:
            reply = self.api.post("/logs/filter", json=body)
            reply.raise_for_status()
            lines = [entry["message"] for entry in reply.json()]
            if any(text in line for line in lines) or time.monotonic() > deadline:
                return lines
            time.sleep(0.5)

    def sql(self, query: str) -> list[tuple]:
        return run_query(self.settings.warehouse_path, query).rows


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def operator(guest_python, tmp_path_factory):
    base = tmp_path_factory.mktemp("operator")
    postgres_dir = Path(tempfile.mkdtemp(prefix="cuagym-pg-"))  # the postgres user cannot enter pytest's tmp
    settings = Settings(var_dir=base / "var", output_dir=base / "output", guest_venv=guest_python)
    env = {
        "CUAGYM_VAR_DIR": str(settings.var_dir),
        "CUAGYM_OUTPUT_DIR": str(settings.output_dir),
        "CUAGYM_GUEST_VENV": str(guest_python),
        "PREFECT_HOME": str(base / "prefect"),
        # tests that happen to span 02:00 UTC must not get the nightly cron's 200-tuple run as well
        "PREFECT_SERVER_SERVICES_SCHEDULER_ENABLED": "false",
    }
    stack = OperatorServer(base / "server", port=_free_port(), postgres_dir=postgres_dir, env=env)
    state = stack.start()
    operator = Operator(stack, state, settings)
    try:
        yield operator
    finally:
        stop = None if operator.stopped else stop_server(base / "server")
        leftovers = [d.name for d in (state.server, state.worker) if d.running()]
        postgres_up = PostgresCluster(postgres_dir, port=state.postgres_port).running()
        for daemon in (state.server, state.worker):
            daemon.stop()  # only does something if `server stop` failed
        shutil.rmtree(postgres_dir, ignore_errors=True)
        if stop is not None:
            assert stop.returncode == 0 and "stopped" in stop.stderr, stop.stderr
        assert not leftovers and not postgres_up, (leftovers, postgres_up)


def stop_server(state_dir: Path) -> subprocess.CompletedProcess:
    """As an operator stops it: another process, working from the pids in server.json."""
    return subprocess.run(
        [CUAGYM, "server", "stop", "--state-dir", str(state_dir)], capture_output=True, text=True
    )


def flow_run_processes(flow_run_id: str) -> list[int]:
    """Pids of the processes a flow run consists of (the engine and what it started), found by the
    flow-run id the worker puts in their environment."""
    marker = f"PREFECT__FLOW_RUN_ID={flow_run_id}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker in (entry / "environ").read_bytes().split(b"\0"):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@pytest.fixture
def operator_settings(operator, monkeypatch):
    """This process's settings pointed at the worker's warehouse and output folder."""
    for key, value in {
        "CUAGYM_VAR_DIR": operator.settings.var_dir,
        "CUAGYM_OUTPUT_DIR": operator.settings.output_dir,
        "CUAGYM_GUEST_VENV": operator.settings.guest_venv,
    }.items():
        monkeypatch.setenv(key, str(value))
    get_settings.cache_clear()
    yield get_settings()
    get_settings.cache_clear()


def test_the_nightly_deployment_runs_each_stage_as_named_task_runs(operator):
    nightly = operator.deployment("nightly-synthesis")
    assert [s["schedule"]["cron"] for s in nightly["schedules"]] == ["0 2 * * *"]
    # The UI's custom run: the deployment's defaults with a few fields changed. Small: no teacher stage
    # (it needs desktops), no mutation stage (it is a stage inside each tuple's task run).
    small = {"count": 3, "seed": 3, "workers": 1, "teacher_k": 0, "mutants": 0, "corruption_mutants": 0}
    params = {**nightly["parameters"]["params"], **small}
    run = operator.run(nightly, {"params": params})
    assert run["state_type"] == "COMPLETED", run["state"]
    assert run["work_pool_name"] == "cuagym"

    stages = operator.stages(run)
    expected = {
        "plan-batch": 1,
        "synthesize-tuple": 3,
        "export-dataset": 1,
        "check-data": 1,
        "coverage-chart": 1,
    }
    assert {stage: stages[stage] for stage in expected} == expected, stages
    run_id = run_id_for(SynthParams.model_validate(params))
    summary = f"run {run_id}: 3 tuples, 3 verified, 0 rejected"
    lines = operator.wait_for_log(run, summary)
    assert any(summary in line for line in lines), lines
    # the worker's subprocess wrote the warehouse and the bundles this process reads
    tuples = operator.sql(f"SELECT task_id, status FROM tuples WHERE run_id = '{run_id}' ORDER BY 1")
    assert [status for _, status in tuples] == ["exported"] * 3
    bundles = sorted(p.name for p in (operator.settings.output_dir / "final").iterdir())
    assert {task_id for task_id, _ in tuples} <= set(bundles)
    assert operator.sql(f"SELECT status FROM runs WHERE run_id = '{run_id}'") == [("finished",)]


def test_failed_tuples_selected_in_the_warehouse_rerun_through_the_retry_deployment(
    operator, operator_settings
):
    from tasks.plan import plan_batch
    from tasks.runtime import build_context
    from tasks.synthesize import synthesize_tuple
    from warehouse.store import Warehouse

    # Two tuples that failed for real: a Generator whose golden patch does nothing, one round each.
    params = SynthParams(count=2, seed=8, apps=["files"], max_rounds=1, teacher_k=0)
    warehouse = Warehouse(operator_settings.warehouse_path)
    specs = plan_batch(params, operator_settings, run_id_for(params), warehouse)
    ctx = build_context(params, operator_settings, run_id_for(params), warehouse)
    ctx.deps.generator = LazyGenerator(SKILLS)
    try:
        assert all(synthesize_tuple(s, ctx).status is TupleStatus.REJECTED for s in specs)
    finally:
        ctx.deps.close()
    warehouse.refresh_snapshot(force=True)

    # The operator selects them (`cuagym sql`) and runs the retry deployment on exactly those ids.
    failed = [
        row[0]
        for row in operator.sql(
            "SELECT task_id FROM tuples WHERE status = 'rejected' AND reject_reason = 'golden_not_full'"
        )
    ]
    assert sorted(failed) == sorted(s.id for s in specs)
    retry = operator.deployment("retry")
    small = {"task_ids": failed, "workers": 1, "mutants": 0, "corruption_mutants": 0}
    params = {**retry["parameters"]["params"], **small}
    run = operator.run(retry, {"params": params})
    assert run["state_type"] == "COMPLETED", run["state"]

    # the benchmark index is built once, before the retried tuples (they are screened as first attempts)
    assert operator.stages(run) == {"select-for-retry": 1, "decontamination-index": 1, "synthesize-tuple": 2}
    ids = ", ".join(f"'{task_id}'" for task_id in failed)
    assert operator.sql(f"SELECT DISTINCT status, attempt FROM tuples WHERE task_id IN ({ids})") == [
        ("exported", 2)
    ]
    rounds = operator.sql(
        f"SELECT attempt, verdict, count(*) FROM rounds WHERE task_id IN ({ids}) GROUP BY ALL ORDER BY ALL"
    )
    assert rounds == [(1, "FAIL", 2), (2, "PASS", 2)]  # the failed attempt and its review are kept


def test_a_training_deployment_starts_from_the_ui(operator, tmp_path):
    write_dataset(tmp_path / "rollouts", n_steps=6)
    sft = operator.deployment("sft")
    config = {
        **sft["parameters"]["params"]["config"],
        "datasets": [str(tmp_path / "rollouts")],
        "output_dir": str(tmp_path / "sft"),
        "epochs": 2,
        "learning_rate": 1e-3,
    }
    run = operator.run(sft, {"params": {"config": config}})
    assert run["state_type"] == "COMPLETED", run["state"]

    assert operator.stages(run) == {"sft": 1}
    assert (tmp_path / "sft" / "config.json").is_file()  # the final save_pretrained
    curve = operator.sql(
        f"SELECT step FROM training_curves JOIN training_runs USING (run_id) "
        f"WHERE output_dir = '{tmp_path / 'sft'}' ORDER BY step"
    )
    assert curve == [(1,), (2,)]  # one sample, two epochs


def test_starting_again_while_up_changes_nothing(operator):
    """`make server` twice: the second finds server.json and the processes alive, and starts none."""
    again = OperatorServer(operator.stack.state_dir, port=operator.stack.port).start()
    assert (again.server.pid, again.worker.pid) == (operator.state.server.pid, operator.state.worker.pid)
    assert operator.api.get("/health").status_code == 200


def test_a_taken_port_is_refused_before_anything_starts(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(ConfigError, match=f"port {port} on 127.0.0.1 is taken"):
            OperatorServer(tmp_path / "server", port=port).start()
    assert not (tmp_path / "server").exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="only root hands the cluster to the postgres user")
def test_a_cluster_folder_the_postgres_user_cannot_reach_is_refused(tmp_path):
    tmp_path.chmod(0o700)  # as pytest makes its folders: only root may enter
    with pytest.raises(PostgresError, match="cannot reach") as raised:
        PostgresCluster(tmp_path / "postgres", port=_free_port()).ensure_initialised()
    assert "--state-dir" in raised.value.hint


def test_stopping_the_server_mid_run_ends_the_flow_runs_processes(operator):
    """`cuagym server stop` while a long nightly run is in flight: the run's processes (the worker's
    subprocess and whatever it started) end with the worker, none is left running. Last in the
    module: it stops the module's server."""
    nightly = operator.deployment("nightly-synthesis")
    long = {"count": 200, "seed": 21, "workers": 1, "teacher_k": 0, "mutants": 0, "corruption_mutants": 0}
    reply = operator.api.post(
        f"/deployments/{nightly['id']}/create_flow_run",
        json={"parameters": {"params": {**nightly["parameters"]["params"], **long}}},
    )
    reply.raise_for_status()
    run_id = reply.json()["id"]
    deadline = time.monotonic() + 180
    while (
        not (pids := flow_run_processes(run_id))
        or operator.api.get(f"/flow_runs/{run_id}").json()["state_type"] != "RUNNING"
    ):
        assert time.monotonic() < deadline, "the long run never started"
        time.sleep(0.5)
    time.sleep(3)  # well into its tuples
    operator.stopped = True
    stop = stop_server(operator.stack.state_dir)
    assert stop.returncode == 0 and "stopped" in stop.stderr, stop.stderr
    deadline = time.monotonic() + 30
    while (
        alive := [pid for pid in pids if Path(f"/proc/{pid}").exists() and not _zombie(pid)]
    ) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert alive == [], f"flow-run processes outlived `cuagym server stop`: {alive}"
    assert flow_run_processes(run_id) == []


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True
