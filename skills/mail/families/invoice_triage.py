"""Mail: file the suppliers' invoices, dispute one with AP in Cc, forward the largest to the accountant. Data and wording: invoice_triage.yaml."""

from skills.kit.guest.hub import hub_read, hub_write, mail_send, mentions, new_sent, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import named
from skills.mail.families._gui import fill, menu_pick, open_message, respond, search, send, wait_rows
from skills.mail.world import mail, person, routine, stamp


def draw(rng, pools):
    chosen = rng.sample(pools["suppliers"], rng.randint(3, 4))
    messages = routine(rng, rng.randint(3, 5), 101, 1)
    amounts = sorted(rng.sample(range(180, 4800), len(chosen)), reverse=True)
    amounts = [a + rng.choice([0, 0.5, 0.75, 0.99]) for a in amounts]
    rng.shuffle(amounts)
    numbers, amount_of, names = {}, {}, {}
    for (name, address, service), amount in zip(chosen, amounts, strict=True):
        number = 120 + len(numbers)
        mid, invoice = f"e{number}", f"INV-{rng.randint(10000, 99999)}"
        body = f"Dear customer,\n\nplease find attached invoice {invoice} for {service} in May 2024.\n"
        body += f"Amount due: USD {amount:,.2f}\nDue date: June {rng.randint(20, 30)}, 2024\n\n"
        body += f"{name} billing team"
        when, read = stamp(rng, rng.randint(1, 12)), rng.random() < 0.4
        pdf = [(f"{invoice}.pdf", rng.randint(60, 400) * 1000, "application/pdf")]
        sender, subject = person([name, address]), f"Invoice {invoice} from {name}"
        messages[mid] = mail("inbox", f"g{number}", sender, subject, body, when, read=read, attachments=pdf)
        numbers[mid], amount_of[mid], names[mid] = invoice, amount, name
    ranked = sorted(numbers, key=lambda m: amount_of[m], reverse=True)
    return {
        "world": {"messages": messages},
        "invoices": sorted(numbers),
        "numbers": numbers,
        "amounts": amount_of,
        "supplier_names": names,
        "largest": ranked[0],
        "runner_up": ranked[1],
        "disputed": rng.choice(ranked[1:]),
    } | {key: pools[key] for key in ("folder", "label", "ap", "accountant")}


def initial_setup(P):
    hub_write("mail", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("mail", "state")["stored_state"]
    for mid in P["invoices"]:
        msg = state["messages"][mid]
        msg["folder"] = P["folder"]
        msg["labels"] = msg["labels"] if P["label"] in msg["labels"] else [*msg["labels"], P["label"]]
    disputed, number = state["messages"][P["disputed"]], P["numbers"][P["disputed"]]
    body = f"Hello, we dispute invoice {number}: the amount does not match our order. "
    body += "Please send a corrected invoice."
    cc = [] if mistake == "no_cc" else [{"name": P["ap"][0], "email": P["ap"][1]}]
    mail_send(state, [disputed["from"]], f"Re: {disputed['subject']}", body, P["disputed"], cc=cc)
    src = state["messages"][P["runner_up"] if mistake == "wrong_invoice" else P["largest"]]
    body = f"Owen, the largest invoice this month.\n\n---------- Forwarded message ----------\n{src['body']}"
    to = [{"name": P["accountant"][0], "email": P["accountant"][1]}]
    mail_send(state, to, f"Fwd: {src['subject']}", body, attachments=src["attachments"])
    hub_write("mail", "set_current", state)


def reward(P):
    go = hub_read("mail", "go")
    now, before = go["current_state"], go["initial_state"]
    sent, invoices = new_sent(go), P["invoices"]

    def addressed(msg, field, email):
        return any(p["email"].casefold() == email.casefold() for p in msg.get(field) or [])

    @precondition("the invoices are in the Inbox, unfiled, as the task describes")
    def world_as_described():
        def unfiled(mid, number):
            msg = before["messages"][mid]
            return msg["folder"] == "inbox" and mentions(msg["subject"], number)

        seeded = P["folder"] in before["folders"] and P["label"] in before["labels"]
        return seeded and all(unfiled(mid, number) for mid, number in P["numbers"].items())

    @precondition("no other message was moved or deleted")
    def others_intact():
        return unchanged_except(go, "messages", ids=invoices, fields=("folder",))

    @component("every invoice is filed in the Receipts folder", 0.25)
    def filed():
        return sum(now["messages"][mid]["folder"] == P["folder"] for mid in invoices) / len(invoices)

    @component("every invoice carries the Finance label", 0.15)
    def labelled():
        return sum(P["label"] in now["messages"][mid]["labels"] for mid in invoices) / len(invoices)

    @component("a reply to the disputed invoice goes to the supplier, Cc accounts payable, disputing it", 0.3)
    def disputed():
        supplier = before["messages"][P["disputed"]]["from"]["email"]
        best = 0.0
        for msg in sent:
            if msg.get("in_reply_to") != P["disputed"] or not addressed(msg, "to", supplier):
                continue
            own = " ".join(line for line in msg["body"].splitlines() if not line.lstrip().startswith(">"))
            best = max(best, (1 + addressed(msg, "cc", P["ap"][1]) + ("disput" in squash(own))) / 3)
        return best

    @component("the largest invoice, and only it, is forwarded to the accountant", 0.3)
    def forwarded():
        email = P["accountant"][1]
        to_accountant = [m for m in sent if addressed(m, "to", email) or addressed(m, "cc", email)]
        text = " ".join(m["subject"] + " " + m["body"] for m in to_accountant)
        got = {mid for mid, number in P["numbers"].items() if mentions(text, number)}
        if P["largest"] not in got:
            return 0.0
        return 1.0 if got == {P["largest"]} else 0.5


def demonstrate(P, screen):
    """Open each invoice (found by its number): label it Finance; answer the disputed one with a
    reply (Cc accounts payable) and forward the largest to the accountant while it is open; then
    move it to Receipts. (The largest is the one whose body shows the biggest amount due.)"""
    folder, label = P["folder"].title(), P["label"].title()  # the seed names them "Receipts", "Finance"
    for mid in P["invoices"]:
        subject = P["world"]["messages"][mid]["subject"]
        yield from search(screen, P["numbers"][mid])
        wait_rows(screen, [subject], f"the invoice {P['numbers'][mid]}")
        yield from open_message(screen, subject)
        yield from menu_pick(screen, "Labels", label)
        screen.find(named("push-button", f"Remove label {label}"), timeout_s=15, what=f"the {label} label")
        if mid == P["disputed"]:
            yield from respond(screen, "Reply")
            text = f"Hello, we dispute invoice {P['numbers'][mid]}: the amount does not match our order. "
            yield [{"action": "type", "text": text + "Please send a corrected invoice."}]
            yield from fill(screen, "Cc", P["ap"][1])
            yield from send(screen)
        if mid == P["largest"]:
            yield from respond(screen, "Forward")
            yield from fill(screen, "To", P["accountant"][1])
            yield from send(screen)
        yield from menu_pick(screen, "Move to", folder)
        wait_rows(screen, [], f"the invoice {P['numbers'][mid]} to leave the Inbox")
    yield [{"action": "wait", "time": 1.0}]  # the app saves each change to the hub as it is made
