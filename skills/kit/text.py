"""The jinja2 environment family texts (instructions, context, words) are rendered in.

Strict: a name the params do not hold fails the render instead of printing nothing. Filters beyond
jinja2's own (join, length, sum, map, sort, …):

    {{ sheet | repr }}                 'Staff'            (Python repr: quotes a string, shows a list)
    {{ names | and_list }}             Ana, Bo and Chen
    {{ names | and_list("or") }}       Ana, Bo or Chen
    {{ 0.25 | percent }}               25 %
"""

from __future__ import annotations

from collections.abc import Iterable

import jinja2


def and_list(items: Iterable[object], word: str = "and") -> str:
    values = [str(item) for item in items]
    if len(values) <= 1:
        return "".join(values)
    return f"{', '.join(values[:-1])} {word} {values[-1]}"


def percent(value: float) -> str:
    return f"{value * 100:g} %"


TEXT_ENV = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=False)
TEXT_ENV.filters.update({"repr": repr, "and_list": and_list, "percent": percent})
