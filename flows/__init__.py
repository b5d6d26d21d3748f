"""Prefect flows and the CLI. Flows only wire tasks together; no domain logic lives here.

Prefect reads its settings when it is first imported, so the library defaults (infra/library_env.py:
state under ./var/prefect, no telemetry, our loggers in the run logs) are applied here, before any
flow module imports it.
"""

from infra.library_env import apply_library_defaults

apply_library_defaults()
