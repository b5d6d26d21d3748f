"""Coverage quotas and the scenario matrix, and whether a catalogue can meet them at all.

DESIGN.md §3.6: a quota can be infeasible for a small catalogue (≥ 35 % cross-app with few cross-app
families under the 3-per-template cap, ≤ 15 % per app with five apps…). `plan_quotas` detects that
*before* sampling, names each quota that cannot be met and why, and returns the closest feasible
targets, which the sampler then enforces. It never loops and never drops a quota silently.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field

from infra.errors import ConfigError
from skills.kit import Family
from tasks.models import Difficulty, Domain, Wording

log = logging.getLogger(__name__)


class NearDuplicate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token_jaccard: float = Field(0.92, gt=0, le=1)
    cosine: float = Field(0.985, gt=0, le=1)


class Quotas(BaseModel):
    """skills/quotas.yaml; unknown keys are an error so a typo cannot disable a quota."""

    model_config = ConfigDict(extra="forbid")
    max_domain_share: float = Field(0.21, gt=0, le=1)
    min_hard_share: float = Field(0.40, ge=0, le=1)
    min_cross_app_share: float = Field(0.35, ge=0, le=1)
    max_app_share: float = Field(0.15, gt=0, le=1)
    min_per_app: int = Field(1, ge=0)
    template_cap: int = Field(3, ge=1)
    near_duplicate: NearDuplicate = Field(default_factory=NearDuplicate)


class DomainInfo(BaseModel):
    soc: str
    personas: list[str] = Field(min_length=1)


class ScenarioMatrix(BaseModel):
    model_config = ConfigDict(extra="forbid")
    platforms: list[str]
    scenarios: list[str]
    app_scopes: list[str]
    difficulties: dict[str, str]
    domains: dict[Domain, DomainInfo]


def _load_yaml(path: Path) -> dict:
    try:
        data = yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(
            f"cannot read {path}: {exc}", hint="check the file exists and is valid YAML"
        ) from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path} must hold a mapping", hint="see skills/quotas.yaml for the format")
    return data


@lru_cache(maxsize=8)
def load_quotas(path: Path) -> Quotas:
    return Quotas.model_validate(_load_yaml(path))


@lru_cache(maxsize=8)
def load_matrix(path: Path) -> ScenarioMatrix:
    matrix = ScenarioMatrix.model_validate(_load_yaml(path))
    missing = set(Domain) - set(matrix.domains)
    if missing:
        raise ConfigError(f"{path} lacks domains {sorted(missing)}", hint="every O*NET domain needs personas")
    return matrix


COUNT_QUOTAS = frozenset({"count", "min_per_app", "template_cap"})  # the others are shares of a batch


def quota_value(quota: str, value: float) -> str:
    """A quota's value as people read it: a share as a percentage, a count as a whole number."""
    return f"{value:g}" if quota in COUNT_QUOTAS else f"{value:.1%}"


@dataclass(frozen=True)
class Infeasibility:
    quota: str
    asked: float
    feasible: float
    why: str

    def __str__(self) -> str:
        return (
            f"{self.quota}={quota_value(self.quota, self.asked)} is infeasible ({self.why}); "
            f"enforced {quota_value(self.quota, self.feasible)} instead"
        )


@dataclass
class QuotaPlan:
    """The quotas the sampler enforces for one batch of `count`, after the feasibility check."""

    count: int
    quotas: Quotas
    max_per_app: int
    max_per_domain: int
    min_hard: int
    min_cross: int
    infeasible: list[Infeasibility] = field(default_factory=list)


def _capacity(families: list[Family], cap: int) -> int:
    return len(families) * len(Wording) * cap


def plan_quotas(families: dict[str, Family], count: int, quotas: Quotas) -> QuotaPlan:
    """Counts for a batch of `count`, relaxing (and reporting) every quota the catalogue cannot meet."""
    fams = list(families.values())
    cap = quotas.template_cap
    apps = sorted({a for f in fams for a in f.apps})
    domains = sorted({d for f in fams for d in f.domains})
    infeasible: list[Infeasibility] = []
    total = min(count, _capacity(fams, cap))
    if total < count:
        infeasible.append(
            Infeasibility(
                "count",
                count,
                total,
                f"{len(fams)} families × {len(Wording)} wordings × "
                f"{cap} per template supply at most {total} specs",
            )
        )

    cross = [f for f in fams if len(f.apps) > 1]
    min_cross = math.ceil(quotas.min_cross_app_share * total)
    cross_cap = _capacity(cross, cap)
    if min_cross > cross_cap:
        feasible = cross_cap / total if total else 0.0
        infeasible.append(
            Infeasibility(
                "min_cross_app_share",
                quotas.min_cross_app_share,
                feasible,
                f"{len(cross)} cross-app famil{'y' if len(cross) == 1 else 'ies'} × "
                f"{len(Wording)} wordings × {cap} per template give at most {cross_cap} of "
                f"the {min_cross} needed",
            )
        )
        min_cross = cross_cap

    hard = [f for f in fams if f.difficulty is Difficulty.HARD]
    min_hard = math.ceil(quotas.min_hard_share * total)
    hard_cap = _capacity(hard, cap)
    if min_hard > hard_cap:
        infeasible.append(
            Infeasibility(
                "min_hard_share",
                quotas.min_hard_share,
                hard_cap / total if total else 0.0,
                f"the {len(hard)} hard families give at most {hard_cap} of {min_hard}",
            )
        )
        min_hard = hard_cap

    # Every spec counts for at least one app, cross-app specs for two: the app caps must add up.
    max_per_app = math.floor(quotas.max_app_share * total)
    app_slots_needed = total + min_cross
    if max_per_app * len(apps) < app_slots_needed and apps:
        need = math.ceil(app_slots_needed / len(apps))
        infeasible.append(
            Infeasibility(
                "max_app_share",
                quotas.max_app_share,
                need / total,
                f"{quotas.max_app_share:.0%} of a batch of {total} allows {max_per_app} spec(s) per "
                f"app, so {len(apps)} apps hold {max_per_app * len(apps)} of the {app_slots_needed} "
                f"app slots needed ({total} specs + {min_cross} second apps of cross-app specs)",
            )
        )
        max_per_app = need

    # Cross-app specs all spend a slot of an app every cross-app family shares (e.g. calc).
    shared = set.intersection(*(set(f.apps) for f in cross)) if cross else set()
    if shared and min_cross > max_per_app:
        app = sorted(shared)[0]
        infeasible.append(
            Infeasibility(
                "min_cross_app_share",
                quotas.min_cross_app_share,
                max_per_app / total,
                f"every cross-app family involves {app}, which may hold at most "
                f"{max_per_app} spec(s) of {total}",
            )
        )
        min_cross = max_per_app

    max_per_domain = math.floor(quotas.max_domain_share * total)
    if max_per_domain * len(domains) < total and domains:
        need = math.ceil(total / len(domains))
        infeasible.append(
            Infeasibility(
                "max_domain_share",
                quotas.max_domain_share,
                need / total,
                f"the families cover only {len(domains)} domains",
            )
        )
        max_per_domain = need

    if quotas.min_per_app * len(apps) > total:
        infeasible.append(
            Infeasibility(
                "min_per_app",
                quotas.min_per_app,
                total // max(len(apps), 1),
                f"{len(apps)} apps × {quotas.min_per_app} spec(s) each exceed the batch of {total}",
            )
        )
        quotas = replace_quota(quotas, min_per_app=total // max(len(apps), 1))
    for item in infeasible:
        log.info("quota: %s", item)
    return QuotaPlan(
        count=total,
        quotas=quotas,
        max_per_app=max_per_app,
        max_per_domain=max_per_domain,
        min_hard=min_hard,
        min_cross=min_cross,
        infeasible=infeasible,
    )


def replace_quota(quotas: Quotas, **changes) -> Quotas:
    return quotas.model_copy(update=changes)
