"""DuckDB extensions from PyPI wheels, loaded by file: nothing is downloaded at run time (the
machines cuagym runs on often reach no extension repository).

Each wheel is built for one DuckDB version, which is why pyproject.toml pins duckdb. Two layouts are
in use: `duckdb_ext/extensions/v<version>/<platform>/<name>.duckdb_extension` (the duckdb-ext-*
wheels: httpfs, ducklake) and `duckdb_extension_<name>/extensions/v<version>/<name>.duckdb_extension`
(duckdb-extension-postgres-scanner).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import duckdb

from infra.errors import WarehouseError

# extension name -> (the module its wheel installs, the PyPI distribution to name in a hint)
WHEELS = {
    "httpfs": ("duckdb_ext", "duckdb-ext-httpfs"),
    "ducklake": ("duckdb_ext", "duckdb-ext-ducklake"),
    "postgres_scanner": ("duckdb_extension_postgres_scanner", "duckdb-extension-postgres-scanner"),
}


def extension_path(con: duckdb.DuckDBPyConnection, name: str) -> Path:
    """The file of extension `name` for this DuckDB version and platform, from its wheel."""
    module, wheel = WHEELS[name]
    spec = importlib.util.find_spec(module)
    roots = list(spec.submodule_search_locations) if spec and spec.submodule_search_locations else []
    platform = con.execute("PRAGMA platform").fetchone()[0]
    version = duckdb.__version__
    for root in roots:
        for folder in (
            Path(root) / "extensions" / f"v{version}" / platform,
            Path(root) / "extensions" / f"v{version}",
        ):
            if (folder / f"{name}.duckdb_extension").is_file():
                return folder / f"{name}.duckdb_extension"
    raise WarehouseError(
        f"no {name} extension for DuckDB {version} on {platform} (looked in {roots or f'no {module} package'})",
        hint=f"install the matching wheel: pip install '{wheel}=={version}*' "
        f"(or pin duckdb to the version {wheel} is built for)",
    )


def load_extensions(con: duckdb.DuckDBPyConnection, *names: str) -> None:
    con.execute("SET autoinstall_known_extensions = false")  # no network: never fetch an extension
    for name in names:
        con.execute(f"LOAD '{str(extension_path(con, name)).replace(chr(39), chr(39) * 2)}'")
