"""Which model each LLM role uses, and how it is called: resolved from flags, env vars and a file.

Roles: task_writer, generator, discriminator, critic, judge. Every setting of a role is resolved
field by field, first hit wins:

    1. a per-role flag            (--generator-model …)
    2. the global flag            (--model …, --api-base …)
    3. a per-role env var         CUAGYM_LLM_GENERATOR_MODEL, CUAGYM_LLM_GENERATOR_API_BASE
    4. the global env var         CUAGYM_LLM_MODEL, CUAGYM_LLM_API_BASE, CUAGYM_LLM_TIMEOUT_S, …
    5. the file's `roles.<role>`  (YAML at --llm-config or CUAGYM_LLM_CONFIG)
    6. the file's top level
    7. the built-in default       (no default model: a role that needs one and has none is an error)

So a flag always beats the environment, which beats the file; within one source a per-role value
beats the global one. Config file shape:

    model: anthropic/claude-sonnet-4-5      # every role, unless overridden
    timeout_s: 120
    max_retries: 3
    cache: true                             # on-disk response cache (reruns are reproducible)
    roles:
      generator: {model: hosted_vllm/Qwen3-32B, api_base: "http://gpu-box:8000/v1", temperature: 0.2}
      critic: {model: openai/gpt-4o-mini}

API keys are never part of this config (it is stored with the run): litellm reads them from the
provider's usual env var (ANTHROPIC_API_KEY, OPENAI_API_KEY, HOSTED_VLLM_API_KEY, …).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from infra.errors import ConfigError

ROLES = ("task_writer", "generator", "discriminator", "critic", "judge", "app_writer", "app_reviewer")
ENV_PREFIX = "CUAGYM_LLM_"


class RoleConfig(BaseModel):
    """How one role calls its model. Plain data: it crosses into the Discriminator's worker as JSON."""

    model_config = ConfigDict(extra="forbid")

    role: str
    model: str
    api_base: str | None = None
    timeout_s: float = Field(default=120.0, gt=0, description="per HTTP call, connect to last byte")
    max_retries: int = Field(default=3, ge=0, le=10, description="extra tries on 429 / 5xx / timeouts")
    backoff_s: float = Field(default=2.0, ge=0, description="first retry delay; doubles each try")
    max_backoff_s: float = Field(default=30.0, ge=0)
    temperature: float | None = None
    max_tokens: int = Field(default=8192, ge=1, description="per reply")
    cache_dir: str | None = Field(default=None, description="on-disk response cache; None: off")


# Fields a file or an env var may set, with how to parse an env var's text.
_FIELDS: dict[str, type] = {
    "model": str,
    "api_base": str,
    "timeout_s": float,
    "max_retries": int,
    "backoff_s": float,
    "max_backoff_s": float,
    "temperature": float,
    "max_tokens": int,
    "cache_dir": str,
}


def _from_env(env: Mapping[str, str], role: str | None) -> dict[str, Any]:
    prefix = ENV_PREFIX + (f"{role.upper()}_" if role else "")
    out = {}
    for name, kind in _FIELDS.items():
        raw = env.get(prefix + name.upper())
        if raw is None or raw == "":
            continue
        try:
            out[name] = kind(raw)
        except ValueError:
            raise ConfigError(
                f"{prefix + name.upper()}={raw!r} is not a {kind.__name__}",
                hint=f"set it to a {kind.__name__} or unset it",
            ) from None
    return out


def read_config_file(path: Path) -> dict[str, Any]:
    """The parsed YAML config file; raises ConfigError naming the bad key."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except OSError as exc:
        raise ConfigError(
            f"cannot read LLM config {path}: {exc}", hint="check --llm-config / CUAGYM_LLM_CONFIG"
        ) from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"LLM config {path} is not valid YAML: {exc}", hint="fix the YAML syntax") from None
    if not isinstance(data, dict):
        raise ConfigError(
            f"LLM config {path} must be a mapping", hint="see infra/llm_config.py for the shape"
        )
    allowed = set(_FIELDS) | {"roles", "cache"}
    unknown = sorted(set(data) - allowed)
    roles = data.get("roles") or {}
    if not isinstance(roles, dict):
        raise ConfigError(f"LLM config {path}: `roles` must be a mapping", hint=f"roles: {', '.join(ROLES)}")
    unknown += [f"roles.{r}" for r in roles if r not in ROLES]
    for role, block in roles.items():
        if not isinstance(block, dict):
            raise ConfigError(f"LLM config {path}: roles.{role} must be a mapping", hint="e.g. {model: …}")
        unknown += [f"roles.{role}.{k}" for k in block if k not in _FIELDS]
    if unknown:
        raise ConfigError(
            f"LLM config {path}: unknown key(s) {unknown}",
            hint=f"allowed: {sorted(allowed)}; roles: {list(ROLES)}",
        )
    return data


class LLMSettings(BaseModel):
    """The resolved per-role configs of one run (only the roles that have a model)."""

    roles: dict[str, RoleConfig] = Field(default_factory=dict)

    def role(self, name: str) -> RoleConfig:
        try:
            return self.roles[name]
        except KeyError:
            env = f"{ENV_PREFIX}{name.upper()}_MODEL"
            flag = f"--{name.replace('_', '-')}-model"
            raise ConfigError(
                f"no model configured for the {name} role",
                hint=f"pass --model or {flag}, set {ENV_PREFIX}MODEL or {env}, "
                "or name one in the --llm-config file",
            ) from None

    def models(self) -> dict[str, str]:
        return {name: cfg.model for name, cfg in self.roles.items()}


def resolve_llm_settings(
    *,
    flags: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    config_path: str | Path | None = None,
    default_cache_dir: Path | None = None,
    cache: bool | None = None,
) -> LLMSettings:
    """Resolve every role's config (precedence in the module docstring).

    `flags` holds the command-line values: global keys (`model`, `api_base`, …) and per-role keys
    (`generator_model`, `discriminator_api_base`, …); None values are "not given". The response
    cache is on when a cache_dir is set, the file says `cache: true`, CUAGYM_LLM_CACHE=1 or
    `cache=True` (and off with `cache=False`, whatever else says); it lives in `<cache_dir or
    default_cache_dir>/<role>` — one folder per role, so the Discriminator's worker can be given
    its own folder and nothing of the Generator's.

    Example:
        >>> s = resolve_llm_settings(flags={"model": "hosted_vllm/qwen", "api_base": "http://h:8000/v1"}, env={})
        >>> s.role("generator").model, s.role("critic").api_base
        ('hosted_vllm/qwen', 'http://h:8000/v1')
    """
    flags = {k: v for k, v in (flags or {}).items() if v is not None}
    env = os.environ if env is None else env
    path = config_path or env.get(ENV_PREFIX + "CONFIG")
    file = read_config_file(Path(path)) if path else {}
    cache_on = bool(file.get("cache")) or env.get(ENV_PREFIX + "CACHE", "").lower() in ("1", "true", "yes")
    if cache is not None:  # the flag (--llm-cache / --no-llm-cache) beats the env var and the file
        cache_on = cache
    roles: dict[str, RoleConfig] = {}
    for role in ROLES:
        layers = [
            {k[len(role) + 1 :]: v for k, v in flags.items() if k.startswith(role + "_")},
            {k: v for k, v in flags.items() if k in _FIELDS},
            _from_env(env, role),
            _from_env(env, None),
            (file.get("roles") or {}).get(role) or {},
            {k: v for k, v in file.items() if k in _FIELDS},
        ]
        merged: dict[str, Any] = {}
        for layer in reversed(layers):  # lowest precedence first, so higher layers overwrite
            merged.update({k: v for k, v in layer.items() if k in _FIELDS and v is not None})
        if "model" not in merged:
            continue
        # One folder per role, always: the Discriminator's worker is given its own folder only, and a
        # shared one would hand it the Generator's replies (its scripts).
        base = merged.pop("cache_dir", None) or (default_cache_dir if cache_on else None)
        if base is not None and cache is not False:
            merged["cache_dir"] = str(Path(base) / role)
        try:
            roles[role] = RoleConfig(role=role, **merged)
        except ValidationError as exc:
            raise ConfigError(
                f"invalid LLM settings for the {role} role: {exc.errors()[0]['msg']} "
                f"({exc.errors()[0]['loc']})",
                hint="check the flags, CUAGYM_LLM_* and the config file",
            ) from None
    return LLMSettings(roles=roles)
