"""SFT peak memory as the dataset grows (issue 26: the ratio of 10x to 1x the dataset <= 1.2).

Each measurement is a fresh Python process (so peak RSS is its own): it writes N synthetic
successful trajectories (30 model steps of 640x360 screenshots, three slices each), then either

- `streamed` — what `run_sft` does: `encode_samples` checks every slice once and keeps it on disk
  (training/sft_data.py), then the Trainer's dataset is read through a DataLoader with our collator
  for one epoch at batch size 1 (each slice encoded when it is read); or
- `up_front` — what `run_sft` did before: every slice encoded into one list held in memory,

and reports its peak RSS (`ru_maxrss`). Both run for 1x and 10x the trajectories in one run, the
sizes interleaved, with the tiny Qwen2-VL processor at a 640x360 pixel budget (so pixel inputs are
the bulk, as at real sizes).

Run: `.venv/bin/python bench/sft_memory.py [N]` (default N = 3 trajectories for 1x; about 10 min on 2 loaded cores).
"""

# ruff: noqa: E402  (the imports below must come after the sys.path fix)
from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import io
import json
import resource
import subprocess
import tempfile

SCREEN = (640, 360)
STEPS = 30


def write_trajectories(out: Path, count: int) -> None:
    from PIL import Image

    from infra.trajectories import Trajectory, TrajectoryStep, TrajectoryWriter

    with TrajectoryWriter(out) as writer:
        for n in range(count):
            rid = f"calc.bench-{n:04d}__r0"
            steps, shots = [], {}
            for k in range(STEPS + 1):
                member = f"{rid}/step_{k:03d}.png"
                image = Image.effect_noise(SCREEN, 40 + k).convert(
                    "RGB"
                )  # incompressible, as screens are not
                buf = io.BytesIO()
                image.save(buf, format="PNG")
                shots[member] = buf.getvalue()
                last = k == STEPS
                args = {"action": "terminate", "status": "success"} if last else {
                    "action": "left_click", "coordinate": [k * 7 % SCREEN[0], k * 5 % SCREEN[1]]}  # fmt: skip
                steps.append(TrajectoryStep(
                    step=k, model_step=k, screenshot="", shard="", member=member, cursor_before=(0, 0),
                    action=args["action"], raw_action_args=args, assistant_raw="Next.",
                    coordinate_screen=None if last else tuple(args["coordinate"])))  # fmt: skip
            writer.write(Trajectory(task_id=rid, instruction="Sort the sheet by date.", reward=1.0,
                                    terminated=True, screen=SCREEN, model="scripted", steps=steps,
                                    policy="scripted", coordinate_space="screen"), shots)  # fmt: skip


def measure(mode: str, count: int) -> dict:
    """In this process: build the data, go through it once, report peak RSS (MB) and slices."""
    import torch

    from training.collate import collate, encode_sample
    from training.config import SFTConfig
    from training.data import sft_samples
    from training.sft import encode_samples
    from training.tiny import tiny_processor

    with tempfile.TemporaryDirectory() as tmp:
        ds = Path(tmp) / "ds"
        write_trajectories(ds, count)
        processor = tiny_processor(max_pixels=SCREEN[0] * SCREEN[1])
        config = SFTConfig(model="tiny:qwen2-vl", family="qwen2.5-vl", datasets=[ds], output_dir=Path(tmp) / "o",
                           max_length=32_768)  # fmt: skip
        pad = processor.tokenizer.pad_token_id
        if mode == "streamed":
            dataset, _ = encode_samples(config, processor)
            loader = torch.utils.data.DataLoader(dataset, batch_size=1, collate_fn=lambda b: collate(b, pad))
            slices = sum(1 for _ in loader)
        else:
            features = [encode_sample(processor, s) for s in sft_samples([ds], config.family)]
            slices = len(features)
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"mode": mode, "trajectories": count, "slices": slices, "peak_mb": round(peak_mb, 1)}


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        print(json.dumps(measure(sys.argv[2], int(sys.argv[3]))))
        return
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    results = {}
    for mode in ("streamed", "up_front"):
        for count in (n, 10 * n):
            out = subprocess.run([sys.executable, __file__, "--child", mode, str(count)], check=True,
                                 capture_output=True, text=True).stdout  # fmt: skip
            results[mode, count] = json.loads(out.strip().splitlines()[-1])
    print(
        f"| mode | 1x ({n} traj.) peak RSS MB | 10x ({10 * n} traj.) peak RSS MB | 10x / 1x | slices 1x / 10x |"
    )
    print("|---|---|---|---|---|")
    for mode in ("streamed", "up_front"):
        small, big = results[mode, n], results[mode, 10 * n]
        ratio = big["peak_mb"] / small["peak_mb"]
        print(f"| {mode} | {small['peak_mb']:.0f} | {big['peak_mb']:.0f} | {ratio:.2f}x | "
              f"{small['slices']} / {big['slices']} |")  # fmt: skip


if __name__ == "__main__":
    main()
