"""Rollout tests run real desktops; they reuse the desktop fixtures."""

from tests.desktop.conftest import (  # noqa: F401 - fixtures, found by name
    desktop,
    desktop_provider,
    desktop_python,
    export_bundle,
    families,
)
