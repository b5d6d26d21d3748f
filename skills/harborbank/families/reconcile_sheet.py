"""Harbor Bank + Calc: reconcile a sheet of expected payments against an account's register. Data
and wording: reconcile_sheet.yaml."""

from skills.kit.guest import HOME
from skills.kit.guest.hub import hub_read, hub_write, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import save_keeping_format
from skills.kit.teach_web import choose, open_record, open_view, press, settle
from skills.kit.webapp import records, seeded

DATES = ["2024-06-03", "2024-06-05", "2024-06-07", "2024-06-10", "2024-06-11", "2024-06-12"]


def draw(rng, pools):
    state = seeded("harborbank")
    account = rng.choice(pools["accounts"])
    other = "ac0002"
    vendors = rng.sample(pools["vendors"], rng.randint(4, 5))
    n_missing = rng.randint(1, 2)
    rows, txs, targets = [], {}, []
    for index, vendor in enumerate(vendors):
        day = rng.choice(DATES)
        reference = f"ACH {vendor} INV {rng.randint(1000, 9999)}"
        amount = round(rng.randint(80, 2400) + rng.choice([0, 0.5, 0.75, 0.2]), 2)
        rows.append([reference, day, amount])
        base = {
            "description": reference,
            "date": day,
            "kind": "debit",
            "category": "other",
            "status": "posted",
        }
        base |= {"reconciled": False, "memo": ""}
        if index >= len(vendors) - n_missing:
            # A missing payment: either absent, or booked to another account, or for another amount.
            variant = rng.choice(["absent", "elsewhere", "amount"])
            if variant == "elsewhere":
                txs.update(
                    records("harborbank", "transactions", 1, rng, state, **base, account=other, amount=amount)
                )
            elif variant == "amount":
                txs.update(
                    records(
                        "harborbank",
                        "transactions",
                        1,
                        rng,
                        state,
                        **base,
                        account=account,
                        amount=amount + 25,
                    )
                )
            continue
        (tid,) = records("harborbank", "transactions", 1, rng, state, **base, account=account, amount=amount)
        txs[tid] = state["transactions"][tid]
        targets.append(tid)
    order = list(range(len(rows)))
    rng.shuffle(order)
    rows = [rows[i] for i in order]
    matched = sorted(state["transactions"][t]["description"] for t in targets)
    return {
        "world": {"transactions": txs},
        "account": account,
        "account_name": state["accounts"][account]["name"],
        "xlsx": f"Documents/reconciliation_{rng.choice(['june', 'week24', 'q2'])}.xlsx",
        "sheet": rng.choice(["Expected", "Payments", "June"]),
        "rows": rows,
        "targets": sorted(targets),
        "matched": matched,
        "missing": sorted(r[0] for r in rows if r[0] not in matched),
    }


def initial_setup(P):
    import openpyxl
    from openpyxl.styles import Font

    hub_write("harborbank", "set", P["world"])
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = P["sheet"]
    ws.append(["Reference", "Date", "Amount", "Status"])
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for reference, day, amount in P["rows"]:
        ws.append([reference, day, amount])
    ws.column_dimensions["A"].width = 42
    ws.column_dimensions["B"].width = 12
    ws.column_dimensions["D"].width = 12
    path = HOME / P["xlsx"]
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)


def solve(P, *, mistake=None):
    import openpyxl

    if mistake != "app_only":
        path = HOME / P["xlsx"]
        wb = openpyxl.load_workbook(path)
        ws = wb[P["sheet"]]
        for r in range(2, ws.max_row + 1):
            ws.cell(row=r, column=4).value = (
                "Matched" if ws.cell(row=r, column=1).value in P["matched"] else "Missing"
            )
        wb.save(path)
    if mistake != "sheet_only":
        state = hub_read("harborbank", "state")["stored_state"]
        for tid in P["targets"]:
            state["transactions"][tid]["reconciled"] = True
        hub_write("harborbank", "set_current", state)


def reward(P):
    import openpyxl

    go = hub_read("harborbank", "go")
    now, before = go["current_state"], go["initial_state"]
    book = {}

    def sheet():
        if "ws" not in book:
            wb = openpyxl.load_workbook(HOME / P["xlsx"], data_only=True)
            found = [ws for ws in wb.worksheets if ws.title.strip().casefold() == P["sheet"].casefold()]
            book["ws"] = found[0] if found else wb.worksheets[0]
        return book["ws"]

    def statuses():
        ws = sheet()
        return {
            str(ws.cell(row=r, column=1).value or "").strip(): squash(
                str(ws.cell(row=r, column=4).value or "")
            )
            for r in range(2, ws.max_row + 1)
        }

    @precondition("the account's unreconciled transactions matching a row are exactly the targets")
    def world_as_described():
        wanted = {(reference, round(amount, 2)) for reference, _, amount in P["rows"]}
        found = sorted(
            tid
            for tid, t in before["transactions"].items()
            if t["account"] == P["account"]
            and (t["description"], round(float(t["amount"]), 2)) in wanted
            and not t.get("reconciled")
        )
        return found == P["targets"]

    @precondition("the sheet keeps its header and rows; no other transaction changed, none deleted")
    def others_intact():
        ws = sheet()
        header = [str(ws.cell(row=1, column=c).value or "").strip() for c in range(1, 5)]
        kept = {}
        for r in range(2, ws.max_row + 1):
            cells = [ws.cell(row=r, column=c).value for c in range(1, 4)]
            kept[str(cells[0] or "").strip()] = (str(cells[1] or "").strip()[:10], cells[2])
        rows_ok = sorted(kept) == sorted(r[0] for r in P["rows"]) and all(
            kept[reference][0] == day
            and isinstance(kept[reference][1], int | float)
            and abs(kept[reference][1] - amount) < 0.005
            for reference, day, amount in P["rows"]
        )
        bank_ok = unchanged_except(go, "transactions", ids=P["targets"], fields=None)
        bank_ok = bank_ok and all(
            {k: v for k, v in now["transactions"][t].items() if k != "reconciled"}
            == {k: v for k, v in before["transactions"][t].items() if k != "reconciled"}
            for t in P["targets"]
        )
        return header == ["Reference", "Date", "Amount", "Status"] and rows_ok and bank_ok

    @component("each expected payment's Status says Matched or Missing correctly", 0.5)
    def sheet_status():
        got = statuses()
        right = sum(got.get(ref) == "matched" for ref in P["matched"])
        right += sum(got.get(ref) == "missing" for ref in P["missing"])
        return right / (len(P["matched"]) + len(P["missing"]))

    @component("each matching transaction is reconciled in the bank", 0.5)
    def reconciled():
        return sum(bool(now["transactions"][t].get("reconciled")) for t in P["targets"]) / len(P["targets"])


def demonstrate(P, screen):
    """Calc is on top with the sheet: type Matched/Missing down the Status column and save keeping
    xlsx; then switch to Harbor Bank, pick the account on Activity and mark each match reconciled."""
    name = P["xlsx"].rsplit("/", 1)[-1]
    screen.wait_until(lambda: screen.has_window(f"{name} - LibreOffice Calc"), what="the sheet in Calc")
    yield [{"action": "key", "keys": ["ctrl", "home"]}, {"action": "key", "keys": ["down"]}]
    yield [{"action": "key", "keys": ["right"]} for _ in range(3)]
    for reference, _, _ in P["rows"]:
        yield [{"action": "type", "text": ("Matched" if reference in P["matched"] else "Missing") + "\n"}]
    yield from save_keeping_format(screen)
    # Chromium is the only other window: Alt+Tab raises it (the tree lists it even while it is behind).
    yield [
        {"action": "wait", "time": 1.0},
        {"action": "key", "keys": ["alt", "tab"]},
        {"action": "wait", "time": 1.0},
    ]
    yield from open_view(screen, "Activity")
    yield from choose(screen, "Account", P["account_name"])
    for title in P["matched"]:
        yield from open_record(screen, "Activity", title)
        yield from press(screen, "Mark reconciled")
        screen.find(
            lambda e: e.role == "push-button" and e.name == "Undo reconcile",
            timeout_s=10,
            what="the reconcile",
        )
    yield settle()
