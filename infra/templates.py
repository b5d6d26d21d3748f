"""The jinja2 environment over prompts/ (where all prompt and review text lives).

One environment for every renderer (the LLM roles' prompts in tasks/prompts.py, the computer_use
conversation in infra/computer_use/conversation.py): StrictUndefined, so a template naming a value
its caller did not pass fails loudly instead of rendering an empty section a model never sees.
"""

from __future__ import annotations

from functools import lru_cache

import jinja2

from infra.settings import PROJECT_ROOT

PROMPTS_DIR = PROJECT_ROOT / "prompts"


@lru_cache(maxsize=1)
def prompt_environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(PROMPTS_DIR),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
