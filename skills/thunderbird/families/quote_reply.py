"""Cross-app (Thunderbird + Writer): fill in a quotation's placeholders from a customer's request mail,
save it, then reply to the mail with the quotation attached and keep the reply as a draft. Data and
wording: quote_reply.yaml.

The desktop opens the quotation in Writer (on top) beside Thunderbird. The reward reads the document
on disk and the Drafts mbox of the account (a draft is saved there offline); the attached copy must be
the filled-in one, so it has to be saved before it is attached."""

from skills.kit.guest import HOME
from skills.kit.guest.docs import new_doc, norm, save_doc
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.thunderbird import (
    tb_account_dir,
    tb_attachment_data,
    tb_folders_intact,
    tb_message_ids,
    tb_read_folder,
    tb_write_folder,
    tb_write_profile,
)
from skills.kit.teach import click, save_keeping_format
from skills.thunderbird.families._gui import (
    MAIN,
    bring_thunderbird,
    message_rows,
    named_item,
    open_folder,
)
from skills.thunderbird.world import account, account_of, correspondents, mailbox


def draw(rng, pools):
    used = set()
    me = account(rng, used)
    people = correspondents(rng, me, 4, used)
    customer, others = people[0], people[1:]
    plan = [
        (p, t)
        for p, t in zip(others, rng.sample(["meeting", "invoice", "newsletter", "agenda"], 3), strict=True)
    ]
    plan.insert(rng.randint(0, 3), (customer, "quote"))
    messages = mailbox(rng, me, plan)
    product, qty = rng.choice(pools["products"]), rng.choice([12, 20, 24, 35, 40, 48, 60, 75, 120, 150])
    number = rng.randint(2100, 2999)
    request = next(m for m in messages if customer["email"] in m["from"])
    request["subject"] = f"Request for quote: {product}"
    request["body"] = (
        f"Hi {me['first']},\n\ncould you send us a quote for {qty} {product}? We would like delivery within "
        f"four weeks.\n\nBest regards,\n{customer['name']}\n{customer['org']}\n"
    )
    price = rng.randint(40, 900)
    lines = [
        f"Quotation Q-{number}",
        "Prepared for: [CUSTOMER]",
        f"Quantity: [QTY] units of {product}",
        f"Unit price: {price}.00 EUR",
        "This quotation is valid for 30 days.",
        f"{me['name']}, {me['org']}",
    ]
    return dict(
        account=account_of(me),
        customer={k: customer[k] for k in ("first", "name", "email", "org")},
        messages=messages,
        request=request["id"],
        subject=request["subject"],
        product=product,
        qty=qty,
        path=f"Documents/Quotes/Q-{number}.docx",
        lines=lines,
        author=me["name"],
    )


def filled(P):
    """The quotation's lines once its placeholders are filled in."""
    return [
        line.replace("[CUSTOMER]", P["customer"]["org"]).replace("[QTY]", str(P["qty"]))
        for line in P["lines"]
    ]


def quotation(P, lines):
    """The quotation as a document of `lines` (the first a heading), in a new python-docx document."""
    doc = new_doc(P["author"])
    doc.add_heading(lines[0], level=1)
    for line in lines[1:]:
        doc.add_paragraph(line)
    return doc


def initial_setup(P):
    tb_write_profile(P["account"])
    tb_write_folder(tb_account_dir(P["account"]["host"]) / "Inbox", P["messages"])
    save_doc(quotation(P, P["lines"]), P["path"])


def solve(P, *, mistake=None):
    old = (HOME / P["path"]).read_bytes()
    save_doc(quotation(P, filled(P)), P["path"])
    new = (HOME / P["path"]).read_bytes()
    me = P["account"]
    reply = {
        "id": f"reply.{P['request']}",
        "from": f"{me['name']} <{me['email']}>",
        "to": f"{P['customer']['name']} <{P['customer']['email']}>",
        "subject": f"Re: {P['subject']}",
        "date": "Mon, 01 Apr 2024 10:00:00 +0000",
        "body": f"Hi {P['customer']['first']},\n\nplease find our quotation attached.\n",
        "status": 0x1,
    }
    if mistake != "no_attachment":
        data = old if mistake == "stale_attachment" else new
        kind = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
        reply["attachments"] = [{"name": P["path"].split("/")[-1], "type": kind, "data": data}]
    tb_write_folder(tb_account_dir(me["host"]) / "Drafts", [reply])


def reward(P):
    import io

    name = P["path"].split("/")[-1]
    org, qty = P["customer"]["org"], str(P["qty"])
    want_customer, want_qty = norm(filled(P)[1]), norm(filled(P)[2])

    def lines_of(source):
        """The normalised non-empty paragraph texts of a docx (a path or bytes); [] when unreadable."""
        import docx

        try:
            doc = docx.Document(source)
        except Exception:  # noqa: BLE001 - not a document: it holds no line
            return []
        return [norm(p.text).strip() for p in doc.paragraphs if p.text.strip()]

    def drafts():
        """The drafts addressed to the customer whose subject names the request."""
        found = tb_read_folder(tb_account_dir(P["account"]["host"]) / "Drafts")
        return [
            m
            for m in found
            if P["customer"]["email"].lower() in m["to"].lower()
            and P["subject"].lower() in m["subject"].lower()
        ]

    def attached():
        """The bytes of the quotation attached to a draft reply (the first that has one), or None."""
        for m in drafts():
            data = tb_attachment_data(m, name)
            if data is not None:
                return data
        return None

    @precondition("the Inbox still holds every message, and every standard folder is still there")
    def inbox_kept():
        live = set(tb_message_ids(tb_account_dir(P["account"]["host"]) / "Inbox"))
        return all(m["id"] in live for m in P["messages"]) and tb_folders_intact(P["account"])

    @precondition("the quotation's other lines are unchanged")
    def other_lines_kept():
        found = lines_of(HOME / P["path"])
        return all(norm(line).strip() in found for line in P["lines"][3:])

    @component(f"the quotation is prepared for {org}", 0.15)
    def document_customer():
        found = lines_of(HOME / P["path"])
        return want_customer in found and not any("[CUSTOMER]" in line for line in found)

    @component(f"the quotation's quantity is {qty}", 0.15)
    def document_quantity():
        found = lines_of(HOME / P["path"])
        return want_qty in found and not any("[QTY]" in line for line in found)

    @component(f"Drafts holds a reply to {P['customer']['email']} about {P['subject']!r}", 0.2)
    def draft_reply():
        return bool(drafts())

    @component(f"the draft reply has {name} attached", 0.2)
    def draft_attachment():
        return attached() is not None

    @component("the attached quotation is the filled-in one", 0.3)
    def attachment_filled():
        data = attached()
        found = lines_of(io.BytesIO(data)) if data else []
        return ((want_customer in found) + (want_qty in found)) / 2


def demonstrate(P, screen):
    """Writer is on top with the quotation: Find & Replace (Ctrl+H) [CUSTOMER] and [QTY], Replace All
    each, close, save keeping docx. Alt+tab to Thunderbird: select the request, Reply (Ctrl+R), type a
    line, attach the file (Ctrl+Shift+A, Ctrl+L, its path, Open), save as draft (Ctrl+S), close the
    compose window and check Drafts shows the reply."""
    import contextlib

    key = lambda *keys: {"action": "key", "keys": list(keys)}  # noqa: E731
    stem = P["path"].split("/")[-1].rsplit(".", 1)[0]

    def field(label_name):
        """The entry to the right of a Find and Replace label ("Find:", "Replace:")."""
        label = screen.find(
            lambda e: e.role == "label" and e.name == label_name, what=f"the {label_name} label"
        )
        row = label.y + label.h // 2
        return screen.find(
            lambda e: e.role == "text" and e.x > label.x and abs(e.y + e.h // 2 - row) < 30,
            what=f"the {label_name} field",
        )

    screen.wait_until(lambda: screen.has_window(stem), what="the quotation in Writer")
    yield [key("ctrl", "h")]
    screen.wait_until(lambda: screen.has_window("Find and Replace"), what="the Find and Replace dialog")
    for old, new in (("[CUSTOMER]", P["customer"]["org"]), ("[QTY]", str(P["qty"]))):
        find, replace = field("Find:"), field("Replace:")
        yield [click(find), key("ctrl", "a"), {"action": "type", "text": old}]
        yield [click(replace), key("ctrl", "a"), {"action": "type", "text": new}]
        replace_all = named_item(screen, "push-button", "Replace All")
        yield [click(replace_all), {"action": "wait", "time": 1.0}]
    closes = screen.elements(lambda e: e.role == "push-button" and e.name == "Close")
    ax, ay = replace_all.center  # the dialog's Close, not Thunderbird's window button behind Writer
    yield [click(min(closes, key=lambda e: abs(e.center[0] - ax) + abs(e.center[1] - ay)))]
    screen.wait_until(lambda: not screen.has_window("Find and Replace"), what="the dialog to close")
    yield from save_keeping_format(screen)

    yield from bring_thunderbird(screen)
    yield from open_folder(screen, "Inbox")
    yield [click(message_rows(screen, P["subject"], count=1)[0])]
    screen.find(lambda e: e.name == f"Subject: {P['subject']}", what="the request in the reading pane")
    yield [key("ctrl", "r")]
    title = f"Write: Re: {P['subject']}"
    screen.wait_until(lambda: screen.has_window(title), what="the reply's compose window")
    named_item(screen, "entry", "Subject", "the compose window's Subject")
    yield [{"action": "type", "text": f"Hi {P['customer']['first']}, please find our quotation attached.\n"}]
    yield [key("ctrl", "shift", "a")]
    screen.wait_until(lambda: screen.has_window("Attach File(s)"), what="the Attach File(s) dialog")
    path = f"/home/user/{P['path']}"
    yield [key("ctrl", "l"), {"action": "type", "text": path}]
    for attempt in range(3):  # under load a click may land before the chooser took the path: again
        chooser = screen.find(lambda e: e.role == "file-chooser", what="the file chooser")

        def inside(e, chooser=chooser):
            return chooser.x <= e.x < chooser.x + chooser.w and chooser.y <= e.y < chooser.y + chooser.h

        location = screen.find(lambda e: e.role == "text" and inside(e), what="the chooser's location")
        if attempt:
            yield [click(location), key("ctrl", "a"), {"action": "type", "text": path}]
        with contextlib.suppress(
            Exception
        ):  # a person looks at the path first; if the field won't tell, go on
            screen.wait_until(lambda: any(e.text.startswith(path) for e in screen.elements(
                lambda e: e.role == "text" and inside(e))), timeout_s=10, what="the typed path")  # fmt: skip
        yield [
            click(
                screen.find(lambda e: e.role == "push-button" and e.name == "Open" and inside(e), what="Open")
            )
        ]
        try:
            screen.wait_until(
                lambda: not screen.has_window("Attach File(s)"), timeout_s=15, what="the chooser"
            )
            break
        except Exception:  # noqa: BLE001 - still open: retype the path and open again
            continue
    screen.wait_until(lambda: not screen.has_window("Attach File(s)"), what="the chooser to close")
    screen.find(
        lambda e: e.role == "list-item" and e.name.startswith(stem), what="the attachment in the message"
    )
    yield [key("ctrl", "s"), {"action": "wait", "time": 2.0}]
    yield [key("ctrl", "w")]
    screen.wait_until(lambda: not screen.has_window(title), what="the compose window to close")
    screen.wait_until(lambda: screen.has_window(MAIN), what="the main window")
    yield from open_folder(screen, "Drafts")
    message_rows(screen, P["subject"], count=1)
