"""The pipeline's steps: one step per module, a plain function at its core and a thin @task around it.

Several steps import Prefect, litellm, sentence-transformers or great-expectations, which read their
settings once, at import: the library defaults (infra/library_env.py) are applied here, first.
"""

from infra.library_env import apply_library_defaults

apply_library_defaults()
