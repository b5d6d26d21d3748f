"""The exported evaluator, judged by OSWorld's own functions (desktop-env 1.0.2, unmodified): only a
full, well-formed reward succeeds on vanilla OSWorld, whatever else reward.py prints.

The old evaluator (`check_include_exclude` with include ["REWARD: 1.0"] over reward.py's output) is a
substring test; each reward below that fools it is shown fooling it, then failing the new one."""

from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path

import pytest
import requests

from infra.envs.base import EnvRole
from infra.settings import PROJECT_ROOT
from tasks.export import GUEST_REWARD, osworld_verdict_command
from tasks.reward_contract import OSWORLD_PASS

from .conftest import export_bundle

REWARDKIT = (PROJECT_ROOT / "skills" / "kit" / "guest" / "rewardkit.py").read_text()
# The evaluator bundles had before: a substring test over reward.py's whole output.
OLD_EVALUATOR = {
    "func": "check_include_exclude",
    "result": {"type": "vm_command_line", "command": ["python3", "/home/user/reward.py"]},
    "expected": {"type": "rule", "rules": {"include": ["REWARD: 1.0"], "exclude": []}},
}
MAIN = '\nif __name__ == "__main__":\n    raise SystemExit(grade())\n'


def _reward(checks: str, main: str = MAIN) -> str:
    return REWARDKIT + "\n" + checks + main


def _checks(first: str, second: str, first_name: str = "the total is right") -> str:
    return (
        f"@component({first_name!r}, 0.5)\ndef first():\n    return {first}\n\n"
        f"@component('the chart exists', 0.5)\ndef second():\n    return {second}\n"
    )


# reward.py variants: (name, source, what OSWorld must score on the new config, fools the old one)
REWARDS = {
    "honest full": (_reward(_checks("True", "True")), 1.0, False),
    "honest partial": (_reward(_checks("True", "False")), 0.0, False),
    # "REWARD: 1.0" inside the BREAKDOWN (a component's name); the last line is REWARD: 0.0
    "name in BREAKDOWN": (_reward(_checks("False", "False", "REWARD: 1.0 when B2 pads A2")), 0.0, True),
    # an echoed file name before the breakdown
    "echoed file name": (
        "print('checking /home/user/REWARD: 1.0.xlsx')\n" + _reward(_checks("False", "False")),
        0.0,
        True,
    ),
    # every component 0, then a hand-written REWARD: 1.0
    "score against its components": (
        "import json\nparts = [{'name': 'a', 'weight': 1.0, 'score': 0.0}]\n"
        "print('BREAKDOWN: ' + json.dumps({'components': parts}))\nprint('REWARD: 1.0')\n",
        0.0,
        True,
    ),
    # a full score printed, then exit 3 (a broken grader): the old rule reads only the output
    "crashed after printing": (
        _reward(
            _checks("True", "True"),
            main='\nif __name__ == "__main__":\n    grade()\n    raise SystemExit(3)\n',
        ),
        0.0,
        True,
    ),
}


def _stage(env, path: str, text: str) -> None:
    """What OSWorld's upload_file does: the file, at its guest path."""
    staged = env.run_script(
        f"from pathlib import Path\nPath({path!r}).write_text({text!r})\n", name="stage.py"
    )
    assert staged.ok, staged.stderr


def _osworld_functions(evaluator: dict):
    """What DesktopEnv._set_evaluator_info resolves for a single metric: `func` in OSWorld's
    metrics, `get_<type>` in its getters for the result and the expected state."""
    import desktop_env.evaluators.getters.general as getters_general
    import desktop_env.evaluators.getters.misc as getters_misc
    import desktop_env.evaluators.metrics.general as metrics_general

    metric = getattr(metrics_general, evaluator["func"])
    result = getattr(getters_general, f"get_{evaluator['result']['type']}")
    expected = getattr(getters_misc, f"get_{evaluator['expected']['type']}")
    return metric, result, expected


def _osworld_score(env, evaluator: dict) -> float:
    """DesktopEnv.evaluate in a local sandbox: the config's command run in the guest gives what
    `vm_command_line` would return (its stdout)."""
    metric, result, expected = _osworld_functions(evaluator)
    assert result.__name__ == "get_vm_command_line"
    command = evaluator["result"]["command"]
    run = env.run_script(f"import os\nos.execvp({command[0]!r}, {command!r})\n", name="execute.py")
    return metric(run.stdout, expected(None, evaluator["expected"]))


@pytest.mark.parametrize("case", REWARDS)
def test_only_a_full_wellformed_reward_succeeds_on_vanilla_osworld(
    provider, osworld_evaluator, families, tmp_path, case
):
    source, expected, fools_old = REWARDS[case]
    evaluator = json.loads(
        (export_bundle(families, "calc.padded_ids", 3, tmp_path) / "config.json").read_text()
    )["evaluator"]
    with provider.provision("osworld-eval", EnvRole.DEBUG) as env:
        _stage(env, GUEST_REWARD, source)  # the postconfig's upload
        assert _osworld_score(env, evaluator) == expected
        assert _osworld_score(env, OLD_EVALUATOR) == (1.0 if fools_old else expected)
        verdict = env.run_script(evaluator["result"]["command"][2], name="verdict.py")
    if expected == 0.0:
        assert verdict.stdout.startswith("cuagym verdict: not full reward: ")  # and says why
    else:
        assert verdict.stdout == OSWORLD_PASS


def test_the_exported_config_names_osworld_functions(families, tmp_path, osworld_evaluator):
    evaluator = json.loads(
        (export_bundle(families, "calc.padded_ids", 3, tmp_path) / "config.json").read_text()
    )["evaluator"]
    import desktop_env.evaluators.getters.general as getters_general
    import desktop_env.evaluators.metrics.general as metrics_general

    # DesktopEnv resolves `func` in metrics and `get_<type>` in getters; both exist in 1.0.2 as is.
    assert getattr(metrics_general, evaluator["func"]) is osworld_evaluator.exact_match
    assert (
        getattr(getters_general, f"get_{evaluator['result']['type']}")
        is osworld_evaluator.get_vm_command_line
    )
    assert evaluator["expected"] == {"type": "rule", "rules": {"expected": OSWORLD_PASS}}
    # OSWorld's guests run Ubuntu 22.04's Python 3.10
    ast.parse(evaluator["result"]["command"][2], feature_version=(3, 10))


@pytest.mark.slow
def test_the_evaluator_through_osworld_on_a_desktop(
    desktop, osworld, osworld_evaluator, families, tmp_path, monkeypatch
):
    """End to end in a real desktop: OSWorld's SetupController runs the config's setup and
    postconfig, its `vm_command_line` getter POSTs the command to the in-guest server, and
    `exact_match` scores it — golden state 1, initial state 0, a fooling reward 0."""
    bundle = export_bundle(families, "calc.padded_ids", 4, tmp_path / "final")
    config = json.loads((bundle / "config.json").read_text())
    evaluator = config["evaluator"]
    monkeypatch.chdir(bundle)  # local_paths are relative to the bundle, as OSWorld resolves them
    vm_ip, port = desktop.osworld_address()
    setup = osworld.SetupController(vm_ip, port, cache_dir=str(tmp_path / "cache"))
    env = type("OsworldEnv", (), {"vm_ip": vm_ip, "server_port": port})()  # what the getter reads

    def score(evaluator: dict) -> float:  # DesktopEnv.evaluate: postconfig, getters, metric
        assert setup.setup(evaluator.get("postconfig", [])) is True
        metric, result, expected = _osworld_functions(evaluator)
        return metric(result(env, evaluator["result"]), expected(env, evaluator["expected"]))

    assert setup.setup(config["config"]) is True
    assert score(evaluator) == 0.0  # the untouched initial state
    fooling = tmp_path / "fooling"
    shutil.copytree(bundle, fooling)
    (fooling / "reward.py").write_text(REWARDS["name in BREAKDOWN"][0])
    monkeypatch.chdir(fooling)
    assert score(evaluator) == 0.0
    assert score(OLD_EVALUATOR) == 1.0  # the reward.py uploaded just now fools the old evaluator
    monkeypatch.chdir(bundle)
    golden = [
        {
            "type": "upload_file",
            "parameters": {"files": [{"local_path": "golden_patch.py", "path": "/tmp/cuagym/g.py"}]},
        },
        {"type": "execute", "parameters": {"command": ["python3", "/tmp/cuagym/g.py"]}},
    ]
    assert setup.setup(golden) is True
    assert score(evaluator) == 1.0
    raw = requests.post(
        f"http://{vm_ip}:{port}/execute",
        json={"command": ["python3", GUEST_REWARD], "shell": False},
        timeout=120,
    ).json()
    assert raw["output"].strip().splitlines()[-1] == "REWARD: 1.0"  # partial credit stays ours


def test_reward_contract_source_is_what_the_command_runs():
    command = osworld_verdict_command()
    source = Path(PROJECT_ROOT / "tasks" / "reward_contract.py").read_text()
    assert command[2].startswith(source) and command[2].endswith(f"osworld_verdict({GUEST_REWARD!r}))\n")
