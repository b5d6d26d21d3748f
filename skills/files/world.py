"""Host-side helpers shared by the Files families' draw() (never shipped into scripts)."""

from __future__ import annotations

import hashlib
import random

from skills.kit.guest.files import fake_content


def make_file(rng: random.Random, name: str, *, low: int = 300, high: int = 20_000) -> dict:
    """Params for one file: name, seed, size and the sha256 of its content."""
    seed = rng.randint(1, 10**9)
    size = rng.randint(low, high)
    data = fake_content(name, seed, size)
    return {"name": name, "seed": seed, "size": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def make_log(rng, pools):
    """A service log made up per seed (pools: codes, messages, dates, paths, services) and its ground
    truth: ERROR counts per code all different and at least 6 apart, so the WARN lines (1 to 5 per
    code, same codes) change every count but never the ranking; INFO lines carry '-' as code."""
    codes = rng.sample(pools["codes"], rng.randint(5, 7))
    top = rng.randint(3, 4)
    # distinct counts, at least 6 apart, so up to 5 WARN repeats per code never reorder the ranking
    counts = sorted(rng.sample(range(2, 12), len(codes)), reverse=True)
    counts = [c * 6 + rng.randint(0, 2) for c in counts]
    errors = dict(zip(codes, counts, strict=True))
    warns = {code: rng.randint(1, 5) for code in codes}
    messages = dict(zip(codes, rng.sample(pools["messages"], len(codes)), strict=True))
    date = rng.choice(pools["dates"])
    rows = [("ERROR", code) for code, n in errors.items() for _ in range(n)]
    rows += [("WARN", code) for code, n in warns.items() for _ in range(n)]
    rows += [("INFO", "-")] * rng.randint(120, 220)
    rng.shuffle(rows)
    seconds = sorted(rng.sample(range(0, 86_400), len(rows)))
    lines = []
    for (level, code), sec in zip(rows, seconds, strict=True):
        stamp = f"{date} {sec // 3600:02d}:{sec // 60 % 60:02d}:{sec % 60:02d}"
        if level == "INFO":
            text = f"served {rng.choice(pools['paths'])} in {rng.randint(3, 900)} ms"
        elif level == "WARN":
            text = f"retrying after {messages[code]} (attempt {rng.randint(1, 3)})"
        else:
            text = f"{messages[code]} on {rng.choice(pools['paths'])}"
        lines.append(f"{stamp} {level} {code} {text}")
    expected = [[code, errors[code]] for code in codes[:top]]
    return dict(
        service=rng.choice(pools["services"]),
        date=date,
        top=top,
        errors=errors,
        warns=warns,
        expected=expected,
        example=f"{rng.randint(12, 99)} {rng.choice([c for c in pools['codes'] if c not in codes] or codes)}",
        log_lines=lines,
        lines=len(lines),
    )
