"""The `docker` env provider: the same desktops as `desktop` (the DesktopEnv class, the in-guest
server, OSWorld's controllers), each in a container of the locally built desktop image
(infra/envs/docker/image.py) instead of a bubblewrap sandbox over the host's /usr.

What stays the same: the env's folder on the host (`home/` bind-mounted at /home/user, so state
views, snapshots and file reads work on the host side exactly as for `desktop`), the token, the
server's Unix socket and `serve_tcp()` for OSWorld's controllers. What differs: the desktop's
programs come from the image, not the host (a fleet machine needs only an engine and the image), and
a reset throws the container away and starts a new one from the image over the restored home.

Example:
    >>> client = docker_client()
    >>> provider = DockerProvider(Path("var/containers"), image=ensure_image(client), client=client)
    >>> with provider.provision("t1", EnvRole.ROLLOUT) as env:
    ...     png = env.screenshot()
"""

from __future__ import annotations

from pathlib import Path

from infra.envs.desktop import DesktopEnv, DesktopProvider
from infra.envs.desktop.sandbox import DesktopConfig, GuestSession
from infra.envs.docker.container import OWNER_LABEL, ContainerSession, owner_label, sweep_orphans
from infra.envs.docker.daemon import docker_client, engine, stop_dockerd
from infra.envs.docker.image import ensure_image, image_present
from infra.envs.local import HubRoute
from infra.errors import EnvError
from infra.sandbox import Limits

__all__ = ["DockerProvider", "docker_client", "engine", "ensure_image", "stop_dockerd"]


class DockerProvider(DesktopProvider):
    """Desktops as containers of `image` (a tag from `ensure_image`), their folders under `root`."""

    name = "docker"

    def __init__(
        self,
        root: Path,
        *,
        image: str,
        client=None,
        config: DesktopConfig | None = None,
        script_limits: Limits | None = None,
        keep: bool = False,
        hub: HubRoute | None = None,
    ) -> None:
        self._configure(root, config=config, script_limits=script_limits, keep=keep, hub=hub)
        self.client = client or docker_client()
        if not image_present(self.client, image):
            raise EnvError(
                f"the desktop image {image} is not in the Docker engine",
                hint="build it with `cuagym desktop image` (or infra.envs.docker.ensure_image)",
            )
        self.image = image
        self.owner = owner_label()
        sweep_orphans(self.client)

    def new_sandbox(self, env: DesktopEnv) -> GuestSession:
        labels = {"org.cuagym.task": env.task_id, "org.cuagym.env": env.id, OWNER_LABEL: self.owner}
        return ContainerSession(client=self.client, image=self.image, labels=labels, **self.session_args(env))

    def has_program(self, name: str) -> bool:
        """The image holds the whole desktop (infra/images/desktop-packages.txt)."""
        return True
