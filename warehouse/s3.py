"""DuckDB on Parquet in object storage: a connection that reads `s3://…` (analysts' queries of the
published tuples.parquet).

The httpfs extension comes from the `duckdb-ext-httpfs` wheel (nothing is downloaded at run time),
which is built for one DuckDB version: pyproject.toml pins duckdb to it. The endpoint and credentials
are the AWS_* variables boto3 reads (infra/storage.py), so both see the same server.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from urllib.parse import urlsplit

import duckdb

from infra.errors import ConfigError, WarehouseError

EXTENSION = "httpfs"


def httpfs_path(con: duckdb.DuckDBPyConnection) -> Path:
    """The httpfs extension file for this DuckDB version and platform, from the duckdb-ext-httpfs wheel."""
    spec = importlib.util.find_spec("duckdb_ext")
    roots = list(spec.submodule_search_locations) if spec and spec.submodule_search_locations else []
    platform = con.execute("PRAGMA platform").fetchone()[0]
    version = duckdb.__version__
    for root in roots:
        path = Path(root) / "extensions" / f"v{version}" / platform / f"{EXTENSION}.duckdb_extension"
        if path.is_file():
            return path
    raise WarehouseError(
        f"no httpfs extension for DuckDB {version} on {platform} (looked in {roots or 'no duckdb_ext package'})",
        hint=f"install the matching wheel: pip install 'duckdb-ext-httpfs=={version}.*' "
        "(or pin duckdb to the version duckdb-ext-httpfs is built for)",
    )


def s3_secret_options(environ: os._Environ | dict[str, str] = os.environ) -> dict[str, str]:
    """CREATE SECRET options (TYPE S3) from the AWS_* variables: a custom endpoint (AWS_ENDPOINT_URL_S3
    or AWS_ENDPOINT_URL) is addressed path-style, over plain HTTP when its URL says http."""
    options = {
        "TYPE": "S3",
        "REGION": environ.get("AWS_REGION") or environ.get("AWS_DEFAULT_REGION") or "us-east-1",
    }
    for option, var in (
        ("KEY_ID", "AWS_ACCESS_KEY_ID"),
        ("SECRET", "AWS_SECRET_ACCESS_KEY"),
        ("SESSION_TOKEN", "AWS_SESSION_TOKEN"),
    ):
        if environ.get(var):
            options[option] = environ[var]
    endpoint = environ.get("AWS_ENDPOINT_URL_S3") or environ.get("AWS_ENDPOINT_URL")
    if endpoint:
        url = urlsplit(endpoint)
        if url.scheme not in ("http", "https") or not url.netloc:
            raise ConfigError(
                f"AWS_ENDPOINT_URL={endpoint!r} is not an http(s) URL", hint="write it as http://host:port"
            )
        options |= {
            "ENDPOINT": url.netloc,
            "URL_STYLE": "path",
            "USE_SSL": str(url.scheme == "https").lower(),
        }
    return options


def _literal(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def connect_s3(environ: os._Environ | dict[str, str] = os.environ) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with httpfs loaded and an S3 secret for the configured endpoint.

    Example:

        con = connect_s3()
        con.sql("SELECT status, count(*) FROM read_parquet('s3://my-bucket/runs/tuples.parquet') GROUP BY ALL")
    """
    con = duckdb.connect()
    con.execute("SET autoinstall_known_extensions = false")  # no network: never fetch an extension
    con.execute(f"LOAD {_literal(str(httpfs_path(con)))}")
    options = s3_secret_options(environ)
    # CREATE SECRET takes no bound parameters: values are quoted literals (booleans bare).
    body = ", ".join(
        f"{name} {value if name == 'USE_SSL' or name == 'TYPE' else _literal(value)}"
        for name, value in options.items()
    )
    con.execute(f"CREATE SECRET cuagym_s3 ({body})")
    return con
