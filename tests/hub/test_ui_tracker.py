"""Issue tracker driven in Chromium: board drags follow the workflow; edits change exactly what they say."""

from __future__ import annotations

import pytest

from tests.hub.browser import AppSession, only_new_entry

pytestmark = pytest.mark.slow


def card(key: str) -> str:
    return f".issue-card[data-key='{key}']"


def column(status: str) -> str:
    return f".column[data-status={status}]"


def test_main_page_screenshot(hub, page):
    tracker = AppSession(hub, page, "tracker", "#/WEB/board")
    assert page.locator(f"{column('in_review')} {card('WEB-5')}").is_visible()
    tracker.screenshot()
    assert tracker.diff() == {}


def test_drag_an_issue_to_done(hub, page):
    tracker = AppSession(hub, page, "tracker", "#/WEB/board")
    page.drag_and_drop(card("WEB-5"), column("done"))
    # `updated` is stamped too, but it is volatile: the diff holds the status change alone.
    assert tracker.diff() == {"issues.WEB-5.status": {"old": "in_review", "new": "done"}}
    page.wait_for_selector(f"{column('done')} {card('WEB-5')}")
    assert tracker.current()["issues"]["WEB-5"]["updated"] != "2024-05-14T09:00:00Z"


def test_workflow_refuses_a_skipped_step(hub, page):
    tracker = AppSession(hub, page, "tracker", "#/WEB/board")
    page.drag_and_drop(card("WEB-3"), column("done"))  # To Do -> Done skips In Progress and In Review
    assert "cannot move from To Do to Done" in page.locator(".toast-error").inner_text()
    assert tracker.diff() == {}
    assert page.locator(f"{column('todo')} {card('WEB-3')}").is_visible()
    page.drag_and_drop(card("WEB-3"), column("in_progress"))  # the allowed step works
    assert tracker.diff() == {"issues.WEB-3.status": {"old": "todo", "new": "in_progress"}}


def test_status_menu_lists_only_allowed_transitions(hub, page):
    tracker = AppSession(hub, page, "tracker", "#/WEB/board/WEB-4")
    options = page.locator("dialog[data-dialog=issue] .status-select option").all_inner_texts()
    assert options == ["In Progress", "→ To Do", "→ In Review"]
    page.select_option("dialog[data-dialog=issue] .status-select", "in_review")
    assert tracker.diff() == {"issues.WEB-4.status": {"old": "in_progress", "new": "in_review"}}


def test_comment_on_an_issue(hub, page):
    tracker = AppSession(hub, page, "tracker", "#/WEB/board")
    page.click(card("WEB-4"))
    page.fill("dialog[data-dialog=issue] .comment-input", "Fix verified on staging with SPRING23.")
    page.click("dialog[data-dialog=issue] .comment-box button:has-text('Save')")
    key, comment = only_new_entry(tracker.diff(), "comments.")
    assert key == "cm007"
    assert (comment["issue"], comment["author"], comment["body"]) == (
        "WEB-4",
        "u_maya",
        "Fix verified on staging with SPRING23.",
    )
    page.wait_for_selector("dialog[data-dialog=issue] [data-comment=cm007]")


def test_assign_an_issue_to_me(hub, page):
    tracker = AppSession(hub, page, "tracker", "#/WEB/board/WEB-6")
    page.click("dialog[data-dialog=issue] .assign-me")
    assert tracker.diff() == {"issues.WEB-6.assignee": {"old": None, "new": "u_maya"}}


def test_create_an_issue_in_the_active_sprint(hub, page):
    tracker = AppSession(hub, page, "tracker", "#/WEB/board")
    page.click(".create-btn")
    dialog = "dialog[data-dialog=create-issue]"
    page.click(f"{dialog} button[type=submit]")
    assert "Summary is required" in page.locator(f"{dialog} .form-error").inner_text()
    page.select_option(f"{dialog} select[name=type]", "bug")
    page.fill(f"{dialog} input[name=summary]", "Checkout button overlaps the footer on small screens")
    page.select_option(f"{dialog} select[name=priority]", "high")
    page.fill(f"{dialog} input[name=points]", "2")
    page.click(f"{dialog} button[type=submit]")
    key, issue = only_new_entry(tracker.diff(), "issues.")
    assert key == "WEB-15"
    assert {
        k: issue[k]
        for k in ("project", "type", "status", "priority", "sprint", "points", "reporter", "assignee")
    } == {
        "project": "WEB",
        "type": "bug",
        "status": "todo",
        "priority": "high",
        "sprint": "s_web_12",
        "points": 2,
        "reporter": "u_maya",
        "assignee": None,
    }
    page.wait_for_selector(f"{column('todo')} {card('WEB-15')}")


def test_plan_a_backlog_issue_into_the_next_sprint(hub, page):
    tracker = AppSession(hub, page, "tracker", "#/WEB/backlog")
    page.select_option(".backlog-row[data-key='WEB-10'] .row-move", "s_web_13")
    assert tracker.diff() == {"issues.WEB-10.sprint": {"old": None, "new": "s_web_13"}}
    assert page.locator("[data-sprint=s_web_13] .backlog-row[data-key='WEB-10']").is_visible()
