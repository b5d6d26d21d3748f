"""outside_env for paths that are computed, not written: the folders a read, listing or probe reaches
once path_values.py has resolved its path (`Path.home().parents[1] / "proc"` is /proc, `HOME.parent` is
/home, `os.path.join(home, os.pardir, os.pardir, "etc")` climbs out). env_paths.outside_env judges the
literals; this judges where the calls land, with the same reasons.

What it cannot see: paths computed from data (a name read from a file, a loop over a listing) and
symlinks the setup left inside the home that point out of it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tasks.models import Finding
from tasks.scan.credit import Facts
from tasks.scan.env_paths import outside_reason


def computed_outside_env(facts: Facts) -> Iterator[Finding]:
    """Reads, listings and probes whose resolved path lies outside /home/user."""
    for call in facts.nodes:
        if not isinstance(call, ast.Call) or facts.call_kind(call) is None or facts.is_request(call):
            continue
        target = facts.read_path(call)
        if target is None or isinstance(target, ast.Constant):
            continue  # a literal path is access.outside_env's
        found = facts.values.paths(target)
        if not isinstance(found, frozenset):
            continue
        for path in sorted(found):
            reason = "is the filesystem root" if path == "/" else outside_reason(path, None, facts)
            if reason:
                yield Finding(
                    rule="outside_env",
                    line=call.lineno,
                    message=f"`{ast.unparse(call)[:60]}` reaches {path[:80]!r}, which {reason}; a reward "
                    "may only read the env under /home/user",
                )
                break
