"""Mail + Calc: add a Total row to the sheet and reply to the manager with one region's total. Data and wording: sheet_figure_reply.yaml."""

from skills.kit.guest import HOME
from skills.kit.guest.hub import amounts_in, hub_read, hub_write, mail_send, new_sent, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.sheets import find_sheet, formula_shows, new_table, open_book, open_sheet, rows_kept
from skills.kit.teach import save_keeping_format
from skills.mail.families._gui import mail_on_top, open_message, respond, search, send, wait_rows
from skills.mail.world import mail, person, routine, stamp


def draw(rng, pools):
    metrics = pools["metrics"]
    metric = rng.choice(sorted(metrics))
    regions = rng.sample(pools["regions"], rng.randint(3, 5))
    start = rng.choice([0, 0, 3, 6])
    months = pools["months"][start : start + 6]
    values = [[rng.randint(*metrics[metric][2]) for _ in regions] for _ in months]
    region = rng.choice(regions)
    manager = rng.choice(pools["managers"])
    subject = f"{metrics[metric][0]} for {region}, {months[0][:3]}-{months[-1][:3]}?"
    messages = routine(rng, rng.randint(2, 4), 101, 1)
    body = f"Hi Jordan,\n\nfor the board pack, could you send me the total {metrics[metric][1]} for the {region} "
    body += f"region from {months[0]} to {months[-1]}? The monthly numbers are in your tracking sheet.\n\n"
    body += f"Thanks,\n{manager[0].split()[0]}"
    messages["e120"] = mail("inbox", "g40", person(manager), subject, body, stamp(rng, 12), labels=["work"])
    return {
        "world": {"messages": messages},
        "ask": "e120",
        "subject": subject,
        "manager": manager,
        "xlsx": f"Documents/{metric}_by_region_{rng.randint(10, 99)}.xlsx",
        "sheet": metrics[metric][0],
        "metric": metrics[metric][1],
        "regions": regions,
        "months": months,
        "values": values,
        "region": region,
        "period": f"{months[0]} to {months[-1]}",
        "total": sum(row[regions.index(region)] for row in values),
    }


def initial_setup(P):
    hub_write("mail", "set", P["world"])
    rows = [[month, *row] for month, row in zip(P["months"], P["values"], strict=True)]
    path = HOME / P["xlsx"]
    path.parent.mkdir(parents=True, exist_ok=True)
    new_table(P["sheet"], ["Month", *P["regions"]], rows).save(path)


def solve(P, *, mistake=None):
    from openpyxl.utils import get_column_letter

    wb, ws = open_sheet(P["xlsx"], P["sheet"])
    last, letters = len(P["months"]) + 1, map(get_column_letter, range(2, len(P["regions"]) + 2))
    label = None if mistake == "unlabelled_total" else "Total"
    ws.append([label, *(f"=SUM({x}2:{x}{last})" for x in letters)])  # the row under the last month
    wb.save(HOME / P["xlsx"])
    state = hub_read("mail", "state")["stored_state"]
    ask, index = state["messages"][P["ask"]], P["regions"].index(P["region"])
    if mistake == "neighbour_region":
        index = index + 1 if index + 1 < len(P["regions"]) else index - 1
    figure = sum(row[index] for row in P["values"])
    body = f"Hi {ask['from']['name'].split()[0]},\n\nthe {P['region']} total for {P['period']} is {figure:,}."
    body += f"\n\nJordan\n\n> {ask['body']}"
    mail_send(state, [ask["from"]], f"Re: {ask['subject']}", body, P["ask"])
    hub_write("mail", "set_current", state)


def reward(P):
    go = hub_read("mail", "go")
    before = go["initial_state"]
    total_row, columns = len(P["months"]) + 2, range(2, len(P["regions"]) + 2)
    manager, cache = P["manager"][1].casefold(), {}

    def book():
        if "book" not in cache:
            cache["book"] = open_book(HOME / P["xlsx"])
        return cache["book"]

    def replies():
        answers = [m for m in new_sent(go) if m.get("in_reply_to") == P["ask"]]
        return [m for m in answers if any(p["email"].casefold() == manager for p in m["to"])]

    @precondition("the sales figures in the sheet, their months and regions are untouched")
    def data_intact():
        rows = [[month, *row] for month, row in zip(P["months"], P["values"], strict=True)]
        return rows_kept(find_sheet(book()["f"], P["sheet"]), [["Month", *P["regions"]], *rows], first=1)

    @precondition("the request is in the Inbox and no message was moved or deleted")
    def mailbox_intact():
        asked = before["messages"][P["ask"]]["folder"] == "inbox"
        return asked and unchanged_except(go, "messages", fields=("folder",))

    @component("the sheet has a Total row with a SUM formula under every region", 0.35)
    def total_row_ok():
        ws = find_sheet(book()["f"], P["sheet"])
        label = str(ws.cell(row=total_row, column=1).value or "").strip().casefold() == "total"
        totals = [sum(column) for column in zip(*P["values"], strict=True)]
        sums = [formula_shows(book(), ws.title, total_row, c, totals[c - 2]) for c in columns]
        return (label + sum(sums)) / (1 + len(sums))

    @component("you replied in the manager's thread", 0.25)
    def replied():
        return bool(replies())

    @component("the reply states the requested total", 0.4)
    def figure():
        bodies = [m["body"].splitlines() for m in replies()]
        own = ["\n".join(x for x in lines if not x.lstrip().startswith(">")) for lines in bodies]
        return any(abs(n - P["total"]) < 0.5 for text in own for n in amounts_in(text))


def demonstrate(P, screen):
    """Calc is on top, on the sheet: type the Total row under the last month and save keeping xlsx;
    then alt+tab to Mail, open the manager's email and reply with the region's total (the figure the
    new row shows under that region)."""
    from openpyxl.utils import get_column_letter

    last = len(P["months"]) + 1
    sums = "\t".join(
        f"=SUM({get_column_letter(c)}2:{get_column_letter(c)}{last})" for c in range(2, len(P["regions"]) + 2)
    )
    yield [{"action": "key", "keys": ["ctrl", "home"]}, *[{"action": "key", "keys": ["down"]}] * last]
    yield [{"action": "type", "text": f"Total\t{sums}\n"}]
    yield from save_keeping_format(screen)
    yield [{"action": "key", "keys": ["alt", "tab"]}]  # no taskbar: alt+tab brings the browser up
    screen.wait_until(lambda: mail_on_top(screen), timeout_s=15, what="Mail to come to the front")
    yield from search(screen, P["subject"])
    wait_rows(screen, [P["subject"]], f"the email {P['subject']!r}")
    yield from open_message(screen, P["subject"])
    yield from respond(screen, "Reply")
    first = P["manager"][0].split()[0]
    text = f"Hi {first},\n\nthe {P['region']} total for {P['period']} is {P['total']:,}.\n\nJordan\n"
    yield [{"action": "type", "text": text}]  # the reply's cursor is in the body, above the quote
    yield from send(screen)
    yield [{"action": "wait", "time": 1.0}]  # the app saves each change to the hub as it is made
