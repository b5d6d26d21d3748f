"""How `cuagym synth` ends when the work fails for an expected reason: one clear `error:`/`hint:`
pair, a non-zero exit, no traceback (tracebacks are for bugs)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .fake_openai import Reply

CUAGYM = str(Path(sys.executable).with_name("cuagym"))


@pytest.mark.slow
def test_garbage_task_writer_replies_end_with_error_and_hint_not_tracebacks(server, tmp_path, guest_python):
    server.requests.clear()
    server.script("garbage", *[Reply(content="I'd rather not. {{{ <tool_call>nope")] * 12)
    env = {
        **os.environ,
        "CUAGYM_VAR_DIR": str(tmp_path / "var"),
        "CUAGYM_OUTPUT_DIR": str(tmp_path / "out"),
        "CUAGYM_GUEST_VENV": str(guest_python),
        "PREFECT_HOME": str(tmp_path / "prefect"),
        "HOSTED_VLLM_API_KEY": "local-key",
    }
    cmd = [
        CUAGYM,
        "synth",
        "--teacher-k",
        "0",
        "--backend",
        "llm",
        "--model",
        "hosted_vllm/garbage",
        "--api-base",
        server.base_url,
        "--count",
        "1",
        "--apps",
        "files",
        "--seed",
        "5",
        "--workers",
        "1",
    ]
    run = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1, run.stderr[-3000:]
    assert "error:" in run.stderr and "hint:" in run.stderr, run.stderr[-3000:]
    assert "Traceback" not in run.stderr, run.stderr[-6000:]
    assert len(run.stderr.splitlines()) < 15, run.stderr  # a few one-line log records, then error and hint
