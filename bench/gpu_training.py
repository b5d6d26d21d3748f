"""The training path on one GPU: a few SFT steps, then one GSPO update on rollouts sampled by vLLM.

For a machine with a CUDA GPU and vLLM but no network (issue 14's device check): nothing is
downloaded. It builds a ~0.5B Qwen2-VL from a config (random init; Qwen2-0.5B's language model
widths, a 16-block vision tower; the tokenizer of training/tiny.py, trained on local text), then

1. SFT: `bf16` steps of `run_sft`'s own Trainer (training/sft.py `sft_trainer`) on synthetic
   successful trajectories written in the dataset format (DESIGN §3.4), one slice per trajectory;
2. starts `vllm serve` on a copy of the SFT checkpoint with the flags the engine needs
   (VLLM_SERVER_DEV_MODE=1, --logprobs-mode processed_logprobs, --chat-template-content-format openai);
3. GSPO, as `run_gspo` does it with `rollout_engine: vllm`: the weight sync (save_pretrained into
   the served folder, reload, the probe), `--episodes` synthetic episodes of `--turns` turns sampled
   by the server at once (blank screenshots; no desktop, no reward.py: rewards alternate 1/0 so
   every rollout is trained), one `GSPOUpdate.update`, and the sync after it;

and prints seconds and tokens/s per phase as a table, plus the first update's importance ratio and
the probe's log-prob gap (how far vLLM's bf16 sampling log-probs are from the trainer's).

Without vLLM (it cannot be installed offline) step 3 samples the episodes with the trainer's own
policy (LocalPolicy: `generate` on the GPU, one episode at a time) and runs the update twice from
the same weights: a forward pass per slice, and a pass per reply as before; the script then exits 2.

Run: `python bench/gpu_training.py [--episodes 16] [--turns 2] [--max-tokens 256]`; exits 2 at once
without CUDA. Figures of a run: docs/training.md.
"""

# ruff: noqa: E402  (the imports below must come after the sys.path fix)
from __future__ import annotations

import sys
from pathlib import Path

# `python bench/gpu_training.py` puts bench/ first on sys.path, where bench/training.py would shadow
# the `training` package
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root: bench.training below

import argparse
import importlib.util
import os
import shutil
import signal
import subprocess
import tempfile
import time
import types
from concurrent.futures import ThreadPoolExecutor

import torch
from rich.console import Console
from rich.table import Table
from transformers import (
    Qwen2VLConfig,
    Qwen2VLForConditionalGeneration,
    Qwen2VLImageProcessor,
    Qwen2VLProcessor,
    Qwen2VLVideoProcessor,
    TrainerCallback,
)

from bench.training import screenshot, write_trajectories  # the CPU bench's synthetic episodes
from training.config import load_config
from training.gspo import GSPOUpdate, Rollout
from training.local_policy import LocalPolicy
from training.sft import encode_samples, load_policy, sft_trainer
from training.tiny import CHAT_TEMPLATE, SPECIAL_TOKENS, tiny_tokenizer
from training.vllm_policy import VLLMEngine
from training.vllm_server import VLLMServer, VLLMUnavailableError

SCREEN = (1280, 800)
FAMILY = "qwen2.5-vl"
MAX_PIXELS = 640 * 28 * 28  # ~640 merged image tokens per screenshot (1280x800 is smart-resized to it)


def build_checkpoint(folder: Path) -> int:
    """A randomly initialised ~0.5B Qwen2-VL and a standard Qwen2VLProcessor, save_pretrained into
    `folder`; its parameter count."""
    tokenizer = tiny_tokenizer()
    ids = {t: tokenizer.convert_tokens_to_ids(t) for t in SPECIAL_TOKENS}
    config = Qwen2VLConfig(
        text_config={
            "vocab_size": len(tokenizer), "hidden_size": 896, "intermediate_size": 4864,
            "num_hidden_layers": 24, "num_attention_heads": 14, "num_key_value_heads": 2,
            "max_position_embeddings": 32768,
            "rope_parameters": {"rope_type": "default", "rope_theta": 1e6, "mrope_section": [8, 12, 12]},
            "bos_token_id": ids["<|endoftext|>"], "eos_token_id": ids["<|im_end|>"],
            "pad_token_id": ids["<|endoftext|>"],
        },
        vision_config={"depth": 16, "embed_dim": 1024, "hidden_size": 896, "num_heads": 16, "mlp_ratio": 4,
                       "patch_size": 14, "spatial_merge_size": 2, "temporal_patch_size": 2},
        image_token_id=ids["<|image_pad|>"], video_token_id=ids["<|video_pad|>"],
        vision_start_token_id=ids["<|vision_start|>"], vision_end_token_id=ids["<|vision_end|>"],
        eos_token_id=ids["<|im_end|>"], pad_token_id=ids["<|endoftext|>"],
    )  # fmt: skip
    torch.manual_seed(0)
    model = Qwen2VLForConditionalGeneration(config)
    processor = Qwen2VLProcessor(
        image_processor=Qwen2VLImageProcessor(size={"shortest_edge": 56 * 56, "longest_edge": MAX_PIXELS}),
        tokenizer=tokenizer,
        video_processor=Qwen2VLVideoProcessor(),
        chat_template=CHAT_TEMPLATE,
    )
    model.save_pretrained(folder)
    processor.save_pretrained(folder)
    return sum(p.numel() for p in model.parameters())


class StepClock(TrainerCallback):
    """Each optimizer step's end time and the tokens trained so far then."""

    def __init__(self, trainer) -> None:
        self.trainer, self.ends, self.tokens = trainer, [], []

    def on_step_end(self, args, state, control, **kwargs):
        torch.cuda.synchronize()
        self.ends.append(time.perf_counter())
        self.tokens.append(self.trainer.tokens)


def run_sft(work: Path, init: Path, trajectories: int, rows: list) -> Path:
    config = load_config(None, {"model": str(init), "datasets": [str(write_trajectories(work / "ds", trajectories, 3))],
                                "family": FAMILY, "bf16": True, "output_dir": str(work / "sft"),
                                "learning_rate": 1e-5, "save_steps": 10_000}, kind="sft")  # fmt: skip
    model, processor = load_policy(str(init))
    features, _ = encode_samples(config, processor)
    trainer = sft_trainer(config, model, processor, features)
    clock = StepClock(trainer)
    trainer.add_callback(clock)
    started = time.perf_counter()
    trainer.train()
    # step 1 carries the warm-up (kernels, allocator): the figure is steps 2..N
    rows.append(("sft steps 2..N (bf16, batch 1)", clock.ends[-1] - clock.ends[0],
                 clock.tokens[-1] - clock.tokens[0], f"{len(clock.ends)} steps"))  # fmt: skip
    rows.append(("sft train() (warm-up and all steps)", time.perf_counter() - started, trainer.tokens, ""))
    trainer.save_model(str(config.output_dir))
    del trainer, model
    torch.cuda.empty_cache()
    return config.output_dir


def start_vllm(folder: Path, port: int, log_path: Path) -> subprocess.Popen:
    command = [
        "vllm", "serve", str(folder), "--port", str(port), "--dtype", "bfloat16", "--enforce-eager",
        "--gpu-memory-utilization", "0.4", "--max-model-len", "16384",
        "--logprobs-mode", "processed_logprobs", "--chat-template-content-format", "openai",
        "--limit-mm-per-prompt", '{"image": 8}',
    ]  # fmt: skip
    env = dict(os.environ, VLLM_SERVER_DEV_MODE="1")
    log = open(log_path, "wb")  # noqa: SIM115 - the server's log lives as long as the server
    return subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def wait_for(server: VLLMServer, process: subprocess.Popen, log_path: Path, timeout_s: float) -> float:
    started = time.perf_counter()
    while time.perf_counter() - started < timeout_s:
        if process.poll() is not None:
            raise SystemExit(f"vllm serve exited with {process.returncode}:\n{log_path.read_text()[-4000:]}")
        try:
            server.check()
            return time.perf_counter() - started
        except VLLMUnavailableError:
            time.sleep(2)
    raise SystemExit(f"vllm serve not up after {timeout_s}s:\n{log_path.read_text()[-4000:]}")


def run_gspo_step(work: Path, sft: Path, args, rows: list) -> None:
    served = shutil.copytree(sft, work / "vllm-weights")
    port = 8000 + os.getpid() % 1000
    log_path = work / "vllm.log"
    process = start_vllm(served, port, log_path)
    try:
        config = load_config(None, {"model": str(sft), "tuples": ["synthetic"], "family": FAMILY,
                                    "group_size": 2, "tasks_per_iteration": args.episodes // 2, "minibatches": 1,
                                    "learning_rate": 1e-6, "max_tokens": args.max_tokens, "temperature": 0.7,
                                    "bf16": True, "rollout_engine": "vllm", "vllm_url": f"http://127.0.0.1:{port}",
                                    "vllm_weights_dir": str(served), "output_dir": str(work / "gspo")},
                             kind="gspo")  # fmt: skip
        up = wait_for(VLLMServer(config.vllm_url, str(served)), process, log_path, args.server_timeout)
        rows.append(("vllm serve start (enforce-eager)", up, None, ""))
        engine = VLLMEngine(config, model_name="gpu-bench")
        model, processor = load_policy(str(sft))
        model.to("cuda").eval()
        updater = GSPOUpdate(config, model, processor)
        sync = engine.sync(updater)
        rows.append(
            ("weight sync (save, reload, probe)", sync.seconds, None, f"logp gap {sync.logp_gap:.2e}")
        )

        def episode(k: int) -> Rollout:
            policy = engine.policy()
            policy.start(types.SimpleNamespace(id=f"t{k // 2}", instruction="Fill column B."), SCREEN, None)
            for step in range(args.turns):
                policy.step(
                    types.SimpleNamespace(step=step, screenshot_png=screenshot(k + step), last_results=[])
                )
            return Rollout(f"t{k // 2}", k % 2, float(k % 2 == 0), list(policy.turns))

        started = time.perf_counter()
        with ThreadPoolExecutor(args.episodes) as pool:  # all at once: vLLM batches them
            rollouts = list(pool.map(episode, range(args.episodes)))
        seconds = time.perf_counter() - started
        completion = sum(len(t.completion_ids) for r in rollouts for t in r.turns)
        rows.append(("vllm rollouts (completion tokens)", seconds, completion,
                     f"{args.episodes} episodes x {args.turns} turns"))  # fmt: skip
        groups = [rollouts[i : i + 2] for i in range(0, len(rollouts), 2)]
        torch.cuda.synchronize()
        with torch.autocast("cuda", dtype=torch.bfloat16):
            stats = updater.update(groups, iteration=1)
        torch.cuda.synchronize()
        rows.append(("gspo update (prompt + completion)", stats.seconds, stats.tokens,
                     f"ratio {stats.ratio_mean:.4f}, clip {stats.clip_low_fraction:.2f}/"
                     f"{stats.clip_high_fraction:.2f}"))  # fmt: skip
        sync = engine.sync(updater)
        rows.append(("weight sync after the update", sync.seconds, None, f"logp gap {sync.logp_gap:.2e}"))
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=60)


def run_gspo_local(work: Path, sft: Path, args, rows: list) -> None:
    """Without vLLM: the episodes sampled by the trainer's own policy (LocalPolicy, `generate` on the
    GPU, one episode at a time), then one GSPOUpdate.update a pass per slice and one a pass per reply
    (as it ran before), from the same weights."""
    config = load_config(None, {"model": str(sft), "tuples": ["synthetic"], "family": FAMILY, "group_size": 2,
                                "tasks_per_iteration": args.episodes // 2, "minibatches": 1, "learning_rate": 1e-6,
                                "max_tokens": args.max_tokens, "temperature": 0.7, "bf16": True,
                                "output_dir": str(work / "gspo")}, kind="gspo")  # fmt: skip
    model, processor = load_policy(str(sft))
    model.to("cuda").eval()
    started = time.perf_counter()
    rollouts = []
    for k in range(args.episodes):
        policy = LocalPolicy(
            model, processor, FAMILY, temperature=config.temperature, max_tokens=config.max_tokens
        )
        policy.start(types.SimpleNamespace(id=f"t{k // 2}", instruction="Fill column B."), SCREEN, None)
        for step in range(args.turns):
            policy.step(
                types.SimpleNamespace(step=step, screenshot_png=screenshot(k + step), last_results=[])
            )
        policy.close()
        rollouts.append(Rollout(f"t{k // 2}", k % 2, float(k % 2 == 0), list(policy.turns)))
    torch.cuda.synchronize()
    completion = sum(len(t.completion_ids) for r in rollouts for t in r.turns)
    rows.append(("generate rollouts (completion tokens)", time.perf_counter() - started, completion,
                 f"{args.episodes} episodes x {args.turns} turns, one at a time"))  # fmt: skip
    groups = [rollouts[i : i + 2] for i in range(0, len(rollouts), 2)]
    weights = {name: value.detach().clone() for name, value in model.state_dict().items()}
    for shared, label in ((True, "a pass per slice"), (False, "a pass per reply")):
        model.load_state_dict(weights)
        updater = GSPOUpdate(config, model, processor, shared_context=shared)
        torch.cuda.synchronize()
        with torch.autocast("cuda", dtype=torch.bfloat16):
            stats = updater.update(groups, iteration=1)
        torch.cuda.synchronize()
        rows.append((f"gspo update, {label}", stats.seconds, stats.tokens,
                     f"{updater.forwards} forwards, ratio {stats.ratio_mean:.4f}"))  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--episodes", type=int, default=16, help="GSPO rollouts (an even number: groups of 2)"
    )
    parser.add_argument("--turns", type=int, default=2, help="model turns per episode")
    parser.add_argument("--max-tokens", type=int, default=256, help="longest reply per turn")
    parser.add_argument("--sft-trajectories", type=int, default=8, help="SFT samples, one step each")
    parser.add_argument(
        "--server-timeout", type=float, default=300.0, help="seconds for vllm serve to come up"
    )
    parser.add_argument("--work", type=Path, default=None, help="scratch folder (default: a temporary one)")
    args = parser.parse_args()
    console = Console()
    if not torch.cuda.is_available():
        console.print("[red]no CUDA device: this script measures the GPU path; run it where one is[/red]")
        return 2
    work = args.work or Path(tempfile.mkdtemp(prefix="gpu-training-"))
    rows: list = []
    params = build_checkpoint(work / "init")
    sft = run_sft(work, work / "init", args.sft_trajectories, rows)
    missing = shutil.which("vllm") is None or importlib.util.find_spec("vllm") is None
    if missing:
        run_gspo_local(work, sft, args, rows)
    else:
        run_gspo_step(work, sft, args, rows)
    table = Table(
        title=f"training on {torch.cuda.get_device_name()}: Qwen2-VL {params / 1e9:.2f}B, random init"
    )
    for column in ("phase", "seconds", "tokens", "tokens/s", "note"):
        table.add_column(column, justify="left" if column in ("phase", "note") else "right")
    for phase, seconds, tokens, note in rows:
        rate = f"{tokens / seconds:,.0f}" if tokens and seconds else ""
        table.add_row(phase, f"{seconds:.2f}", f"{tokens:,.0f}" if tokens else "", rate, note)
    console.print(table)
    if missing:
        console.print(
            "[red]vllm is not installed here: GSPO ran on rollouts the trainer's own policy sampled; "
            "the vLLM half (its rollouts, the weight sync) did not run[/red]"
        )
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
