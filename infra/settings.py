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


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
