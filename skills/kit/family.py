"""A family: its definition (YAML) and its code (the Python module beside it).

The module defines, at top level:

    draw(rng, pools) -> dict            host side: the params of one instance (initial data and ground
                                        truth), JSON-serialisable, drawn with `rng` from `pools`
    initial_setup(P)                    guest: builds the initial state under /home/user
    solve(P, mistake=None)              guest: applies the solution to that state (never rebuilds it);
                                        with a mistake named in the YAML, a plausible near miss instead
    reward(P)                           guest: registers @component / @precondition checks
                                        (skills/kit/guest/rewardkit.py) against the state

Optionally, host side too:

    demonstrate(P, screen)              the GUI teacher: a generator of computer_use call batches (lists
                                        of argument dicts, screen pixels) that a careful person would
                                        perform in the real app, reading `screen` (screenshot, windows,
                                        accessibility tree) where it must find something. It never
                                        writes files itself: a teacher run reaching reward 1.0 proves
                                        the reward accepts what the application wrote.

Every other top-level function of the module is guest code too, shipped when a guest function
reaches it; helpers shared by several families live in skills/kit/guest/.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import random
from dataclasses import dataclass
from pathlib import Path
from types import FunctionType, ModuleType
from typing import Literal

from infra.contracts.task import Domain, TaskSpec, Wording
from infra.errors import ConfigError
from skills.kit.definition import CompiledText, FamilyDefinition
from skills.kit.render import render_script
from skills.kit.vocabulary import PERSONAS

ScriptKind = Literal["initial_setup", "golden_patch", "reward", "near_miss"]
SCRIPT_KINDS: tuple[ScriptKind, ...] = ("initial_setup", "golden_patch", "reward", "near_miss")
_REQUIRED = {"draw": ["rng", "pools"], "initial_setup": ["P"], "solve": ["P", "mistake"], "reward": ["P"]}
_SIGNATURES = "a family module defines " + ", ".join(f"{n}({', '.join(a)})" for n, a in _REQUIRED.items())


@dataclass(frozen=True, eq=False)  # one object per family per load: identity is equality (and hashable)
class Family:
    definition: FamilyDefinition
    module: ModuleType
    path: Path  # the YAML file

    def __post_init__(self) -> None:
        for name, args in _REQUIRED.items():
            fn = getattr(self.module, name, None)
            if not isinstance(fn, FunctionType):
                raise ConfigError(f"{self.code_path} defines no function {name}()", hint=_SIGNATURES)
            if list(inspect.signature(fn).parameters) != args:
                raise ConfigError(
                    f"{self.code_path}: {name}() takes ({', '.join(inspect.signature(fn).parameters)})",
                    hint=f"its parameters are ({', '.join(args)})",
                )
        object.__setattr__(self, "text", CompiledText(self.definition, self.path))

    # --- what the sampler and the pipeline read ---------------------------------------------------

    id = property(lambda self: self.definition.id)
    apps = property(lambda self: self.definition.apps)
    platform = property(lambda self: self.definition.platform)
    difficulty = property(lambda self: self.definition.difficulty)
    leaves = property(lambda self: self.definition.leaves)
    domains = property(lambda self: self.definition.domains)
    scenarios = property(lambda self: self.definition.scenarios)
    templates = property(lambda self: self.definition.templates)
    mistakes = property(lambda self: self.definition.mistakes)

    @property
    def teacher(self):
        """The family's `demonstrate(P, screen)`, or None when it has no GUI teacher."""
        fn = getattr(self.module, "demonstrate", None)
        return fn if isinstance(fn, FunctionType) else None

    @property
    def code_path(self) -> Path:
        return self.path.with_suffix(".py")

    def instantiate(
        self,
        seed: int,
        *,
        wording: Wording | None = None,
        domain: Domain | None = None,
        personas: tuple[str, ...] | list[str] | None = None,
        leaf: str | None = None,
        sampling_pass: str = "",
    ) -> TaskSpec:
        """The TaskSpec of the instance drawn from `seed` (same arguments, same spec). The sampler picks
        wording, domain, persona pool and leaf to steer coverage; otherwise they are drawn."""
        rng = random.Random(f"{self.id}:{seed}")
        params = self.module.draw(rng, self.definition.pools)
        try:
            json.dumps(params)
        except TypeError as exc:  # fail here, not inside a guest script
            raise ConfigError(
                f"family {self.id}: draw() returned params that are not JSON: {exc}",
                hint="return dicts, lists, strings, numbers and booleans only",
            ) from None
        wording = wording or rng.choice(sorted(self.templates))
        domain = domain or rng.choice(self.domains)
        persona = rng.choice(list(personas or PERSONAS))
        leaf = leaf or self.leaves[0]
        if leaf not in self.leaves:
            raise ConfigError(f"{leaf!r} is not a leaf of family {self.id}", hint=f"one of {self.leaves}")
        words = self.text.render_words(params)
        digest = hashlib.sha256(json.dumps([params, wording.value], sort_keys=True).encode()).hexdigest()
        return TaskSpec(
            id=f"{self.id}-{digest[:10]}",
            instruction=self.text.instruction(wording, params, words, persona),
            context=self.text.render_context(params, words),
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

    def script(self, kind: ScriptKind, spec: TaskSpec, *, mistake: str | None = None) -> str:
        """A self-contained script of `kind` for `spec`; `near_miss` makes `mistake` (default: the
        first the YAML names)."""
        module = self.module
        if kind == "initial_setup":
            entry, call = module.initial_setup, "initial_setup(P)"
        elif kind == "golden_patch":
            entry, call = module.solve, "solve(P)"
        elif kind == "near_miss":
            mistake = mistake or next(iter(self.mistakes))
            if mistake not in self.mistakes:
                raise ConfigError(
                    f"family {self.id} names no mistake {mistake!r}", hint=f"one of {list(self.mistakes)}"
                )
            entry, call = module.solve, f"solve(P, mistake={mistake!r})"
        elif kind == "reward":
            entry, call = module.reward, "reward(P)"
        else:
            raise ConfigError(f"unknown script kind {kind!r}", hint=f"one of {SCRIPT_KINDS}")
        return render_script(
            kind,
            entry,
            call,
            params=spec.params,
            family_module=module,
            family_id=self.id,
            title=f"cuagym task {spec.id} (family {spec.family})",
        )
