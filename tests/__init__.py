"""The test suite. Library defaults (offline litellm and HF hub, Prefect under var/) are applied
here, before conftest.py or any test module imports those libraries."""

from infra.library_env import apply_library_defaults

apply_library_defaults()
