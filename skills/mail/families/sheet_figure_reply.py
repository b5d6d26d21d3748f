"""Cross-app (mail + Calc): a manager asks by email for a figure that lives in a spreadsheet: add a
Total row of SUM formulas to the sheet, then reply in the thread with the requested region's total
(hard: two apps, a formula row, and a number carried from one app to the other)."""

from __future__ import annotations

import random

from skills._web.hubkit import (
    WEB_HELPERS,
    added_ids,
    amounts_in,
    hub_read,
    hub_write,
    next_id,
    now_iso,
    removed_ids,
)
from skills.calc.families._sheetkit import (
    close_to,
    computed_value,
    evaluate_formula,
    find_sheet,
    is_formula,
    open_book,
)
from skills.mail.families._mailworld import ME, mail, routine, stamp
from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Platform, Scenario, Wording

REGIONS = ["North", "South", "East", "West", "Central", "Coastal"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]  # fmt: skip
METRICS = {"revenue": ("Revenue", "revenue"), "units": ("Units", "units sold"), "signups": ("Signups", "new signups")}
MANAGERS = [("Dana Whitfield", "dana.whitfield@brightmail.test"), ("Luis Ortega", "luis.ortega@brightmail.test"),
            ("Grace Holm", "grace.holm@brightmail.test"), ("Victor Amari", "victor.amari@brightmail.test")]  # fmt: skip


def initial_setup(P):
    import openpyxl
    from openpyxl.styles import Font

    hub_write("mail", "set", P["world"])
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = P["sheet"]
    ws.append(["Month", *P["regions"]])
    for month, row in zip(P["months"], P["values"], strict=True):
        ws.append([month, *row])
    for cell in ws[1]:
        cell.font = Font(bold=True)
    path = HOME / P["xlsx"]
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)


def answer(P, region_index):
    import openpyxl
    from openpyxl.utils import get_column_letter

    path = HOME / P["xlsx"]
    wb = openpyxl.load_workbook(path)
    ws = wb[P["sheet"]]
    last, total_row = len(P["months"]) + 1, len(P["months"]) + 2
    ws.cell(row=total_row, column=1).value = "Total"
    for col in range(2, len(P["regions"]) + 2):
        letter = get_column_letter(col)
        ws.cell(row=total_row, column=col).value = f"=SUM({letter}2:{letter}{last})"
    wb.save(path)

    state = hub_read("mail", "state")["stored_state"]
    ask = state["messages"][P["ask"]]
    figure = sum(row[region_index] for row in P["values"])
    mid = next_id(state["messages"], "e", 3)
    state["messages"][mid] = {
        "folder": "sent", "thread": ask["thread"], "from": {"name": state["account"]["name"], "email": state["account"]["email"]},
        "to": [ask["from"]], "cc": [], "subject": f"Re: {ask['subject']}", "date": now_iso(), "read": True,
        "starred": False, "labels": list(ask["labels"]), "attachments": [], "in_reply_to": P["ask"],
        "body": f"Hi {ask['from']['name'].split()[0]},\n\nthe {P['region']} total for {P['period']} is {figure:,}.\n\n"
                f"Jordan\n\n> {ask['body']}",
    }  # fmt: skip
    hub_write("mail", "set_current", state)


def golden_patch(P):
    answer(P, P["regions"].index(P["region"]))


def near_miss(P):
    # Sheet done, reply sent, but the figure comes from the neighbouring region's column.
    index = P["regions"].index(P["region"])
    answer(P, index + 1 if index + 1 < len(P["regions"]) else index - 1)


def reward(P):
    go = hub_read("mail", "go")
    now, before = go["current_state"], go["initial_state"]
    path = HOME / P["xlsx"]
    total_row = len(P["months"]) + 2
    manager = P["manager"][1].casefold()
    state = {}

    def book():
        if "book" not in state:
            state["book"] = open_book(path)
        return state["book"]

    def replies():
        return [now["messages"][mid] for mid in added_ids(go, "messages")
                if now["messages"][mid]["folder"] == "sent" and now["messages"][mid].get("in_reply_to") == P["ask"]
                and any(p["email"].casefold() == manager for p in now["messages"][mid]["to"])]  # fmt: skip

    @precondition("the sales figures in the sheet are untouched")
    def data_intact():
        ws = find_sheet(book()["f"], P["sheet"])
        return all(close_to(ws.cell(row=r, column=c).value, P["values"][r - 2][c - 2], tol=1e-6)
                   for r in range(2, len(P["months"]) + 2) for c in range(2, len(P["regions"]) + 2))  # fmt: skip

    @precondition("the request is in the Inbox and no message was moved or deleted")
    def mailbox_intact():
        return before["messages"][P["ask"]]["folder"] == "inbox" and not removed_ids(go, "messages") and all(
            now["messages"][mid]["folder"] == m["folder"] for mid, m in before["messages"].items())

    @component("the sheet has a Total row with a SUM formula under every region", 0.35)
    def total_row_ok():
        ws = find_sheet(book()["f"], P["sheet"])
        label = str(ws.cell(row=total_row, column=1).value or "").strip().casefold() == "total"
        sums = [is_formula(ws.cell(row=total_row, column=c).value)
                and close_to(computed_value(book(), ws.title, total_row, c), sum(row[c - 2] for row in P["values"]), tol=0.5)
                for c in range(2, len(P["regions"]) + 2)]  # fmt: skip
        return (label + sum(sums)) / (1 + len(sums))

    @component("you replied in the manager's thread", 0.25)
    def replied():
        return bool(replies())

    @component("the reply states the requested total", 0.4)
    def figure():
        for msg in replies():
            own = "\n".join(line for line in msg["body"].splitlines() if not line.lstrip().startswith(">"))
            if any(abs(n - P["total"]) < 0.5 for n in amounts_in(own)):
                return True
        return False


class SheetFigureReply(Family):
    id = "mail.sheet_figure_reply"
    apps = ("mail", "calc")
    platform = Platform.CROSS
    difficulty = Difficulty.HARD
    leaves = ("mail/compose/respond/reply_message", "calc/formulas/arithmetic/sum_range",
              "calc/editing/cells/enter_values")  # fmt: skip
    domains = (Domain.BUSINESS_FINANCE, Domain.SALES, Domain.MANAGEMENT, Domain.OFFICE_ADMIN)
    scenarios = (Scenario.COMMERCIAL,)
    helpers = (*WEB_HELPERS, open_book, find_sheet, is_formula, close_to, computed_value, evaluate_formula, answer)
    templates = {
        Wording.IMPERATIVE: "Open {xlsx} in Calc and add a row under the last month with \"Total\" in column A and a "
        "SUM formula under each region column; save it as xlsx. Then, in Mail, reply to {manager}'s email "
        "\"{subject}\" with the {region} total for {period}.",
        Wording.REQUEST: "{manager} emailed asking for the {region} {metric} total for {period} (\"{subject}\"). "
        "Could you add a Total row to {xlsx} (the word Total in column A, SUM formulas for every region), save the "
        "xlsx, and reply to that email with the {region} figure?",
        Wording.CONTEXTUAL: "As {persona}, I keep the monthly {metric} per region in {xlsx}. {manager} just asked me "
        "by email (\"{subject}\") for the {region} total over {period}. Please give the sheet a Total row (label "
        "Total in column A, a SUM formula under every region), save it as xlsx, and answer {manager} in a reply to "
        "that email with the {region} number.",
        Wording.GOAL: "Goal: {xlsx} has, under the monthly rows, a row labelled Total whose cells are SUM formulas of "
        "each region column (saved as xlsx); your reply to {manager}'s email \"{subject}\" states the {region} "
        "total for {period}.",
        Wording.PROBLEM_FIX: "{manager} is still waiting on an answer to \"{subject}\", and {xlsx} has no totals to "
        "answer from. Fix both: add a Total row (Total in column A, SUM formulas under every region) to the sheet and "
        "save it as xlsx, then reply to {manager}'s email with the {region} total for {period}.",
    }

    def draw(self, rng: random.Random) -> dict:
        metric = rng.choice(sorted(METRICS))
        regions = rng.sample(REGIONS, rng.randint(3, 5))
        start = rng.choice([0, 0, 3, 6])
        months = MONTHS[start:start + 6]
        scale = {"revenue": (8000, 60000), "units": (120, 2400), "signups": (40, 900)}[metric]
        values = [[rng.randint(*scale) for _ in regions] for _ in months]
        region = rng.choice(regions)
        manager = rng.choice(MANAGERS)
        period = f"{months[0]} to {months[-1]}"
        subject = f"{METRICS[metric][0]} for {region}, {months[0][:3]}-{months[-1][:3]}?"
        messages = routine(rng, rng.randint(2, 4), 101, 1)
        messages["e120"] = mail(
            "inbox", "g40", {"name": manager[0], "email": manager[1]}, subject,
            f"Hi Jordan,\n\nfor the board pack, could you send me the total {METRICS[metric][1]} for the {region} region "
            f"from {months[0]} to {months[-1]}? The monthly numbers are in your tracking sheet.\n\nThanks,\n"
            f"{manager[0].split()[0]}", stamp(rng, 12), to=[ME], labels=["work"])  # fmt: skip
        stem = f"{metric}_by_region_{rng.randint(10, 99)}"
        return {"world": {"messages": messages}, "ask": "e120", "subject": subject, "manager": list(manager),
                "xlsx": f"Documents/{stem}.xlsx", "sheet": METRICS[metric][0], "metric": METRICS[metric][1],
                "regions": regions, "months": months, "values": values, "region": region, "period": period,
                "total": sum(row[regions.index(region)] for row in values)}  # fmt: skip

    def words(self, P: dict) -> dict[str, str]:
        return {"xlsx": "~/" + P["xlsx"], "manager": P["manager"][0], "subject": P["subject"], "region": P["region"],
                "period": P["period"], "metric": P["metric"]}  # fmt: skip

    def context(self, P: dict) -> str:
        n = len(P["months"])
        return (
            f"~/{P['xlsx']} sheet {P['sheet']!r}: header Month + regions {P['regions']}, rows 2..{n + 1} for "
            f"{P['months']} with values {P['values']}. Mail (hub app `mail`): seeded mailbox plus inbox messages "
            f"{sorted(P['world']['messages'])}; {P['ask']} from {P['manager'][1]} asks for the {P['region']} total. "
            f"Expected: row {n + 2} has 'Total' in A and SUM formulas in B..{chr(65 + len(P['regions']))} giving the "
            f"column sums; a new sent message with in_reply_to={P['ask']} to {P['manager'][1]} whose own text (quoted "
            f"'>' lines ignored) contains {P['total']} (any thousands separator); the data cells and other messages "
            f"unchanged."
        )
