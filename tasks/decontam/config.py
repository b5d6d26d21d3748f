"""configs/decontamination.yaml: the thresholds and the default benchmark sets."""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from infra.errors import ConfigError
from infra.settings import PROJECT_ROOT

DEFAULT_CONFIG = PROJECT_ROOT / "configs" / "decontamination.yaml"


class Thresholds(BaseModel):
    """When a tuple is contaminated (tasks/decontam/stage.py `decide`): any one rule suffices."""

    model_config = ConfigDict(extra="forbid")
    ngram: float = Field(0.5, gt=0, le=1)
    embedding: float = Field(0.85, gt=0, le=1)
    targets: float = Field(0.5, gt=0, le=1)
    targets_embedding: float = Field(0.6, ge=0, le=1)


class DecontamConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a typo must not switch a threshold off silently
    sets: list[str] = Field(default_factory=list)
    thresholds: Thresholds = Field(default_factory=Thresholds)


def load_config(path: Path = DEFAULT_CONFIG) -> DecontamConfig:
    try:
        data = yaml.safe_load(path.read_text()) or {}
        return DecontamConfig.model_validate(data)
    except (OSError, yaml.YAMLError, ValidationError) as exc:
        raise ConfigError(
            f"cannot read the decontamination config {path}: {exc}",
            hint="see configs/decontamination.yaml for the keys (sets, thresholds)",
        ) from None
