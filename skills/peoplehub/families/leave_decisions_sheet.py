"""Calc -> PeopleHub: apply the leave decisions listed in a sheet. Data and wording: leave_decisions_sheet.yaml."""

from skills.kit.guest import HOME
from skills.kit.guest.hub import hub_read, hub_write, mentions, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import click, in_dialog, named
from skills.kit.teach_web import open_record, open_view, press, settle
from skills.kit.webapp import records, seeded


def draw(rng, pools):
    state = seeded("peoplehub")
    summaries = rng.sample(pools["summaries"], 5)
    requests = {}
    for summary in summaries:
        day = rng.randint(3, 22)
        requests.update(
            records(
                "peoplehub", "requests", 1, rng, state,
                summary=summary, kind="vacation", status="pending", start=f"2024-06-{day:02d}",
                end=f"2024-06-{day + 2:02d}", days=3,
            )
        )  # fmt: skip
    ids = list(requests)
    n_approve = rng.randint(1, 2)
    approve, decline, untouched = ids[:n_approve], ids[n_approve:4], ids[4]
    notes = {rid: rng.choice(pools["notes"]) for rid in decline}
    rows = [
        {
            "id": rid,
            "employee": state["employees"][requests[rid]["employee"]]["name"],
            "summary": requests[rid]["summary"],
            "decision": "Approve" if rid in approve else "Decline",
            "note": notes.get(rid, ""),
        }
        for rid in ids[:4]
    ]
    rng.shuffle(rows)
    return {
        "world": {"requests": requests},
        "rows": rows,
        "approve": approve,
        "decline": decline,
        "notes": notes,
        "untouched": untouched,
        "xlsx": f"Documents/leave_decisions_{rng.randint(10, 99)}.xlsx",
    }


def initial_setup(P):
    import io
    import re
    import zipfile

    import openpyxl
    from openpyxl.styles import Font

    hub_write("peoplehub", "set", P["world"])
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Decisions"
    ws.append(["Employee", "Request", "Decision", "Note"])
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for row in P["rows"]:
        ws.append([row["employee"], row["summary"], row["decision"], row["note"]])
    for column, width in zip("ABCD", (22, 30, 12, 36), strict=True):
        ws.column_dimensions[column].width = width
    buffer = io.BytesIO()
    wb.save(buffer)
    # The sheet is only read, never saved: write it byte for byte the same on every setup (fixed zip
    # and document stamps), so a home set up twice holds one file, not a "rewritten" one.
    stamp = "2024-05-20T09:30:00Z"
    path = HOME / P["xlsx"]
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(buffer) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                data = re.sub(
                    rb"(<dcterms:(?:created|modified)[^>]*>)[^<]*", rb"\g<1>" + stamp.encode(), data
                )
            dst.writestr(zipfile.ZipInfo(info.filename, date_time=(2024, 5, 20, 9, 30, 0)), data)


def solve(P, *, mistake=None):
    state = hub_read("peoplehub", "state")["stored_state"]
    for rid in P["approve"]:
        state["requests"][rid]["status"] = "approved"
    if mistake != "approvals_only":
        for rid in P["decline"]:
            state["requests"][rid]["status"] = "declined"
            if mistake != "no_notes":
                state["requests"][rid]["decision_note"] = P["notes"][rid]
    hub_write("peoplehub", "set_current", state)


def reward(P):
    go = hub_read("peoplehub", "go")
    now, before = go["current_state"], go["initial_state"]
    listed = [*P["approve"], *P["decline"]]

    @precondition("the listed requests and the unlisted one are pending")
    def world_as_described():
        return all(
            before["requests"].get(r, {}).get("status") == "pending" for r in [*listed, P["untouched"]]
        )

    @precondition("the decisions sheet is still there, as the manager filled it in")
    def sheet_intact():
        import openpyxl

        try:
            ws = openpyxl.load_workbook(HOME / P["xlsx"], read_only=True).worksheets[0]
            rows = [
                [str(c or "") for c in row[:4]]
                for row in ws.iter_rows(min_row=2, values_only=True)
                if any(row)
            ]
        except Exception:  # noqa: BLE001 - a missing or unreadable workbook is not the sheet the task gave
            return False
        expected = [[r["employee"], r["summary"], r["decision"], r["note"]] for r in P["rows"]]
        return rows == expected

    @precondition("no request outside the sheet changed, and none was added or deleted")
    def others_intact():
        return unchanged_except(go, "requests", ids=listed) and len(now["requests"]) == len(
            before["requests"]
        )

    @component("the requests marked Approve are approved", 0.4)
    def approved():
        return sum(now["requests"][r]["status"] == "approved" for r in P["approve"]) / len(P["approve"])

    @component("the requests marked Decline are declined", 0.4)
    def declined():
        return sum(now["requests"][r]["status"] == "declined" for r in P["decline"]) / len(P["decline"])

    @component("each decline carries the sheet's note", 0.2)
    def noted():
        return sum(
            mentions(now["requests"][r].get("decision_note", ""), P["notes"][r]) for r in P["decline"]
        ) / len(P["decline"])


def demonstrate(P, screen):
    """Calc shows the decisions; switch to PeopleHub (Alt+Tab) and, row by row, open the request in the
    Time off inbox and approve it, or decline it with the row's note."""
    name = P["xlsx"].rsplit("/", 1)[-1]
    screen.wait_until(lambda: screen.has_window(f"{name} - LibreOffice Calc"), what="the decisions in Calc")
    yield [
        {"action": "wait", "time": 1.0},
        {"action": "key", "keys": ["alt", "tab"]},
        {"action": "wait", "time": 1.0},
    ]
    yield from open_view(screen, "Time off")
    for row in P["rows"]:
        yield from open_record(screen, "Time off", row["summary"])
        if row["decision"] == "Approve":
            yield from press(screen, "Approve")
        else:
            yield from press(screen, "Decline")
            screen.find(lambda e: e.role == "dialog", timeout_s=10, what="the Decline prompt")
            yield [
                click(in_dialog(screen, "entry", "Reason for declining")),
                {"action": "type", "text": row["note"]},
            ]
            yield [click(in_dialog(screen, "push-button", "Decline"))]
        screen.find(
            named("push-button", "Move back to pending"), timeout_s=10, what=f"{row['summary']!r} decided"
        )
    yield settle()
