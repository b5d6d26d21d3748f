"""Rollout tests run real desktops; they reuse the desktop fixtures."""

from tests.desktop.conftest import desktop_provider, desktop_python, export_bundle, families  # noqa: F401
