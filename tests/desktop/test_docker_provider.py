"""The `docker` provider: the same desktops as `desktop`, each in a container of the image built
here from Debian's packages (debootstrap + `docker import` + a Dockerfile, no registry).

The behaviour tests of the `desktop` provider run again on containers — the Calc edit scored by
reward.py, OSWorld's own controllers over the forwarded port, web apps on the hub route with the
network wall, resets that restore the session — by importing them here, where the `desktop` and
`web_provider` fixtures give containers. The rest checks what only a container has: its walls as
the engine records them and as a script inside meets them, a reset that is a new container, and the
sweep of containers a killed run left behind.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from infra.envs.base import EnvRole
from infra.envs.desktop.sandbox import DesktopConfig
from infra.envs.docker import DockerProvider, ensure_image
from infra.envs.docker.container import DESKTOP_LABEL, sweep_orphans
from infra.sandbox import Limits
from infra.settings import PROJECT_ROOT

from .conftest import png_size
from .test_browser import (  # noqa: F401  (collected again, on containers)
    test_the_browser_reaches_the_hub_route_and_no_host_port,
    test_web_scripts_run_unchanged_and_every_reset_restores_the_session,
)
from .test_e2e_calc import test_calc_edit_saved_by_the_real_app_is_scored_by_reward_py  # noqa: F401
from .test_osworld_controllers import (  # noqa: F401
    test_python_controller_reads_the_desktop,
    test_setup_controller_runs_a_bundle_config_and_opens_the_file,
)

pytestmark = pytest.mark.slow


@pytest.fixture
def docker_provider(tmp_path: Path, docker_engine, desktop_image) -> DockerProvider:
    return DockerProvider(tmp_path / "containers", image=desktop_image, client=docker_engine)


@pytest.fixture
def desktop(docker_provider: DockerProvider):
    env = docker_provider.provision("docker-test", EnvRole.DEBUG)
    yield env
    env.close()


@pytest.fixture
def web_provider(tmp_path: Path, docker_engine, desktop_image, hub_route) -> DockerProvider:
    return DockerProvider(tmp_path / "containers", image=desktop_image, client=docker_engine, hub=hub_route)


def _ours(engine) -> list:
    return engine.containers.list(all=True, filters={"label": DESKTOP_LABEL})


def test_the_engine_holds_each_container_to_the_desktops_walls(tmp_path, docker_engine, desktop_image):
    limits = Limits(timeout_s=3600, memory_mb=1536, max_procs=512, max_open_files=2048)
    provider = DockerProvider(
        tmp_path / "c", image=desktop_image, client=docker_engine, config=DesktopConfig(limits=limits)
    )
    with provider.provision("walls", EnvRole.DEBUG) as env:
        container = env._sandbox.container
        host = container.attrs["HostConfig"]
        assert host["NetworkMode"] == "none" and host["ReadonlyRootfs"] is True
        assert host["CapDrop"] == ["ALL"] and host["SecurityOpt"] == ["no-new-privileges"]
        assert host["Memory"] == 1536 * 1024 * 1024 and host["MemorySwap"] == host["Memory"]
        assert host["PidsLimit"] == 512 and host["Ulimits"][0]["Soft"] == 2048
        assert container.attrs["Config"]["User"] == "1000:1000"

        probe = env.run_script(
            textwrap.dedent(
                """
                import getpass, os, socket
                print(getpass.getuser(), os.getuid(), os.getcwd())
                print(sorted(n for n in os.listdir('/sys/class/net')))
                for target in ('/etc/x', '/usr/x', '/opt/cuagym/python/x', '/proc/sys/kernel/hostname'):
                    try:
                        open(target, 'w').write('x')
                        print(target, 'WRITABLE')
                    except OSError as exc:
                        print(target, type(exc).__name__)
                try:
                    socket.create_connection(('192.0.2.1', 80), timeout=3)
                except OSError as exc:
                    print('network', exc.errno)
                """
            ),
            name="walls.py",
        )
        lines = probe.stdout.splitlines()
        assert lines[0] == "user 1000 /home/user"
        assert lines[1] == "['lo']"  # no interface but loopback
        assert all("WRITABLE" not in line for line in lines[2:6]), lines
        assert lines[6] == "network 101"  # ENETUNREACH

        hog = env.run_script(
            "b = bytearray(3 * 1024**3)\nb[::4096] = b'x' * len(b[::4096])\nprint('survived')", name="hog.py"
        )
        assert "survived" not in hog.stdout and not hog.ok  # the cgroup's OOM killer ended it
        assert env.running  # the desktop itself lives on


def test_a_reset_is_a_new_container_over_the_initial_home(desktop, docker_engine):
    first = desktop._sandbox.container.id
    written = desktop.run_script(
        "import pathlib\npathlib.Path('/home/user/Desktop/note.txt').write_text('x')\n"
        "pathlib.Path('/tmp/scratch').write_text('x')\nprint('ok')",
        name="write.py",
    )
    assert written.stdout == "ok\n" and desktop.state_view().entry("Desktop/note.txt") is not None
    desktop.reset()
    second = desktop._sandbox.container.id
    assert second != first and [c.id for c in _ours(docker_engine) if c.id == first] == []
    assert desktop.state_view().entry("Desktop/note.txt") is None
    seen = desktop.run_script("import os\nprint(os.path.exists('/tmp/scratch'))", name="look.py")
    assert seen.stdout == "False\n"  # the old container's writes outside the home went with it
    assert png_size(desktop.screenshot()) == (1920, 1080)
    memory = desktop.memory()
    assert memory.processes >= 4 and memory.pss_mb > 20 and memory.cgroup_mb is not None


def test_closing_removes_the_container_and_a_killed_runs_are_swept(tmp_path, docker_engine, desktop_image):
    script = textwrap.dedent(
        f"""
        import os, sys, time
        sys.path.insert(0, {str(PROJECT_ROOT)!r})
        from pathlib import Path
        from infra.envs.base import EnvRole
        from infra.envs.docker import DockerProvider
        provider = DockerProvider(Path({str(tmp_path / "killed")!r}), image={desktop_image!r})
        env = provider.provision('killed', EnvRole.DEBUG)
        print(env._sandbox.container.id, flush=True)
        time.sleep(600)
        """
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        orphan = child.stdout.readline().strip()
    finally:
        child.kill()
        child.wait()
    assert orphan in {c.id for c in _ours(docker_engine)}  # a container outlives its killed owner…
    provider = DockerProvider(tmp_path / "next", image=desktop_image, client=docker_engine)
    assert orphan not in {c.id for c in _ours(docker_engine)}  # …until the next provider sweeps it
    with provider.provision("mine", EnvRole.DEBUG) as env:
        mine = env._sandbox.container.id
        assert sweep_orphans(docker_engine) == []  # a live owner's container is never swept
    assert mine not in {c.id for c in _ours(docker_engine)}


def test_the_image_is_reused_while_its_inputs_are_unchanged(docker_engine, desktop_image, desktop_python):
    before = docker_engine.images.get(desktop_image).id
    assert ensure_image(docker_engine, desktop_python=desktop_python) == desktop_image
    assert docker_engine.images.get(desktop_image).id == before
    labels = docker_engine.images.get(desktop_image).labels
    assert labels["org.cuagym.image"] == "desktop"
