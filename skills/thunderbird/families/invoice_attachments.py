"""Cross-app (Thunderbird -> terminal): save the CSV invoices attached to a month's supplier mail into
a new folder, rename them INV-<invoice number>.csv and list their sha256 sums. Data and wording:
invoice_attachments.yaml.

The Inbox holds invoice messages (each a base64 CSV attachment with the supplier's own file name), a
payment receipt with a CSV that must not be filed, and plain mail. Last month's folder beside the new
one shows the convention. The reward compares the saved files' bytes with the attachments (line
endings aside) and reads SHA256SUMS; the Inbox must stay as it was."""

from skills.kit.guest import HOME
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.thunderbird import (
    tb_account_dir,
    tb_folders_intact,
    tb_message_ids,
    tb_write_folder,
    tb_write_profile,
)
from skills.kit.teach import click
from skills.thunderbird.families._gui import (
    bring_terminal,
    bring_thunderbird,
    context_menu,
    message_rows,
    named_item,
    open_folder,
)
from skills.thunderbird.world import account, account_of, correspondents, mailbox

STYLES = ["invoice_{n}.csv", "{org}-{n}.csv", "export_{n}.csv", "INV{n}.csv", "billing_{n}.csv"]


def csv_text(rng, items, count):
    """An invoice's CSV: its lines (item, quantity, unit price, amount) and a total row."""
    lines, total = ["item,quantity,unit_price,amount"], 0.0
    for item in rng.sample(items, count):
        quantity, price = rng.randint(2, 60), rng.randint(120, 4800) / 100
        total += quantity * price
        lines.append(f"{item},{quantity},{price:.2f},{quantity * price:.2f}")
    lines.append(f"total,,,{total:.2f}")
    return "\n".join(lines) + "\n"


def draw(rng, pools):
    used = set()
    me = account(rng, used)
    people = correspondents(rng, me, 6, used)
    suppliers, payer, others = people[:3], people[3], people[4:]
    plan = [(p, "invoice") for p in suppliers] + [(payer, "receipt")]
    plan += [
        (p, t)
        for p, t in zip(others * 2, rng.sample(["meeting", "agenda", "survey", "training"], 3), strict=False)
    ]
    rng.shuffle(plan)
    messages = mailbox(rng, me, plan)
    styles = rng.sample(STYLES, 4)
    invoices, receipt = [], None
    for message, (person, topic) in zip(messages, plan, strict=True):
        if topic not in ("invoice", "receipt"):
            continue
        number = message["subject"].split()[1 if topic == "invoice" else -1]
        org = person["email"].split("@")[1].split(".")[0]
        name = styles.pop().format(n=number, org=org)
        data = csv_text(rng, pools["items"], rng.randint(2, 4))
        message["attachments"] = [{"name": name, "type": "text/csv", "data": data}]
        message["body"] = message["body"].replace("details of invoice", "attached invoice")
        entry = {"subject": message["subject"], "org": person["org"], "attachment": name, "data": data}
        if topic == "invoice":
            invoices.append({**entry, "number": number, "name": f"INV-{number}.csv"})
        else:
            receipt = {**entry, "number": number}
    year, month = 2024, rng.randint(3, 11)
    old = {f"INV-{n}.csv": csv_text(rng, pools["items"], 2) for n in rng.sample(range(1000, 9999), 2)}
    return dict(
        account=account_of(me),
        messages=messages,
        invoices=invoices,
        receipt=receipt,
        parent=rng.choice(
            ["Documents/Accounting/Invoices", "Documents/Invoices", "Documents/Finance/Suppliers"]
        ),
        month=f"{year}-{month:02d}",
        old_month=f"{year}-{month - 1:02d}",
        old_files=old,
    )


def sha_lines(files):
    """sha256sum's output for {name: text}: "<hex>  <name>" lines."""
    import hashlib

    return "".join(f"{hashlib.sha256(files[n].encode()).hexdigest()}  {n}\n" for n in sorted(files))


def initial_setup(P):
    tb_write_profile(P["account"])
    tb_write_folder(tb_account_dir(P["account"]["host"]) / "Inbox", P["messages"])
    old = HOME / P["parent"] / P["old_month"]
    old.mkdir(parents=True, exist_ok=True)
    for name, text in P["old_files"].items():
        (old / name).write_text(text, encoding="utf-8")
    (old / "SHA256SUMS").write_text(sha_lines(P["old_files"]), encoding="utf-8")


def solve(P, *, mistake=None):
    folder = HOME / P["parent"] / P["month"]
    folder.mkdir(parents=True, exist_ok=True)
    key = "attachment" if mistake == "kept_names" else "name"
    files = {inv[key]: inv["data"] for inv in P["invoices"]}
    if mistake == "receipt_too":
        files[f"INV-{P['receipt']['number']}.csv"] = P["receipt"]["data"]
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    if mistake != "no_checksums":
        (folder / "SHA256SUMS").write_text(sha_lines(files), encoding="utf-8")


def reward(P):
    import hashlib

    folder = HOME / P["parent"] / P["month"]
    wanted = {inv["name"]: inv["data"] for inv in P["invoices"]}

    def same(data, text):
        """Whether saved bytes hold the attachment's text (line endings and trailing blanks aside)."""
        found = data.decode("utf-8", "replace").replace("\r\n", "\n").strip()
        return found == text.replace("\r\n", "\n").strip()

    def saved():
        """{file name: bytes} of the plain files in the new folder (FileNotFoundError without it)."""
        return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}

    @precondition("the Inbox still holds every message, and every standard folder is still there")
    def inbox_kept():
        live = set(tb_message_ids(tb_account_dir(P["account"]["host"]) / "Inbox"))
        return all(m["id"] in live for m in P["messages"]) and tb_folders_intact(P["account"])

    @precondition("last month's folder is unchanged")
    def old_month_kept():
        old = HOME / P["parent"] / P["old_month"]
        return all(
            (old / name).is_file() and same((old / name).read_bytes(), text)
            for name, text in P["old_files"].items()
        )

    @component(
        f"each of the {len(wanted)} invoice attachments is saved in ~/{P['parent']}/{P['month']}", 0.35
    )
    def attachments_saved():
        files = saved()
        return sum(any(same(data, text) for data in files.values()) for text in wanted.values()) / len(wanted)

    @component("each invoice is named INV-<invoice number>.csv", 0.3)
    def renamed():
        files = saved()
        return sum(name in files and same(files[name], text) for name, text in wanted.items()) / len(wanted)

    @component("SHA256SUMS lists each invoice file with its sha256 sum", 0.25)
    def checksums():
        files = saved()
        listed = {}
        for line in files.get("SHA256SUMS", b"").decode("utf-8", "replace").splitlines():
            parts = line.strip().split(None, 1)
            if len(parts) == 2:
                listed[parts[1].lstrip("*").strip()] = parts[0].lower()
        hits = 0
        for name, text in wanted.items():
            data = files.get(name)
            hits += (
                data is not None and same(data, text) and listed.get(name) == hashlib.sha256(data).hexdigest()
            )
        return hits / len(wanted)

    @component("the folder holds nothing but the invoices and SHA256SUMS", 0.1)
    def nothing_else():
        files = saved()
        invoices = {n: d for n, d in files.items() if n != "SHA256SUMS"}
        return bool(invoices) and all(n in wanted and same(d, wanted[n]) for n, d in invoices.items())


def demonstrate(P, screen):
    """The terminal is on top: mkdir -p the new folder. Alt+tab to Thunderbird: for each invoice
    message, select it, right-click its attachment > Save As…, type the folder's path and the
    attachment's name, Enter. Alt+tab back: mv each file to INV-<number>.csv, sha256sum into
    SHA256SUMS."""
    import shlex

    folder = f"/home/user/{P['parent']}/{P['month']}"
    screen.wait_until(lambda: screen.has_window("Terminal"), what="the terminal")
    yield [{"action": "type", "text": f"mkdir -p {shlex.quote(folder)} && cd {shlex.quote(folder)}\n"}]
    yield from bring_thunderbird(screen)
    yield from open_folder(screen, "Inbox")
    for inv in P["invoices"]:
        yield [click(message_rows(screen, inv["subject"], count=1)[0])]
        attachment = named_item(
            screen, "push-button", inv["attachment"], f"the attachment {inv['attachment']!r}"
        )
        yield from context_menu(screen, attachment)
        yield [click(named_item(screen, "menu-item", "Save As…"))]
        screen.wait_until(lambda: screen.has_window("Save Attachment"), what="the Save Attachment dialog")
        yield [  # the name field has the focus, the name's stem selected
            {"action": "key", "keys": ["ctrl", "a"]},
            {"action": "type", "text": f"{folder}/{inv['attachment']}\n"},
        ]
        screen.wait_until(lambda: not screen.has_window("Save Attachment"), what="the dialog to close")
    yield from bring_terminal(screen)
    saved = " ".join(shlex.quote(inv["attachment"]) for inv in P["invoices"])
    yield [{"action": "type", "text": f"until ls {saved} >/dev/null 2>&1; do sleep 0.5; done; ls -l\n"}]
    for inv in P["invoices"]:
        yield [{"action": "type", "text": f"mv -nv -- {shlex.quote(inv['attachment'])} {inv['name']}\n"}]
    yield [{"action": "type", "text": "sha256sum INV-*.csv > SHA256SUMS && cat SHA256SUMS\n"}]
    yield [{"action": "wait", "time": 1.0}]
