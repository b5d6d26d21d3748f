"""Team chat: channels, direct messages, threads, reactions, pins and file sharing."""

from pathlib import Path

from infra.hub.apps.chat.seed import default_state
from infra.hub.apps.chat.state import VOLATILE, ChatState
from infra.hub.registry import MockApp

APP = MockApp(
    name="chat",
    title="Team Chat",
    description="Channels, direct messages, threads and reactions for a small company.",
    model=ChatState,
    seed=default_state,
    volatile=VOLATILE,
    static_dir=Path(__file__).parent / "static",
)
