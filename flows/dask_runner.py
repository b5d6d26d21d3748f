"""The Dask task runner (`--runner dask`): per-tuple (per-episode) tasks on Dask worker processes.

Without an address it starts a `distributed.LocalCluster` of `workers` processes with one thread
each (each worker makes its own sandboxes); with one (`--dask-address tcp://scheduler:8786`) it
connects to that scheduler, e.g. a dask-kubernetes cluster's. The workers report their task runs to
this flow's Prefect API: the flow's own, ephemeral one included, whose address they are handed.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
from collections.abc import Callable, Iterator
from urllib.parse import urlsplit

from prefect.context import FlowRunContext
from prefect.settings import PREFECT_API_URL, get_current_settings, temporary_settings
from prefect_dask import DaskTaskRunner

from infra.errors import ConfigError

log = logging.getLogger(__name__)

CONNECT_TIMEOUT_S = 10  # how long a scheduler may take to answer before the address counts as unreachable


def wants_dask(runner: str, address: str | None) -> bool:
    """Whether the run uses Dask; an address without `--runner dask` is a contradiction."""
    if address and runner != "dask":
        raise ConfigError(
            f"--dask-address {address} was given with --runner {runner}",
            hint="add --runner dask, or drop --dask-address",
        )
    return runner == "dask"


@contextlib.contextmanager
def dask_task_runner(
    workers: int, address: str | None = None, *, release: Callable[[], None] | None = None
) -> Iterator[DaskTaskRunner]:
    """A started DaskTaskRunner whose client is connected (so a bad address fails here, clearly).
    `release` runs on every worker when the run is done with them: it frees what the run's tasks
    kept there (their helper processes), on a long-lived cluster as on a LocalCluster about to stop."""
    if address:
        runner = DaskTaskRunner(address=address, client_kwargs={"timeout": f"{CONNECT_TIMEOUT_S}s"})
    else:
        runner = DaskTaskRunner(
            cluster_kwargs={
                "n_workers": workers,
                "processes": True,
                "threads_per_worker": 1,
                "dashboard_address": ":0",  # a free port: several runs may share a host
                # imported as each worker starts: the cluster is up when its workers can take a task
                "preload": ["flows.worker_tasks"],
            }
        )
    with _api_for_workers(remote=bool(address) and not _is_loopback(address)), runner:
        try:
            client = runner.client
        except (OSError, ValueError, TypeError) as exc:
            if not address:
                raise
            raise ConfigError(
                f"cannot reach the Dask scheduler at {address}: {exc}",
                hint="check the address (tcp://host:8786) and that `dask scheduler` runs there, "
                "or drop --dask-address to start a local cluster",
            ) from exc
        log.info("Dask: %d worker thread(s) at %s", cluster_threads(runner), client.scheduler.address)
        try:
            yield runner
        finally:
            if release is not None:
                _release_on_workers(runner, release)


def _release_on_workers(runner: DaskTaskRunner, release: Callable[[], None]) -> None:
    try:
        runner.client.run(release)
    except Exception as exc:  # a worker that died took its helpers with it (they watch their parent)
        log.warning("could not release the run's helpers on every Dask worker: %s", exc)


def cluster_threads(runner: DaskTaskRunner) -> int:
    """Worker threads the cluster has now (an adaptive cluster may have none yet)."""
    return sum(runner.client.nthreads().values())


@contextlib.contextmanager
def _api_for_workers(*, remote: bool) -> Iterator[None]:
    """Hand the workers this flow's API address: with no PREFECT_API_URL, each worker process would
    otherwise start an ephemeral API of its own, which the flow's UI never sees."""
    if get_current_settings().api.url:
        yield
        return
    context = FlowRunContext.get()
    url = str(context.client.api_url) if context else None
    if not url:
        yield
        return
    if remote and _is_loopback(url):
        log.warning(
            "workers of a remote Dask cluster cannot reach this run's ephemeral Prefect API (%s); "
            "start `prefect server start --host 0.0.0.0` and export PREFECT_API_URL",
            url,
        )
    with temporary_settings(updates={PREFECT_API_URL: url}):
        yield


def _is_loopback(url: str) -> bool:
    """Whether a URL (http://…, tcp://…) names this host."""
    host = urlsplit(url).hostname or ""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"
