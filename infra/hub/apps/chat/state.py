"""Team chat state: the schema every stored state must fit, and what is volatile.

Collections are objects keyed by id (not arrays) so that `/go` reports one change per message or
channel field (`messages.m0042`, `channels.c_design.topic`) instead of one whole-array change.
See SCHEMA.md for the field reference and the observable-changes table.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from infra.hub.apps.models import Loose

# Reaction names the UI offers (glyphs live in the UI); injected states may use others.
REACTIONS = ("check", "heart", "smile", "star", "zap", "coffee", "point_up", "v")
# The open conversation/thread and read markers change by merely looking around; never reward them.
VOLATILE = ("ui", "last_read")


class Workspace(Loose):
    name: str
    domain: str = ""


class User(Loose):
    name: str
    handle: str
    title: str = ""
    status_text: str = ""
    presence: Literal["active", "away"] = "active"
    color: str = "#5c7cfa"


class Channel(Loose):
    name: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]{0,79}$")
    topic: str = ""
    purpose: str = ""
    private: bool = False
    archived: bool = False
    starred: bool = False
    members: list[str] = Field(default_factory=list)
    created_by: str | None = None
    created: str = ""


class DirectMessage(Loose):
    members: list[str]


class Attachment(Loose):
    name: str
    url: str
    size: int = 0
    content_type: str = "application/octet-stream"


class Message(Loose):
    conversation: str
    user: str
    text: str
    ts: str
    thread: str | None = None  # id of the parent message when this is a thread reply
    reactions: dict[str, list[str]] = Field(default_factory=dict)
    edited: bool = False
    pinned: bool = False
    files: list[Attachment] = Field(default_factory=list)


class ChatState(Loose):
    workspace: Workspace
    current_user: str
    users: dict[str, User]
    channels: dict[str, Channel] = Field(default_factory=dict)
    dms: dict[str, DirectMessage] = Field(default_factory=dict)
    messages: dict[str, Message] = Field(default_factory=dict)
    last_read: dict[str, str] = Field(default_factory=dict)
    ui: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _references_resolve(self) -> ChatState:
        if self.current_user not in self.users:
            raise ValueError(f"current_user {self.current_user!r} is not in users")
        conversations = set(self.channels) | set(self.dms)
        for mid, message in self.messages.items():
            if message.conversation not in conversations:
                raise ValueError(
                    f"messages.{mid}.conversation {message.conversation!r} is not a channel or DM"
                )
            if message.thread is not None and message.thread not in self.messages:
                raise ValueError(f"messages.{mid}.thread {message.thread!r} is not a message")
        return self
