"""A private PostgreSQL cluster for the Prefect server, from Debian's postgresql-15
(infra/setup/apt-packages.txt): `initdb` once into a directory, `pg_ctl` start and stop, databases
created on demand.

PostgreSQL refuses to run as root, so as root its server programs run as the `postgres` system user
(the Debian package creates it) and the cluster directory belongs to that user. The cluster listens
on 127.0.0.1 only, with no unix socket (no path-length limit, no shared /var/run/postgresql), and
only password logins: the superuser's password is generated at initdb and kept beside the data.

    cluster = PostgresCluster(Path("var/prefect-server/postgres"), port=54321)
    cluster.ensure_initialised(); cluster.start(); cluster.create_database("prefect")
    cluster.url("prefect")  # postgresql+asyncpg://postgres:…@127.0.0.1:54321/prefect
"""

from __future__ import annotations

import os
import pwd
import re
import secrets
import shlex
import shutil
import subprocess
from pathlib import Path
from urllib.parse import quote

from infra.errors import CuagymError

SERVER_USER = "postgres"
SUPERUSER = "postgres"
INSTALL_HINT = "run `make system` (installs Debian's postgresql, see infra/setup/apt-packages.txt)"


class PostgresError(CuagymError):
    """The PostgreSQL cluster could not be created, started or queried."""


def pg_bindir() -> Path:
    """Where initdb and pg_ctl are: Debian keeps them off PATH, one folder per major version."""
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(re.sub(r"\D", "", p.parts[-3]))
    )
    if versions:
        return versions[-1].parent
    if found := shutil.which("initdb"):
        return Path(found).parent
    raise PostgresError("PostgreSQL's server programs (initdb, pg_ctl) are not installed", hint=INSTALL_HINT)


class PostgresCluster:
    def __init__(self, root: Path, port: int, *, bindir: Path | None = None) -> None:
        self.root = root.resolve()
        self.port = port
        self.bindir = bindir or pg_bindir()
        self.data = self.root / "data"
        self.password_file = self.root / "password"
        self.log = self.root / "postgres.log"

    @property
    def password(self) -> str:
        return self.password_file.read_text().strip()

    def url(self, database: str, *, driver: str = "postgresql+asyncpg") -> str:
        return f"{driver}://{SUPERUSER}:{quote(self.password, safe='')}@127.0.0.1:{self.port}/{database}"

    def ensure_initialised(self) -> None:
        if (self.data / "PG_VERSION").is_file():
            return
        self.root.mkdir(parents=True, exist_ok=True)
        # created 0600: the superuser's password is never readable by others, not even for a moment
        with os.fdopen(os.open(self.password_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as out:
            out.write(secrets.token_urlsafe(24))
        self._give_to_server_user(self.root, self.password_file)
        self._check_server_user_can_write()
        self._server_program(
            "initdb",
            "--pgdata", str(self.data),
            "--username", SUPERUSER,
            "--pwfile", str(self.password_file),
            "--auth", "scram-sha-256",
            "--encoding", "UTF8",
            "--locale", "C",
        )  # fmt: skip

    def running(self) -> bool:
        return (
            self._server_program("pg_ctl", "status", "--pgdata", str(self.data), check=False).returncode == 0
        )

    def start(self) -> None:
        if self.running():
            return
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''"
        out = self._server_program(
            "pg_ctl", "start", "--pgdata", str(self.data), "--log", str(self.log), "--wait",
            "--timeout", "120", "--options", options, check=False,
        )  # fmt: skip
        if out.returncode != 0:
            raise PostgresError(
                f"PostgreSQL did not start on 127.0.0.1:{self.port}: {self._log_tail() or out.stderr.strip()}",
                hint=f"is the port free? see {self.log}",
            )

    def stop(self) -> None:
        if self.data.is_dir() and self.running():
            self._server_program("pg_ctl", "stop", "--pgdata", str(self.data), "--mode", "fast", "--wait")

    def create_database(self, name: str) -> None:
        """Create `name` unless it exists (a restarted server keeps its flow runs)."""
        if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", name):
            raise PostgresError(f"bad database name {name!r}", hint="use lower-case letters, digits and _")
        exists = self._client("psql", "--dbname", "postgres", "--tuples-only", "--no-align", "--command",
                              f"SELECT 1 FROM pg_database WHERE datname = '{name}'")  # fmt: skip
        if exists.stdout.strip() != "1":
            self._client("createdb", name)

    def _client(self, program: str, *args: str) -> subprocess.CompletedProcess:
        """Client programs run as whoever we are; they log in over TCP with the password."""
        env = {**os.environ, "PGPASSWORD": self.password, "LC_ALL": "C"}
        argv = [str(self.bindir / program), "--host", "127.0.0.1", "--port", str(self.port),
                "--username", SUPERUSER, *args]  # fmt: skip
        return _run(argv, env=env, cwd=self.root)

    def _server_program(self, program: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        argv = [str(self.bindir / program), *args]
        if os.geteuid() == 0:
            argv = ["runuser", "-u", SERVER_USER, "--", *argv]
        # cwd: the server user may not be allowed into ours (e.g. /root)
        return _run(argv, env={**os.environ, "LC_ALL": "C"}, cwd=self.root, check=check)

    def _give_to_server_user(self, *paths: Path) -> None:
        if os.geteuid() != 0:
            return
        try:
            user = pwd.getpwnam(SERVER_USER)
        except KeyError:
            raise PostgresError(f"there is no `{SERVER_USER}` system user", hint=INSTALL_HINT) from None
        for path in paths:
            os.chown(path, user.pw_uid, user.pw_gid)

    def _check_server_user_can_write(self) -> None:
        if os.geteuid() != 0:
            return
        probe = _run(["runuser", "-u", SERVER_USER, "--", "test", "-w", str(self.root)], check=False)
        if probe.returncode != 0:
            raise PostgresError(
                f"the `{SERVER_USER}` user cannot reach {self.root}",
                hint="keep the cluster in a folder every parent of which others may enter "
                "(e.g. `cuagym server start --state-dir /var/tmp/cuagym-server`)",
            )

    def _log_tail(self, lines: int = 8) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


def _run(argv: list[str], *, env=None, cwd=None, check: bool = True) -> subprocess.CompletedProcess:
    try:
        out = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=180)
    except subprocess.TimeoutExpired:
        raise PostgresError(
            f"`{shlex.join(argv)}` did not finish in 180 s", hint="is the machine overloaded?"
        ) from None
    if check and out.returncode != 0:
        raise PostgresError(
            f"`{shlex.join(argv)}` failed: {(out.stderr or out.stdout).strip()[-1500:]}",
            hint="see the message above; `make system` installs PostgreSQL",
        )
    return out
