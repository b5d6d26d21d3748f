"""Team chat driven in Chromium: each interaction must change exactly the expected fields in /go."""

from __future__ import annotations

import httpx
import pytest

from tests.hub.browser import AppSession, inject, only_new_entry

pytestmark = pytest.mark.slow


def test_main_page_screenshot_and_state_loaded_from_the_api(hub, page):
    sid = "ui-chat-shot"
    inject(hub, "chat", sid, {"workspace": {"name": "Acme Robotics"}})
    chat = AppSession(hub, page, "chat", "#c_general", sid=sid)
    assert page.locator(".ws-name").inner_text().startswith("Acme Robotics")
    assert page.locator("#msg-m0001 .msg-text").inner_text().startswith("Good morning everyone!")
    chat.screenshot()
    assert chat.diff() == {}  # opening a channel only moves read markers (volatile)


def test_send_a_message_in_a_channel(hub, page):
    chat = AppSession(hub, page, "chat", "#c_engineering")
    page.fill(".composer-slot .composer-input", "Release notes draft is in the wiki")
    page.press(".composer-slot .composer-input", "Enter")
    key, message = only_new_entry(chat.diff(), "messages.")
    assert key == "m0034"
    assert {k: message[k] for k in ("conversation", "user", "text", "thread", "reactions")} == {
        "conversation": "c_engineering",
        "user": "u_ana",
        "text": "Release notes draft is in the wiki",
        "thread": None,
        "reactions": {},
    }
    assert page.locator("#msg-m0034").is_visible()


def test_reply_in_a_thread(hub, page):
    chat = AppSession(hub, page, "chat", "#c_engineering")
    page.click("#msg-m0011 .thread-link")
    page.fill(".thread-pane .composer-input", "Index is deployed, exports are fast again")
    page.click(".thread-pane [aria-label='Send message']")
    _, message = only_new_entry(chat.diff(), "messages.")
    assert (message["thread"], message["conversation"], message["text"]) == (
        "m0011",
        "c_engineering",
        "Index is deployed, exports are fast again",
    )
    assert page.locator(".thread-pane .thread-count").inner_text() == "3 replies"


def test_add_and_remove_a_reaction(hub, page):
    chat = AppSession(hub, page, "chat", "#c_general")
    page.hover("#msg-m0002")
    page.click("#msg-m0002 .msg-actions [aria-label='Add reaction']")
    page.click(".reaction-picker [data-reaction=star]")
    assert chat.diff() == {"messages.m0002.reactions.star": {"old": None, "new": ["u_ana"]}}
    # Ana had already reacted with a heart: clicking the chip takes hers back, clicking again restores it.
    page.click("#msg-m0002 .reaction[data-reaction=heart]")
    assert chat.diff()["messages.m0002.reactions.heart"] == {"old": ["u_dara", "u_ana"], "new": ["u_dara"]}
    page.click("#msg-m0002 .reaction[data-reaction=heart]")
    page.click("#msg-m0002 .reaction[data-reaction=star]")
    assert chat.diff() == {}


def test_create_a_channel_rejects_bad_names_then_creates(hub, page):
    chat = AppSession(hub, page, "chat", "#c_general")
    page.click(".nav-section:has-text('Channels') [aria-label='Add channel']")
    page.click(".menu-item:has-text('Create a new channel')")
    page.fill("dialog[data-dialog=create-channel] input[name=name]", "Budget 2025!")
    page.click("dialog[data-dialog=create-channel] button[type=submit]")
    assert "lowercase" in page.locator("dialog .form-error").inner_text()
    page.fill("dialog[data-dialog=create-channel] input[name=name]", "budget-2025")
    page.fill("dialog[data-dialog=create-channel] input[name=purpose]", "Planning next year's budget")
    page.check("dialog[data-dialog=create-channel] input[name=private]")
    page.click("dialog[data-dialog=create-channel] button[type=submit]")
    key, channel = only_new_entry(chat.diff(), "channels.")
    assert key == "c_budget_2025"
    assert {k: channel[k] for k in ("name", "purpose", "private", "archived", "members", "created_by")} == {
        "name": "budget-2025",
        "purpose": "Planning next year's budget",
        "private": True,
        "archived": False,
        "members": ["u_ana"],
        "created_by": "u_ana",
    }
    page.wait_for_selector(".conv-title h1:text-is('budget-2025')")


def test_archive_a_channel_makes_it_read_only(hub, page):
    chat = AppSession(hub, page, "chat", "#c_random")
    page.click(".members-btn")
    page.click("dialog[data-dialog=channel-details] button:has-text('Archive channel')")
    assert chat.diff() == {"channels.c_random.archived": {"old": False, "new": True}}
    chat.goto("#c_random")
    assert "archived channel" in page.locator(".composer-slot").inner_text()


def test_set_the_channel_topic(hub, page):
    chat = AppSession(hub, page, "chat", "#c_design")
    page.click(".members-btn")
    page.fill("dialog[data-dialog=channel-details] input[name=topic]", "Crit moved to Wednesdays")
    page.click("dialog[data-dialog=channel-details] button[type=submit]")
    assert chat.diff() == {
        "channels.c_design.topic": {
            "old": "Design critiques: Tuesdays 2pm",
            "new": "Crit moved to Wednesdays",
        }
    }
    assert page.locator(".conv-topic").inner_text() == "Crit moved to Wednesdays"


def test_a_write_made_on_a_stale_state_reloads_instead_of_overwriting(hub, page):
    # Another client writes the session while the page is open: the page's next write names the
    # version it read (If-Match), is refused with 412, and the page shows what the hub holds.
    chat = AppSession(hub, page, "chat", "#c_engineering")
    elsewhere = chat.current()
    elsewhere["workspace"] = {**elsewhere["workspace"], "name": "Renamed Elsewhere"}
    written = httpx.post(
        hub.url("chat", "post", chat.sid), json={"action": "set_current", "state": elsewhere}, timeout=10
    )
    assert written.status_code == 200
    page.fill(".composer-slot .composer-input", "written on a stale state")
    page.press(".composer-slot .composer-input", "Enter")
    assert chat.current() == elsewhere  # the other client's write survived, the stale one did not land
    assert "version" in page.locator(".toast-error").first.inner_text()  # the hub's reason, shown
    page.wait_for_function("() => document.querySelector('.ws-name').innerText.startsWith('Renamed')")
    page.fill(".composer-slot .composer-input", "written on the fresh state")
    page.press(".composer-slot .composer-input", "Enter")
    texts = [m["text"] for m in chat.current()["messages"].values()]
    assert "written on the fresh state" in texts and "written on a stale state" not in texts
