"""The LLM task writer: (taxonomy leaf, persona, scenario, difficulty, apps) -> TaskSpec.

Seeds are drawn from the apps' feature taxonomies (skills/<app>/taxonomy.yaml): apps take turns,
leaves take turns within an app (so a leaf — the LLM backend's "template" — is used at most
LEAF_CAP times per app per batch), persona, scenario, domain and difficulty are drawn from
the run seed. The model answers with an instruction that states the goal (never the clicks) and a
context that pins the initial state and the ground truth. A reply that is unusable is re-asked once
with the reason; a seed whose second answer is still unusable is skipped (and logged), so a batch
can come out smaller than asked, never wrong.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import logging
import random
import re

from pydantic import BaseModel

from infra.errors import ConfigError, CuagymError
from infra.llm import CallRecord, LLMClient
from infra.settings import Settings
from skills.kit import PERSONAS
from tasks.agents.base import AgentOutputError
from tasks.agents.llm_loop import check_reply, code_blocks, params_schema, parse_arguments
from tasks.models import Difficulty, Domain, Platform, Scenario, SynthParams, TaskSpec
from tasks.prompts import render_prompt
from tasks.skills import load_skill
from tasks.taxonomy import load_taxonomies

log = logging.getLogger(__name__)

LEAF_CAP = 3  # a leaf is the LLM backend's template: <= 3 per app per batch (paper A.2.3)
MAX_INSTRUCTION_WORDS = 150
MIN_CONTEXT_WORDS = 15
# Instructions state goals; these phrases dictate the GUI path instead.
_CLICKS = re.compile(
    r"\b(click|double-click|right-click|press (ctrl|alt|shift|enter|the)|ctrl\s*\+|"
    r"go to the \w+ menu|select .{0,30} from the .{0,20}menu)\b",
    re.IGNORECASE,
)
DIFFICULTY_WEIGHTS = {
    Difficulty.EASY: 0.2,
    Difficulty.MEDIUM: 0.4,
    Difficulty.HARD: 0.4,
}  # paper A.2.5: >= 40 % hard


class TaskSeed(BaseModel):
    leaf: str
    leaf_description: str
    apps: list[str]
    persona: str
    scenario: Scenario
    domain: Domain
    difficulty: Difficulty
    seed: int


def draw_seeds(skills_dir, *, count: int, seed: int, apps: list[str] | None = None) -> list[TaskSeed]:
    """`count` seeds (fewer if the taxonomies cannot supply them under the per-leaf cap)."""
    taxonomies = load_taxonomies(skills_dir)
    chosen = apps or sorted(taxonomies)
    unknown = sorted(set(chosen) - set(taxonomies))
    if unknown:
        raise ConfigError(
            f"no taxonomy for app(s) {unknown}", hint=f"apps with a taxonomy: {', '.join(sorted(taxonomies))}"
        )
    rng = random.Random(seed)
    leaves = {app: rng.sample(sorted(taxonomies[app].leaves), len(taxonomies[app].leaves)) for app in chosen}
    cycles = {app: itertools.cycle(items) for app, items in leaves.items()}
    limit = min(count, sum(len(v) for v in leaves.values()) * LEAF_CAP)
    seeds: list[TaskSeed] = []
    for app in itertools.cycle(chosen):
        if len(seeds) >= limit:
            break
        leaf = next(cycles[app])
        seeds.append(
            TaskSeed(
                leaf=leaf,
                leaf_description=taxonomies[app].leaves[leaf],
                apps=[app],
                persona=rng.choice(PERSONAS),
                scenario=rng.choice(list(Scenario)),
                domain=rng.choice(list(Domain)),
                difficulty=rng.choices(list(DIFFICULTY_WEIGHTS), weights=list(DIFFICULTY_WEIGHTS.values()))[
                    0
                ],
                seed=int.from_bytes(hashlib.sha256(f"{seed}:{len(seeds)}".encode()).digest()[:6], "big"),
            )
        )
    return seeds


def validate_task(data: object) -> tuple[str, str]:
    """(instruction, context) if usable; AgentOutputError saying what is wrong otherwise."""
    if not isinstance(data, dict):
        raise AgentOutputError(
            f"the task is a JSON {type(data).__name__}, not an object", hint="send {instruction, context}"
        )
    instruction = " ".join(str(data.get("instruction") or "").split())
    context = str(data.get("context") or "").strip()
    if not instruction or not context:
        raise AgentOutputError("the task needs a non-empty instruction and context", hint="fill both fields")
    words = len(instruction.split())
    if words > MAX_INSTRUCTION_WORDS:
        raise AgentOutputError(
            f"the instruction has {words} words, over {MAX_INSTRUCTION_WORDS}", hint="state the goal briefly"
        )
    if m := _CLICKS.search(instruction):
        raise AgentOutputError(
            f"the instruction dictates the GUI path ({m.group(0)!r}); state the goal, not the clicks",
            hint="say what the result must be, not how to click there",
        )
    if len(context.split()) < MIN_CONTEXT_WORDS:
        raise AgentOutputError(
            "the context is too thin to pin the initial state and the ground truth",
            hint="name every file, its contents and the expected result",
        )
    return instruction, context


def parse_task_reply(reply) -> tuple[str, str]:
    check_reply(reply)
    for call in reply.tool_calls:
        if call.name == "submit_task":
            return validate_task(parse_arguments(call))
    blocks = [b.body for b in code_blocks(reply.content or "") if b.info.lower() in ("json", "")]
    if not blocks:
        raise AgentOutputError(
            f"no submit_task call and no ```json block in the reply: {(reply.content or '')[:200]!r}",
            hint="call submit_task",
        )
    try:
        return validate_task(json.loads(blocks[-1]))
    except json.JSONDecodeError as exc:
        raise AgentOutputError(
            f"the ```json block is not valid JSON ({exc.msg})", hint="send valid JSON"
        ) from None


class TaskWriter:
    """Writes one TaskSpec per seed. Call records are tagged with the spec's id once it exists."""

    def __init__(self, client: LLMClient, skills_dir, *, tries: int = 2) -> None:
        self.client, self.skills_dir, self.tries = client, skills_dir, tries

    def write(self, seed: TaskSeed) -> TaskSpec:
        """The spec for `seed`; AgentOutputError after `tries` unusable replies, LLMError for the model."""
        skill = load_skill(self.skills_dir, seed.apps)
        tool = {
            "type": "function",
            "function": {
                "name": "submit_task",
                "description": "Submit the task.",
                "parameters": params_schema(
                    {"instruction": "what the user asks", "context": "what pins the world"}
                ),
            },
        }
        feedback, sink, buffered = None, self.client.sink, []
        self.client.sink = buffered.append  # held until the spec id is known, then tagged and forwarded
        try:
            for _ in range(self.tries):
                prompt = render_prompt(
                    "task_writer",
                    persona=seed.persona,
                    app_names=", ".join(seed.apps),
                    difficulty=seed.difficulty.value,
                    leaf=seed.leaf,
                    leaf_description=seed.leaf_description,
                    apps=seed.apps,
                    scenario=seed.scenario.value,
                    domain=seed.domain.value,
                    skill=skill.text,
                    feedback=feedback,
                )
                try:
                    instruction, context = parse_task_reply(
                        self.client.complete([{"role": "user", "content": prompt}], tools=[tool])
                    )
                except AgentOutputError as exc:
                    feedback = f"{exc.message} ({exc.hint})"
                    continue
                spec = _spec(seed, instruction, context)
                _forward(buffered, sink, spec.id)
                return spec
            _forward(buffered, sink, None)
            raise AgentOutputError(
                f"the task writer gave no usable task for {seed.leaf}: {feedback}", hint="see the log"
            )
        except CuagymError:
            _forward(buffered, sink, None)
            raise
        finally:
            self.client.sink = sink


def _forward(buffered: list[CallRecord], sink, task_id: str | None) -> None:
    for record in buffered:
        record.tags["task_id"] = task_id
        if sink is not None:
            sink(record)
    buffered.clear()


def _spec(seed: TaskSeed, instruction: str, context: str) -> TaskSpec:
    digest = hashlib.sha256(json.dumps([seed.leaf, instruction, context]).encode()).hexdigest()[:10]
    name = seed.leaf.split("/")[-1]
    return TaskSpec(
        id=f"llm.{seed.apps[0]}.{name}-{digest}",
        instruction=instruction,
        context=context,
        apps=seed.apps,
        platform=Platform.CROSS if len(seed.apps) > 1 else Platform.DESKTOP,
        domain=seed.domain,
        difficulty=seed.difficulty,
        scenario=seed.scenario,
        persona=seed.persona,
        taxonomy_leaf=seed.leaf,
        family=f"llm:{seed.leaf}",
        template=f"llm:{seed.leaf}",
        seed=seed.seed,
    )


def write_specs(params: SynthParams, settings: Settings, sink) -> list[TaskSpec]:
    """The run's batch written by the LLM task writer (seeds that fail twice are skipped)."""
    from tasks.llm_roles import llm_client

    writer = TaskWriter(llm_client(params, settings, "task_writer", sink), settings.skills_dir)
    specs, failed = [], 0
    for seed in draw_seeds(
        settings.skills_dir, count=params.count, seed=params.resolved_seed(), apps=params.apps
    ):
        try:
            spec = writer.write(seed)
            if spec.id not in {s.id for s in specs}:  # a cached reply can repeat a spec: keep one
                specs.append(spec)
        except AgentOutputError as exc:
            failed += 1
            log.warning("skipping seed %s: %s", seed.leaf, exc.message)
    if not specs:
        raise AgentOutputError(
            f"the task writer produced no usable task ({failed} seed(s) failed)",
            hint="check the task_writer model and its replies in llm_calls",
        )
    return specs
