"""The command reference, generated from the live CLI: walks the click tree under `flows.cli.main`
and prints every command's and subcommand's `--help` as markdown, one section per command.

    python -m flows.cli_reference > docs/cli.md      (or `make docs`)

tests/test_docs.py regenerates it in memory and fails, naming the command, when docs/cli.md lacks a
command or is stale, so the reference cannot drift from the code."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator

import click

from flows.cli import main

# Help is wrapped to a fixed width so the file does not depend on the terminal that generated it.
WIDTH = 100
HEADER = """# Command reference

What this is for: every `cuagym` command and subcommand with its options, exactly as `--help`
prints them. The README's command table says what each one is for; this page is the detail.
It is generated — do not edit it by hand. After changing a command, regenerate it with
`python -m flows.cli_reference > docs/cli.md` (or `make docs`); `tests/test_docs.py` fails while it
is stale.
"""
# A section starts at its heading; the name in the heading is the command's full path.
SECTION = re.compile(r"^## `(cuagym(?: [^`]+)?)`$", re.MULTILINE)


def walk(
    command: click.Command, path: tuple[str, ...] = ("cuagym",), parent: click.Context | None = None
) -> Iterator[tuple[str, click.Context]]:
    """Yield (full command path, context) for `command` and every command below it, in help order."""
    # context_settings as `make_context` applies them (the root's `-h`); children inherit them.
    settings = {**command.context_settings, "terminal_width": WIDTH, "max_content_width": WIDTH}
    ctx = click.Context(command, info_name=path[-1], parent=parent, **settings)
    yield " ".join(path), ctx
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                yield from walk(sub, (*path, name), ctx)


def sections(root: click.Command = main) -> dict[str, str]:
    """Each command's full path -> its reference section (heading and `--help` text)."""
    return {
        name: f"## `{name}`\n\n```text\n{ctx.command.get_help(ctx).rstrip()}\n```\n"
        for name, ctx in walk(root)
    }


def render(root: click.Command = main) -> str:
    """The whole of docs/cli.md."""
    parts = sections(root)
    index = "\n".join(f"- [`{name}`](#{anchor(name)})" for name in parts)
    body = "\n".join(parts.values())
    return f"{HEADER}\n{index}\n\n{body}"


def anchor(name: str) -> str:
    """GitHub's anchor for a heading `cuagym foo bar`: lower case, spaces to hyphens."""
    return name.lower().replace(" ", "-")


def parse(markdown: str) -> dict[str, str]:
    """Split a rendered reference back into {command path: section}, to compare one command at a time."""
    starts = [(m.group(1), m.start()) for m in SECTION.finditer(markdown)]
    ends = [start for _, start in starts[1:]] + [len(markdown)]
    return {
        name: markdown[start:end].rstrip("\n") + "\n" for (name, start), end in zip(starts, ends, strict=True)
    }


if __name__ == "__main__":
    sys.stdout.write(render())
