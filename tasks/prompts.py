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
    "app_writer": "app_writer.md.j2",
    "app_reviewer": "app_reviewer.md.j2",
}


def render_prompt(role: str, **context: Any) -> str:
    """The prompt text of `role` for `context` (raises ConfigError for an unknown role or a missing value)."""
    return "\n\n".join(m["content"] for m in render_messages(role, **context))


def render_messages(role: str, **context: Any) -> list[dict[str, str]]:
    """The opening messages of `role`'s conversation: a template with `system` and `user` blocks
    gives a system message (what every task of an app shares: the prefix servers cache) and a user
    message (this task); a template without blocks gives one user message."""
    if role not in ROLE_TEMPLATES:
        raise ConfigError(f"no prompt for role {role!r}", hint=f"roles: {', '.join(ROLE_TEMPLATES)}")
    try:
        template = prompt_environment().get_template(ROLE_TEMPLATES[role])
        if "system" not in template.blocks:
            return [{"role": "user", "content": template.render(**context)}]
        messages = []
        for block in ("system", "user"):
            text = "".join(template.blocks[block](template.new_context(context))).strip()
            messages.append({"role": block, "content": text})
        return messages
    except jinja2.UndefinedError as exc:
        raise ConfigError(
            f"prompt {ROLE_TEMPLATES[role]} needs a value that was not given: {exc}",
            hint="pass it to render_prompt",
        ) from None
