"""Prefect flows and the CLI. Flows only wire tasks together; no domain logic lives here.

Prefect reads its settings when it is first imported, so the defaults that keep it local and
quiet (state under ./var/prefect, no telemetry, our loggers in the run logs) are set here, before
any flow module imports it. Every one of them can be overridden from the environment.
"""

import os

from infra.settings import get_settings

_settings = get_settings()
os.environ.setdefault("PREFECT_HOME", str(_settings.var_dir / "prefect"))
# Prefect creates only the last path component of its home; a fresh var dir needs the rest.
os.makedirs(os.environ["PREFECT_HOME"], exist_ok=True)
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("PREFECT_LOGGING_EXTRA_LOGGERS", "tasks,warehouse,infra,training")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
# Library code logs outside flow runs too (the CLI, tests); that must not warn about the API.
os.environ.setdefault("PREFECT_LOGGING_TO_API_WHEN_MISSING_FLOW", "ignore")
# A first start migrates a fresh SQLite database; on a loaded 2-core machine that can exceed the
# default 20 s the ephemeral API is given.
os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "120")
