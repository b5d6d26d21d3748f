"""A real Prefect server for operators: PostgreSQL, `prefect server`, the deployments of prefect.yaml
on a process work pool, and a worker that runs them (`make server`, `cuagym server start|stop`).

    postgres.py        a private PostgreSQL cluster (initdb, pg_ctl, createdb)
    daemon.py          detached processes, stopped later by process group from their recorded pids
    prefect_server.py  `prefect server start` on that database, up when /api/health answers
    work_pool.py       the process work pool, `prefect deploy --all`, `prefect worker start`
    stack.py           all of it in order, with the state file `stop` reads
"""
