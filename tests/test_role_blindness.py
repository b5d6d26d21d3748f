"""An env never tells a script which role it plays (initial vs golden): a reward that could tell
would score the golden env 1.0 and the initial env 0.0 without checking the task at all."""

from __future__ import annotations

import json
import re

import pytest

from infra.envs.base import EnvRole
from infra.envs.local import LocalProvider
from tasks.export import write_bundle
from tasks.verify import verify_bundle

# Everything a script can look at besides the state: its folder, environment, process list, mounts,
# hostname and working directory.
PROBE = r"""
import json, os, socket
procs = []
for pid in sorted(p for p in os.listdir("/proc") if p.isdigit()):
    try:
        procs.append(open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode())
    except OSError:
        pass
mounts = [" ".join(line.split()[3:5] + line.split(" - ")[1].split()[:1])
          for line in open("/proc/self/mountinfo")]
print(json.dumps({
    "scripts": sorted(os.listdir("/opt/cuagym/scripts")), "env": dict(os.environ), "procs": procs,
    "mounts": mounts, "hostname": socket.gethostname(), "cwd": os.getcwd(), "uid": os.getuid(),
}))
"""
RANDOM_TOKEN = re.compile(r"[0-9a-f]{16,}")


def _observed(result) -> dict:
    assert result.ok, result.stderr
    return json.loads(RANDOM_TOKEN.sub("<random>", result.stdout.strip().splitlines()[-1]))


@pytest.fixture
def blind_provider(tmp_path_factory, guest_python, hub_route) -> LocalProvider:
    # Not tmp_path: pytest names it after the test, whose name says "initial" and "golden".
    return LocalProvider(tmp_path_factory.mktemp("envs"), guest_python, hub=hub_route)


@pytest.mark.parametrize("apps", [["calc"], ["chat"]], ids=["desktop-app", "web-app"])
def test_initial_and_golden_envs_look_the_same_to_a_script(blind_provider, apps):
    provider = blind_provider
    with (
        provider.provision("t.role", EnvRole.INITIAL, apps=apps) as initial,
        provider.provision("t.role", EnvRole.GOLDEN, apps=apps) as golden,
    ):
        for env in (initial, golden):
            assert env.run_script(
                "open('/home/user/Desktop/a.txt', 'w').write('a')", name="initial_setup.py"
            ).ok
        assert golden.run_script("print('patched')", name="golden_patch.py").ok
        seen = [_observed(env.run_script(PROBE, name="reward.py")) for env in (initial, golden)]
    assert seen[0] == seen[1]
    assert seen[0]["scripts"] == ["reward.py"]
    text = json.dumps(seen[0]).lower()
    assert "initial" not in text and "golden" not in text
    if apps == ["chat"]:
        assert seen[0]["env"]["CUAGYM_SID"] == "<random>"


SNIFFERS = {
    "script folder": "import os\nseen = os.path.exists('/opt/cuagym/scripts/golden_patch.py')",
    "session id": "import os\nseen = 'golden' in os.environ.get('CUAGYM_SID', '')",
    "mounts": "seen = 'golden' in open('/proc/self/mountinfo').read()",
    "process list": "import os\nseen = any('golden' in open(f'/proc/{p}/cmdline').read() "
    "for p in os.listdir('/proc') if p.isdigit())",
}


@pytest.mark.parametrize("how", SNIFFERS)
def test_a_bundle_whose_reward_sniffs_its_role_fails_verify(provider, families, tmp_path, how):
    spec = families["chat.channel_kickoff"].instantiate(3)
    reward = SNIFFERS[how] + (
        "\nimport json\nscore = 1.0 if seen else 0.0\n"
        "print('BREAKDOWN: ' + json.dumps({'components': [{'name': 'role', 'weight': 1.0, 'score': score}]}))\n"
        "print(f'REWARD: {score}')\n"
    )
    bundle = write_bundle(
        tmp_path / "final",
        spec,
        initial_setup_py=families["chat.channel_kickoff"].script("initial_setup", spec),
        golden_patch_py="print('did nothing')\n",
        reward_py=reward,
        review_md="",
        provenance={},
    )
    check = verify_bundle(bundle, provider)
    assert not check.ok
    assert check.reward_golden == 0.0, f"the reward told the golden env apart by its {how}"
