"""Metricly teacher steps beyond skills/kit/teach_web.py: figures are number inputs, which
the accessibility tree shows as spin-buttons rather than entries."""

from __future__ import annotations

from skills.kit.teach import click


def type_amount(screen, label: str, text: str):
    """Replace the number in the field labelled `label` and commit it with Tab."""
    box = screen.find(
        lambda e: e.role in ("spin-button", "entry") and e.name == label, what=f"the {label!r} field"
    )
    yield [click(box), {"action": "key", "keys": ["ctrl", "a"]}, {"action": "type", "text": text}]
    yield [{"action": "key", "keys": ["Tab"]}]
