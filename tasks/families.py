"""Parameterised task families: the procedural (no-LLM) backend's knowledge of an app.

A family draws a random instance (params: the initial data and the ground truth), words an
instruction for it in one of five styles, and has four *guest functions* — defined at module level
under these names, one family per module — whose source is shipped into the generated scripts:

    initial_setup(P)  builds the initial state under /home/user
    golden_patch(P)   applies the solution to that state (never rebuilds it)
    reward(P)         registers @component checks (tasks/guest/rewardkit.py) against the state
    near_miss(P)      a plausible wrong solution with one component wrong (tests prove the reward
                      tells it from the golden one: 0 < reward < 1)

`render_script` turns a guest function plus P into a self-contained Python file: stdlib and the
allowed libraries only, no import of cuagym, so the same file runs in an OSWorld VM.

Families live in skills/<app>/families/*.py and are found by `load_families`.
"""

from __future__ import annotations

import abc
import ast
import hashlib
import importlib.util
import inspect
import json
import random
import sys
import textwrap
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar, Literal

from infra.errors import ConfigError
from tasks.models import Difficulty, Domain, Platform, Scenario, TaskSpec, Wording

ScriptKind = Literal["initial_setup", "golden_patch", "reward", "near_miss"]
GUEST_KINDS: tuple[ScriptKind, ...] = ("initial_setup", "golden_patch", "reward", "near_miss")
GUEST_DIR = Path(__file__).with_name("guest")

PERSONAS = (
    "an accounts-payable clerk", "a high-school teacher", "a lab technician", "a small-shop owner",
    "a project manager", "a graduate student", "an HR coordinator", "a freelance designer",
    "a logistics planner", "a clinic administrator", "a data analyst", "a sales representative",
    "a software developer", "a paralegal", "a research scientist", "a retired engineer",
)  # fmt: skip


class Family(abc.ABC):
    """Subclass per task family; class attributes describe it, guest functions implement it."""

    id: ClassVar[str]  # "<app>.<name>", unique
    apps: ClassVar[tuple[str, ...]]  # first is the primary app
    platform: ClassVar[Platform] = Platform.DESKTOP
    difficulty: ClassVar[Difficulty]
    leaves: ClassVar[tuple[str, ...]]  # taxonomy leaf paths exercised, e.g. "calc/formulas/text/text_function"
    domains: ClassVar[tuple[Domain, ...]]
    scenarios: ClassVar[tuple[Scenario, ...]] = (Scenario.COMMERCIAL,)
    templates: ClassVar[dict[Wording, str]]  # str.format templates over `words(P)`
    initial_setup: ClassVar[Callable[[dict], None]]
    golden_patch: ClassVar[Callable[[dict], None]]
    reward: ClassVar[Callable[[dict], None]]
    near_miss: ClassVar[Callable[[dict], None]]
    helpers: ClassVar[tuple[Callable, ...]] = ()  # extra guest functions the three above call

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A family module defines its guest functions at module level under their kind's name
        (`def initial_setup(P): …`); pick them up so each class need not repeat them."""
        super().__init_subclass__(**kwargs)
        module = sys.modules.get(cls.__module__)
        for kind in GUEST_KINDS:
            if kind not in vars(cls) and module is not None and callable(getattr(module, kind, None)):
                setattr(cls, kind, staticmethod(getattr(module, kind)))

    @abc.abstractmethod
    def draw(self, rng: random.Random) -> dict[str, Any]:
        """Random, JSON-serialisable params: initial data and ground truth of one instance."""

    @abc.abstractmethod
    def words(self, params: dict[str, Any]) -> dict[str, str]:
        """Values the instruction templates refer to."""

    @abc.abstractmethod
    def context(self, params: dict[str, Any]) -> str:
        """What pins the world: files, entities and ground truth, for both agents and reviewers."""

    # --- derived ---------------------------------------------------------------------------------

    def instantiate(
        self, seed: int, *, wording: Wording | None = None, domain: Domain | None = None,
        personas: tuple[str, ...] | list[str] | None = None, leaf: str | None = None, sampling_pass: str = "",
    ) -> TaskSpec:  # fmt: skip
        """A TaskSpec for the instance drawn from `seed` (same arguments, same spec). The sampler
        picks wording, domain, persona pool and leaf to steer coverage; otherwise they are drawn."""
        rng = random.Random(f"{self.id}:{seed}")
        params = self.draw(rng)
        json.dumps(params)  # fail here, not inside a guest script, if params are not JSON
        wording = wording or rng.choice(sorted(self.templates))
        domain = domain or rng.choice(self.domains)
        persona = rng.choice(list(personas or PERSONAS))
        leaf = leaf or self.leaves[0]
        if leaf not in self.leaves:
            raise ConfigError(f"{leaf!r} is not a leaf of family {self.id}", hint=f"one of {self.leaves}")
        instruction = " ".join(self.templates[wording].format(**self.words(params), persona=persona).split())
        digest = hashlib.sha256(json.dumps([params, wording.value], sort_keys=True).encode()).hexdigest()
        return TaskSpec(
            id=f"{self.id}-{digest[:10]}",
            instruction=instruction,
            context=self.context(params),
            apps=list(self.apps),
            platform=self.platform,
            domain=domain,
            difficulty=self.difficulty,
            scenario=rng.choice(self.scenarios),
            persona=persona,
            taxonomy_leaf=leaf,
            family=self.id,
            template=f"{self.id}:{wording.value}",
            seed=seed,
            params=params,
            sampling_pass=sampling_pass,
        )

    def script(self, kind: ScriptKind, spec: TaskSpec) -> str:
        # getattr on the class: a guest function is plain (no self) whether or not it is a staticmethod
        return render_script(kind, getattr(type(self), kind), spec, helpers=self.helpers)


def _function_source(fn: Callable) -> str:
    return textwrap.dedent(inspect.getsource(fn)).strip() + "\n"


@lru_cache(maxsize=1)
def rewardkit_source() -> str:
    source = (GUEST_DIR / "rewardkit.py").read_text()
    body = source.split('"""', 2)[2].lstrip()  # drop the module docstring, keep everything else
    return body


def _names(fn: Callable) -> set[str]:
    return {n.id for n in ast.walk(ast.parse(_function_source(fn))) if isinstance(n, ast.Name)}


def _helpers_used(fn: Callable, helpers: tuple[Callable, ...]) -> list[Callable]:
    """The helpers `fn` reaches (directly or through other helpers), in declaration order: a
    reward.py must not carry the patch's file-editing code, nor a setup script the checks."""
    by_name = {h.__name__: h for h in helpers}
    needed: set[str] = set()
    frontier = _names(fn) & by_name.keys()
    while frontier:
        name = frontier.pop()
        needed.add(name)
        frontier |= (_names(by_name[name]) & by_name.keys()) - needed
    return [h for h in helpers if h.__name__ in needed]


def render_script(
    kind: ScriptKind, fn: Callable, spec: TaskSpec, *, helpers: tuple[Callable, ...] = ()
) -> str:
    """A self-contained script running `fn(P)` (plus `grade()` for rewards) with P = spec.params."""
    header = [
        "#!/usr/bin/env python3",
        f'"""{kind}.py for cuagym task {spec.id} (family {spec.family}). Generated; self-contained."""',
        "",
        "import json",
        "from pathlib import Path",
        "",
        'HOME = Path("/home/user")',
        f"P = json.loads({json.dumps(spec.params, sort_keys=True)!r})",
        "",
    ]
    parts = ["\n".join(header)]
    if kind == "reward":
        parts.append("# --- rewardkit: weighted, guarded components ---\n" + rewardkit_source())
    parts += [_function_source(h) for h in _helpers_used(fn, helpers)]
    parts.append(_function_source(fn))
    call = f"    {fn.__name__}(P)\n"
    if kind == "reward":
        call += "    raise SystemExit(grade())\n"
    parts.append('if __name__ == "__main__":\n' + call)
    return "\n\n".join(p.rstrip("\n") for p in parts) + "\n"


def _load_module(path: Path):
    name = f"cuagym_family_{path.parent.parent.name}_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ConfigError(f"cannot import family module {path}", hint="is it a valid Python file?")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # inspect.getsource needs the module registered
    spec.loader.exec_module(module)
    return module


def load_families(skills_dir: Path) -> dict[str, Family]:
    """Every Family subclass under skills/<app>/families/, by id. Duplicate ids are an error."""
    return dict(_load_families_cached(skills_dir.resolve()))


@lru_cache(maxsize=4)
def _load_families_cached(skills_dir: Path) -> tuple[tuple[str, Family], ...]:
    found: dict[str, Family] = {}
    for path in sorted(skills_dir.glob("*/families/*.py")):
        if path.name.startswith("_"):
            continue
        module = _load_module(path)
        for obj in vars(module).values():
            if inspect.isclass(obj) and issubclass(obj, Family) and obj is not Family and "id" in vars(obj):
                _validate(obj, path)
                if obj.id in found:
                    raise ConfigError(f"family id {obj.id!r} defined twice ({path})", hint="ids must be unique")
                found[obj.id] = obj()
    return tuple(sorted(found.items()))


def _validate(cls: type[Family], path: Path) -> None:
    missing = [a for a in ("apps", "difficulty", "leaves", "domains", "templates", *GUEST_KINDS)
               if not hasattr(cls, a)]  # fmt: skip
    if missing:
        raise ConfigError(f"family {cls.id} in {path} lacks {missing}", hint="see tasks/families.py Family")
    if cls.leaves[0].split("/")[0] != cls.apps[0]:
        raise ConfigError(f"family {cls.id}: first leaf {cls.leaves[0]!r} is not in its primary app {cls.apps[0]!r}",
                          hint="apps[0] is the primary app and leaves[0] becomes the task's taxonomy leaf")  # fmt: skip
    if set(cls.templates) != set(Wording):
        raise ConfigError(
            f"family {cls.id} has wordings {sorted(cls.templates)}; every style is required",
            hint=f"add templates for {sorted(set(Wording) - set(cls.templates))}",
        )
