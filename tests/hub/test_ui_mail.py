"""Mail client driven in Chromium: archive, compose, reply, labels and attachments change exactly the
fields the SCHEMA.md table lists."""

from __future__ import annotations

import httpx
import pytest

from tests.hub.browser import AppSession, only_new_entry

pytestmark = pytest.mark.slow

ME = {"name": "Jordan Lee", "email": "jordan.lee@brightmail.test"}


def row(mid: str) -> str:
    return f".row[data-id={mid}]"


def test_main_page_screenshot(hub, page):
    mail = AppSession(hub, page, "mail", "#/inbox/e006")  # e006 is already read: opening it changes nothing
    assert page.locator(".reader-subject").inner_text().startswith("Contract review")
    mail.screenshot()
    assert mail.diff() == {}


def test_archive_from_the_list(hub, page):
    mail = AppSession(hub, page, "mail", "#/inbox")
    page.check(f"{row('e002')} input[type=checkbox]")
    page.click(".list-toolbar [aria-label=Archive]")
    assert mail.diff() == {"messages.e002.folder": {"old": "inbox", "new": "archive"}}
    assert page.locator(row("e002")).count() == 0
    page.click(".side-item[data-box=archive]")
    page.wait_for_selector(row("e002"))


def test_compose_and_send(hub, page):
    mail = AppSession(hub, page, "mail", "#/inbox")
    page.click(".compose-btn")
    win = ".compose-window"
    page.fill(f"{win} input[name=to]", "Sam Rivera <sam.rivera@orbitdesign.test>, not-an-address")
    page.fill(f"{win} input[name=subject]", "Feedback on v3")
    page.fill(f"{win} textarea", "Hi Sam, the new hero works. Two small notes inline.")
    page.click(f"{win} .send-btn")
    assert "not-an-address" in page.locator(".toast-error").inner_text()
    assert mail.diff() == {}  # nothing is written until the message can be sent
    page.fill(f"{win} input[name=to]", "Sam Rivera <sam.rivera@orbitdesign.test>")
    page.click(f"{win} .send-btn")
    key, message = only_new_entry(mail.diff(), "messages.")
    assert key == "e018"
    assert {
        k: message[k] for k in ("folder", "from", "to", "cc", "subject", "body", "in_reply_to", "read")
    } == {
        "folder": "sent",
        "from": ME,
        "to": [{"name": "Sam Rivera", "email": "sam.rivera@orbitdesign.test"}],
        "cc": [],
        "subject": "Feedback on v3",
        "body": "Hi Sam, the new hero works. Two small notes inline.",
        "in_reply_to": None,
        "read": True,
    }


def test_reply_quotes_and_threads(hub, page):
    mail = AppSession(hub, page, "mail", "#/inbox/e006")
    page.click(".message-full[data-id=e006] .reply-bar button:has-text('Reply')")
    body = page.locator(".compose-window textarea").input_value()
    assert "> Jordan," in body and "Nina Kowalski <nina@kowalski-law.test> wrote:" in body
    page.locator(".compose-window textarea").press("Control+Home")
    page.locator(".compose-window textarea").press_sequentially("Thanks Nina, let's talk tomorrow at 10.")
    page.click(".compose-window .send-btn")
    _, message = only_new_entry(mail.diff(), "messages.")
    assert (message["subject"], message["thread"], message["in_reply_to"], message["folder"]) == (
        "Re: Contract review: Orbit Design MSA",
        "t06",
        "e006",
        "sent",
    )
    assert message["to"] == [{"name": "Nina Kowalski", "email": "nina@kowalski-law.test"}]
    assert message["body"].startswith("Thanks Nina, let's talk tomorrow at 10.\n\nOn Jun 3, 2024")
    assert message["labels"] == ["work"]  # a reply keeps the conversation's labels


def test_opening_an_unread_message_marks_it_read_then_label_it(hub, page):
    mail = AppSession(hub, page, "mail", "#/inbox")
    page.click(row("e004"))
    assert mail.diff() == {"messages.e004.read": {"old": False, "new": True}}
    page.click(".reader-toolbar [aria-label=Labels]")
    page.click(".menu-item:has-text('Travel')")
    assert mail.diff() == {
        "messages.e004.read": {"old": False, "new": True},
        "messages.e004.labels": {"old": ["personal"], "new": ["personal", "travel"]},
    }


def test_delete_moves_to_trash_and_forever_from_trash(hub, page):
    mail = AppSession(hub, page, "mail", "#/inbox/e007")
    page.click(".reader-toolbar [aria-label=Delete]")
    assert mail.diff() == {"messages.e007.folder": {"old": "inbox", "new": "trash"}}
    mail.goto("#/trash/e017")
    page.click(".reader-toolbar [aria-label='Delete forever']")
    assert mail.diff()["messages.e017"]["new"] is None


def test_attachment_is_uploaded_to_the_session(hub, page, tmp_path):
    mail = AppSession(hub, page, "mail", "#/inbox")
    page.click(".compose-btn")
    notes = tmp_path / "meeting notes.txt"
    notes.write_text("Agenda: budget, hiring")
    page.set_input_files(".compose-window input[type=file]", str(notes))
    page.wait_for_selector(".attach-chip:has-text('meeting notes.txt')")
    page.fill(".compose-window input[name=to]", "dev.sharma@northwind.test")
    page.fill(".compose-window input[name=subject]", "Notes")
    page.click(".compose-window .send-btn")
    _, message = only_new_entry(mail.diff(), "messages.")
    [attachment] = message["attachments"]
    assert (attachment["name"], attachment["size"]) == ("meeting notes.txt", 22)
    assert httpx.get(hub.base + attachment["url"]).text == "Agenda: budget, hiring"
    assert httpx.get(hub.base + attachment["url"].replace(mail.sid, "someone-else")).status_code == 404
