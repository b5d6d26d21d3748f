"""Render the LLM roles' prompts from prompts/<role>.md.j2 (the only place prompt text lives).

Templates are rendered with StrictUndefined, so a template that names a value the caller did not
pass fails loudly here, not as a silently empty section the model never sees.
"""

from __future__ import annotations

from typing import Any

import jinja2

from infra.errors import ConfigError
from infra.templates import prompt_environment

ROLE_TEMPLATES = {
    "task_writer": "task_writer.md.j2",
    "generator": "generator.md.j2",
    "discriminator": "discriminator.md.j2",
    "critic": "critic.md.j2",
    "judge": "judge.md.j2",
}


def render_prompt(role: str, **context: Any) -> str:
    """The prompt text of `role` for `context` (raises ConfigError for an unknown role or a missing value)."""
    try:
        return prompt_environment().get_template(ROLE_TEMPLATES[role]).render(**context)
    except KeyError:
        raise ConfigError(
            f"no prompt for role {role!r}", hint=f"roles: {', '.join(ROLE_TEMPLATES)}"
        ) from None
    except jinja2.UndefinedError as exc:
        raise ConfigError(
            f"prompt {ROLE_TEMPLATES[role]} needs a value that was not given: {exc}",
            hint="pass it to render_prompt",
        ) from None
