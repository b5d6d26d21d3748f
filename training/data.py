"""The trajectory dataset (DESIGN.md §3.4) as chat samples for Qwen-VL-family models, sliced.

A trajectory becomes the conversation the LLM rollout policy would have sent for it — the same
system prompt, user-turn wrapping and collapse rule (infra/computer_use/conversation.py) — with
each assistant turn written in the target family's tool-call format and coordinate space:

- one turn per model step: the screenshot the model saw, then its calls re-rendered with
  `render_calls` (Hermes JSON for qwen2.5-vl / qwen3-vl, XML for qwen3.5), each coordinate taken
  from `coordinate_screen` (what was executed) and converted with `from_screen`, so a scripted
  teacher's screen-pixel trajectory teaches the family's own space. Prose before the first
  `<tool_call>` (an LLM teacher's "Action: …") is kept;
- calls that failed are left out, and a step with no call that ran is left out whole: the screen
  did not change, so the demonstration goes on from the same screenshot. No feedback text is
  rebuilt — a cleaned demonstration has nothing to report;
- slicing (CUA-Gym appendix C.1.2): turn n was sampled with `collapsed_count(n + 1, max_screenshots,
  interval)` old screenshots collapsed; consecutive turns that share that count form a slice, whose
  sample is the conversation up to its last turn, training only its own (new) turns. With 20 and 10:
  turns 0–19, 20–29, 30–39, …; slices overlap by 10 turn pairs; each assistant turn is trained
  once, in exactly the context it was sampled in; every slice carries the trajectory's advantage.
  A turn with more than `max_calls` calls stays in the context but is not trained (C.1.2).

Images are PIL images in `{"type": "image", "image": …}` parts (what Qwen processors take).
"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path
from typing import Any

from PIL import Image
from pydantic import ValidationError

from infra.computer_use.actions import parse_action
from infra.computer_use.conversation import (
    Family,
    collapsed_count,
    model_png,
    resolve_family,
    shown_part,
    system_prompt,
    user_content,
)
from infra.computer_use.coords import Geometry
from infra.computer_use.formats import render_calls
from infra.errors import ConfigError
from infra.trajectories import Screenshots, Trajectory, TrajectoryStep, read_trajectories

log = logging.getLogger(__name__)
TRAINABLE_FAMILIES = (
    "qwen3.5",
    "qwen3-vl",
    "qwen2.5-vl",
    "qwen2-vl",
)  # native-tool families have no text format


@dataclass
class Turn:
    """One model step: the screenshot it saw and the assistant reply to train on."""

    image: Image.Image
    assistant: str
    calls: int
    feedback: str = ""


@dataclass
class ChatSample:
    """One training sample: a conversation and which of its messages carry loss.

    `train[i]` is True only for assistant messages new in this slice; system, user (screenshots,
    tool-response wrappers) and earlier assistant messages are context only.
    """

    messages: list[dict[str, Any]]
    train: list[bool]
    advantage: float
    trajectory_id: str
    slice_index: int
    turns: range  # the turns this sample trains (indices into the trajectory's turns)
    meta: dict[str, Any] = field(default_factory=dict)


def trainable_family(name: str) -> Family:
    if name not in TRAINABLE_FAMILIES:
        raise ConfigError(
            f"cannot train family {name!r}", hint=f"use one of: {', '.join(TRAINABLE_FAMILIES)}"
        )
    return resolve_family(name)


def render_turn(
    steps: list[TrajectoryStep], family: Family, screen: tuple[int, int], geometry: Geometry | None = None
) -> tuple[str, int]:
    """The assistant reply of one model step in `family`'s format and space, and its call count."""
    geometry = geometry or family.geometry()
    calls = []
    for step in steps:
        if not step.ok or step.action == "invalid":
            continue
        try:
            arguments = parse_action(step.raw_action_args).model_dump(mode="json", exclude_none=True)
        except ValidationError:  # it ran, so it parsed once; a record we cannot re-read is skipped
            log.debug("unreadable call %s in step %s", step.raw_action_args, step.step)
            continue
        if step.coordinate_screen is not None:
            arguments["coordinate"] = list(geometry.from_screen(step.coordinate_screen, screen))
        calls.append(arguments)
    if not calls:
        return "", 0
    raw = steps[0].assistant_raw
    prose = raw.split("<tool_call>", 1)[0].strip() if "<tool_call>" in raw else ""
    rendered = render_calls(calls, family.fmt)
    return (f"{prose}\n{rendered}" if prose else rendered), len(calls)


def trajectory_turns(
    trajectory: Trajectory, screenshots: Screenshots, family: Family, geometry: Geometry | None = None
) -> list[Turn]:
    """The trajectory's model steps as turns, steps where nothing ran left out."""
    geometry = geometry or family.geometry()
    turns = []
    for _, group in groupby(trajectory.steps, key=lambda s: s.model_step):
        steps = list(group)
        text, count = render_turn(steps, family, trajectory.screen, geometry)
        if not count:
            continue
        png = model_png(screenshots.read(steps[0].shard, steps[0].member), geometry)
        with Image.open(io.BytesIO(png)) as image:
            turns.append(Turn(image=image.convert("RGB"), assistant=text, calls=count))
    return turns


def slice_bounds(n_turns: int, *, interval: int, max_screenshots: int) -> list[tuple[range, int]]:
    """Per slice: the turns it trains and how many of the oldest screenshots its context collapses."""
    # turn n was sampled with n + 1 screenshots in its request
    folds = [collapsed_count(n + 1, max_screenshots, interval) for n in range(n_turns)]
    slices, start = [], 0
    for n in range(1, n_turns + 1):
        if n == n_turns or folds[n] != folds[start]:
            slices.append((range(start, n), folds[start]))
            start = n
    return slices


def conversation(
    turns: list[Turn], upto: int, folded: int, *, system: str, instruction: str
) -> list[dict[str, Any]]:
    """The messages of turns [0, upto) with the first `folded` screenshots collapsed."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": system}]
    for n, turn in enumerate(turns[:upto]):
        shown = shown_part({"type": "image", "image": turn.image}, collapsed=n < folded)
        content = user_content(n, shown, instruction=instruction, feedback=turn.feedback)
        messages.append({"role": "user", "content": content})
        messages.append({"role": "assistant", "content": turn.assistant})  # a string, as the policy sends it
    return messages


def slice_samples(
    turns: list[Turn],
    *,
    system: str,
    instruction: str,
    advantage: float,
    trajectory_id: str,
    interval: int = 10,
    max_screenshots: int = 20,
    max_calls: int = 10,
) -> list[ChatSample]:
    """The training samples of one trajectory's turns (see the module docstring for the rule)."""
    samples = []
    for index, (trained, folded) in enumerate(
        slice_bounds(len(turns), interval=interval, max_screenshots=max_screenshots)
    ):
        messages = conversation(turns, trained.stop, folded, system=system, instruction=instruction)
        train = [False] * len(messages)
        for n in trained:
            train[2 + 2 * n] = turns[n].calls <= max_calls  # messages: system, then (user, assistant) pairs
        samples.append(
            ChatSample(
                messages=messages,
                train=train,
                advantage=advantage,
                trajectory_id=trajectory_id,
                slice_index=index,
                turns=trained,
                meta={"collapsed": folded},
            )
        )
    return samples


def trajectory_samples(
    trajectory: Trajectory,
    screenshots: Screenshots,
    family: str,
    *,
    advantage: float = 1.0,
    interval: int = 10,
    max_screenshots: int = 20,
    max_calls: int = 10,
    geometry: Geometry | None = None,
) -> list[ChatSample]:
    """One trajectory as sliced chat samples for `family` (advantage 1.0: plain SFT weighting). Pass
    the trained processor's geometry (`Geometry.from_processor`): the frames, the resolution the
    prompt states and the targets' coordinates then all follow that processor's pixel budget."""
    fam = trainable_family(family)
    geometry = geometry or fam.geometry()
    turns = trajectory_turns(trajectory, screenshots, fam, geometry)
    return slice_samples(
        turns,
        system=system_prompt(fam, geometry, trajectory.screen),
        instruction=trajectory.instruction,
        advantage=advantage,
        trajectory_id=trajectory.task_id,
        interval=interval,
        max_screenshots=max_screenshots,
        max_calls=max_calls,
    )


def is_success(trajectory: Trajectory) -> bool:
    """SFT keeps only full successes; an unscored rollout (reward None) is neither success nor 0."""
    return trajectory.reward is not None and trajectory.reward == 1.0


def sft_samples(
    datasets: list[Path],
    family: str,
    *,
    interval: int = 10,
    max_screenshots: int = 20,
    max_calls: int = 10,
    geometry: Geometry | None = None,
) -> Iterator[ChatSample]:
    """Every slice of every successful trajectory in `datasets`, with counts logged per dataset."""
    for out in datasets:
        kept = skipped = unscored = 0
        screenshots = Screenshots(Path(out))
        try:
            for trajectory in read_trajectories(Path(out)):
                if not is_success(trajectory):
                    unscored += trajectory.reward is None
                    skipped += 1
                    continue
                kept += 1
                yield from trajectory_samples(
                    trajectory,
                    screenshots,
                    family,
                    interval=interval,
                    max_screenshots=max_screenshots,
                    max_calls=max_calls,
                    geometry=geometry,
                )
        finally:
            screenshots.close()
        log.info("sft data %s: kept=%d skipped=%d (unscored=%d)", out, kept, skipped, unscored)
