"""Where cuagym keeps its files. Every path can be moved with a `CUAGYM_*` environment variable.

The defaults keep everything inside the checkout (`./var` for state, `./output` for bundles) so a
fresh clone runs with no configuration.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parents[1]


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CUAGYM_", extra="ignore")

    var_dir: Path = Field(default=PROJECT_ROOT / "var", description="state: warehouse, work dirs, venvs")
    output_dir: Path = Field(default=PROJECT_ROOT / "output", description="exported bundles and Parquet")
    skills_dir: Path = Field(default=PROJECT_ROOT / "skills", description="per-app skills and families")
    guest_venv: Path | None = Field(default=None, description="guest Python venv (default var/guest-venv)")
    desktop_venv: Path | None = Field(
        default=None, description="desktop env Python (default var/desktop-venv)"
    )
    warehouse: Path | None = Field(default=None, description="DuckDB file (default var/warehouse.duckdb)")
    # the checkout's var/, not var_dir: a converted model (hundreds of MB) serves every var dir and test
    models_dir: Path = Field(default=PROJECT_ROOT / "var" / "models", description="local LLM checkpoints")
    # the checkout's var/ too: 800 MB shared by every var dir (infra/code_server.py)
    code_server_dir: Path = Field(
        default=PROJECT_ROOT / "var" / "code-server", description="code-server and Node 24 (real VS Code)"
    )
    app_seeds_dir: Path = Field(
        default=PROJECT_ROOT / "var" / "app-seeds",
        description="apps' first-start profiles (infra/app_seeds.py)",
    )

    @property
    def guest_venv_path(self) -> Path:
        return self.guest_venv or self.var_dir / "guest-venv"

    @property
    def desktop_venv_path(self) -> Path:
        return self.desktop_venv or self.var_dir / "desktop-venv"

    @property
    def warehouse_path(self) -> Path:
        return self.warehouse or self.var_dir / "warehouse.duckdb"

    @property
    def work_dir(self) -> Path:
        return self.var_dir / "work"


def private_dir(path: Path) -> Path:
    """Create `path` (and its parents) and make it 0700 when group or others may list or write it:
    state folders hold what hostile scripts left (as host root's files), the warehouse and Prefect's
    database. Search-only grants stay (libvirt gives QEMU o+x on the folders above its images)."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    if path.stat().st_mode & 0o066:
        path.chmod(0o700)
    return path


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
