"""Mail client: folders, labels, threads, compose / reply / forward, archive, spam and trash."""

from pathlib import Path

from infra.hub.apps.mail.seed import default_state
from infra.hub.apps.mail.state import VOLATILE, MailState
from infra.hub.registry import MockApp

APP = MockApp(
    name="mail",
    title="Mail",
    description="A webmail client with folders, labels, threads, compose, reply, forward and archive.",
    model=MailState,
    seed=default_state,
    volatile=VOLATILE,
    static_dir=Path(__file__).parent / "static",
)
