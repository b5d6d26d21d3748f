"""Entry point of the isolated Discriminator process (see tasks/agents/isolation.py).

Reads one DiscriminatorRequest JSON per stdin line, answers one JSON line per request:
{"ok": true, "reward_py": …} or {"ok": false, "error": …, "hint": …}. Never dies on a bad request.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

from infra.errors import CuagymError


def load_backend(spec: str, skills_dir: Path):
    """`procedural`, `llm`, or `package.module:ClassName` (a class taking skills_dir)."""
    if spec == "procedural":
        from tasks.agents.procedural import ProceduralDiscriminator

        return ProceduralDiscriminator(skills_dir)
    if spec.startswith("llm"):
        from tasks.agents.llm_discriminator import LLMDiscriminator

        return LLMDiscriminator.from_spec(spec, skills_dir)
    module_name, _, class_name = spec.partition(":")
    return getattr(importlib.import_module(module_name), class_name)(skills_dir)


def serve(backend, stdin=sys.stdin, stdout=sys.stdout) -> None:
    from tasks.agents.base import DiscriminatorRequest

    for line in stdin:
        if not line.strip():
            continue
        try:
            request = DiscriminatorRequest.model_validate_json(line)
            output = backend.write_reward(request)
            reply = {"ok": True, "reward_py": output.reward_py, "notes": output.notes}
        except CuagymError as exc:
            reply = {"ok": False, "error": exc.message, "hint": exc.hint}
        except Exception as exc:  # process boundary: report, keep serving
            reply = {"ok": False, "error": f"{type(exc).__name__}: {exc}", "hint": "a Discriminator bug"}
        drain = getattr(backend, "drain_calls", None)  # model-call records, sent back whatever happened
        if drain is not None:
            reply["calls"] = drain()
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()


def main() -> None:
    backend = load_backend(sys.argv[1], Path(sys.argv[2]))
    serve(backend)


if __name__ == "__main__":
    main()
