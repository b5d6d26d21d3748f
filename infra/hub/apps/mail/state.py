"""Mail client state: one account, folders, labels, and messages (each in exactly one folder).

A message's place is its `folder` (archive, delete, move and send all change only that field, plus
what the action says); labels are a separate, many-to-many tag list. Conversations are grouped by
`thread`; replies point at their parent with `in_reply_to`.
"""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field, model_validator

from infra.hub.apps.models import Loose

SYSTEM_FOLDERS = ("inbox", "sent", "drafts", "archive", "spam", "trash")
# The "last synced" clock and view state change when nothing in the mailbox did.
VOLATILE = ("ui", "account.last_sync")


class Person(Loose):
    name: str = ""
    email: str = Field(pattern=r"^[^@\s]+@[^@\s]+$")


class Account(Loose):
    name: str
    email: str
    signature: str = ""
    last_sync: str = ""


class Folder(Loose):
    name: str
    system: bool = False
    order: int = 100


class Label(Loose):
    name: str
    color: str = "#868e96"


class Attachment(Loose):
    name: str
    size: int = 0
    content_type: str = "application/octet-stream"
    url: str = ""


class Message(Loose):
    # The stored key is "from" (what the UI and rewards read); validating by alias only means a state
    # that says "sender" is refused with a 422 instead of being stored and breaking the UI.
    model_config = ConfigDict(extra="allow", populate_by_name=False)

    folder: str
    thread: str
    sender: Person = Field(alias="from")
    to: list[Person] = Field(default_factory=list)
    cc: list[Person] = Field(default_factory=list)
    subject: str = ""
    body: str = ""
    date: str
    read: bool = False
    starred: bool = False
    labels: list[str] = Field(default_factory=list)
    attachments: list[Attachment] = Field(default_factory=list)
    in_reply_to: str | None = None


class MailState(Loose):
    account: Account
    folders: dict[str, Folder]
    labels: dict[str, Label] = Field(default_factory=dict)
    messages: dict[str, Message] = Field(default_factory=dict)
    contacts: list[Person] = Field(default_factory=list)
    ui: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _references_resolve(self) -> MailState:
        missing = [f for f in SYSTEM_FOLDERS if f not in self.folders]
        if missing:
            raise ValueError(f"folders must include the system folders; missing {', '.join(missing)}")
        for mid, message in self.messages.items():
            if message.folder not in self.folders:
                raise ValueError(f"messages.{mid}.folder {message.folder!r} is not a folder")
            unknown = [label for label in message.labels if label not in self.labels]
            if unknown:
                raise ValueError(f"messages.{mid}.labels has unknown label {unknown[0]!r}")
            if message.in_reply_to is not None and message.in_reply_to not in self.messages:
                raise ValueError(f"messages.{mid}.in_reply_to {message.in_reply_to!r} is not a message")
        return self
