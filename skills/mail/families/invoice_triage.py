"""Mail: month-end invoice triage: file the suppliers' invoices (label + folder), dispute one of them in
a threaded reply with accounts payable in Cc, and forward the largest to the accountant (hard: the
agent must read every invoice to find the largest; four independently scored parts)."""

from __future__ import annotations

import random

from skills._web.hubkit import (
    WEB_HELPERS,
    added_ids,
    hub_read,
    hub_write,
    mentions,
    next_id,
    now_iso,
    removed_ids,
    squash,
)
from skills.mail.families._mailworld import mail, routine, stamp
from tasks.families import Family
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Platform, Scenario, Wording

SUPPLIERS = [  # name, billing address, what they bill for
    ("Brightline Printing", "billing@brightline-print.test", "brochure printing"),
    ("CloudNest Hosting", "invoices@cloudnest.test", "server hosting"),
    ("Evergreen Office Supply", "accounts@evergreen-office.test", "office supplies"),
    ("Swift Couriers", "billing@swiftcouriers.test", "courier deliveries"),
    ("Pixel & Co Design", "finance@pixelco.test", "illustration work"),
    ("Northgate Catering", "invoices@northgate-catering.test", "event catering"),
]  # fmt: skip
AP = ("Accounts Payable", "ap@brightmail.test")
ACCOUNTANT = ("Owen Clarke", "owen.clarke@clarke-cpa.test")
FOLDER, LABEL = "receipts", "finance"  # the seed's Receipts folder and Finance label


def possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def initial_setup(P):
    hub_write("mail", "set", P["world"])


def triage(P, forward_to):
    state = hub_read("mail", "state")["stored_state"]
    me = {"name": state["account"]["name"], "email": state["account"]["email"]}
    for mid in P["invoices"]:
        msg = state["messages"][mid]
        msg["folder"] = P["folder"]
        msg["labels"] = [*msg["labels"], P["label"]] if P["label"] not in msg["labels"] else msg["labels"]

    def send(**fields):
        mid = next_id(state["messages"], "e", 3)
        state["messages"][mid] = {"folder": "sent", "from": me, "cc": [], "date": now_iso(), "read": True,
                                  "starred": False, "attachments": [], "labels": [], "in_reply_to": None,
                                  "thread": f"t_{mid}", **fields}  # fmt: skip

    disputed = state["messages"][P["disputed"]]
    send(to=[disputed["from"]], cc=[{"name": P["ap"][0], "email": P["ap"][1]}], subject=f"Re: {disputed['subject']}",
         body=f"Hello, we dispute invoice {P['numbers'][P['disputed']]}: the amount does not match our order. "
         "Please send a corrected invoice.", in_reply_to=P["disputed"], thread=disputed["thread"],
         labels=list(disputed["labels"]))  # fmt: skip
    src = state["messages"][forward_to]
    send(to=[{"name": P["accountant"][0], "email": P["accountant"][1]}], subject=f"Fwd: {src['subject']}",
         body=f"Owen, the largest invoice this month.\n\n---------- Forwarded message ----------\n{src['body']}",
         attachments=list(src["attachments"]))  # fmt: skip
    hub_write("mail", "set_current", state)


def golden_patch(P):
    triage(P, P["largest"])


def near_miss(P):
    # Everything right, except the accountant gets the second-largest invoice.
    triage(P, P["runner_up"])


def reward(P):
    go = hub_read("mail", "go")
    now, before = go["current_state"], go["initial_state"]
    sent = [now["messages"][mid] for mid in added_ids(go, "messages") if now["messages"][mid]["folder"] == "sent"]

    def addressed(msg, field, email):
        return any(p["email"].casefold() == email.casefold() for p in msg.get(field) or [])

    @precondition("the invoices are in the Inbox, unfiled, as the task describes")
    def world_as_described():
        return all(before["messages"][mid]["folder"] == "inbox" and mentions(before["messages"][mid]["subject"], number)
                   for mid, number in P["numbers"].items()) and P["folder"] in before["folders"] \
            and P["label"] in before["labels"]  # fmt: skip

    @precondition("no other message was moved or deleted")
    def others_intact():
        return not removed_ids(go, "messages") and all(
            now["messages"][mid]["folder"] == m["folder"] for mid, m in before["messages"].items()
            if mid not in P["invoices"])  # fmt: skip

    @component("every invoice is filed in the Receipts folder", 0.25)
    def filed():
        return sum(now["messages"][mid]["folder"] == P["folder"] for mid in P["invoices"]) / len(P["invoices"])

    @component("every invoice carries the Finance label", 0.15)
    def labelled():
        return sum(P["label"] in now["messages"][mid]["labels"] for mid in P["invoices"]) / len(P["invoices"])

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
        got = {mid for msg in sent if addressed(msg, "to", P["accountant"][1]) or addressed(msg, "cc", P["accountant"][1])
               for mid, number in P["numbers"].items() if mentions(msg["subject"] + " " + msg["body"], number)}  # fmt: skip
        if P["largest"] not in got:
            return 0.0
        return 1.0 if got == {P["largest"]} else 0.5


class InvoiceTriage(Family):
    id = "mail.invoice_triage"
    apps = ("mail",)
    platform = Platform.WEB
    difficulty = Difficulty.HARD
    leaves = ("mail/organize/folders/move_to_folder", "mail/organize/labels/apply_label",
              "mail/compose/respond/reply_with_cc", "mail/compose/respond/forward_message",
              "mail/read/open/read_message")  # fmt: skip
    domains = (Domain.BUSINESS_FINANCE, Domain.OFFICE_ADMIN, Domain.MANAGEMENT)
    scenarios = (Scenario.COMMERCIAL,)
    helpers = (*WEB_HELPERS, triage)
    templates = {
        Wording.IMPERATIVE: "In Mail, file the invoice emails from {suppliers}: apply the Finance label to each and "
        "move it to the Receipts folder. Reply to {disputed_supplier} invoice {disputed_number} saying we dispute "
        "it, with {ap_email} in Cc. Forward the invoice with the largest amount due among them to {accountant} "
        "({accountant_email}).",
        Wording.REQUEST: "Month end again: could you sort the supplier invoices in my Inbox from {suppliers}? Each "
        "should get the Finance label and go into Receipts. Please also answer {disputed_supplier} invoice "
        "{disputed_number} with a reply saying we dispute it (Cc {ap_email}), and forward whichever of these invoices has the "
        "biggest amount due to {accountant} at {accountant_email}.",
        Wording.CONTEXTUAL: "As {persona}, I close the books this week. The invoices from {suppliers} are sitting in "
        "my Inbox: label each one Finance and move it to the Receipts folder. {disputed_supplier} invoice "
        "{disputed_number} is wrong, so reply to it saying we dispute it and copy {ap_email}. Our accountant "
        "{accountant} ({accountant_email}) wants the largest of these invoices forwarded to them.",
        Wording.GOAL: "Goal: the invoice emails from {suppliers} are in the Receipts folder with the Finance label; "
        "your reply to {disputed_supplier} invoice {disputed_number} disputes it and has {ap_email} in Cc; the "
        "invoice with the largest amount due among them has been forwarded to {accountant} ({accountant_email}). No "
        "other email moved.",
        Wording.PROBLEM_FIX: "Supplier invoices from {suppliers} are piling up unfiled in my Inbox and nobody has "
        "pushed back on {disputed_supplier} wrong invoice {disputed_number}. Fix it: give each invoice the Finance "
        "label and move it to Receipts, reply to {disputed_number} disputing it (Cc {ap_email}), and forward the "
        "largest of these invoices to {accountant} ({accountant_email}).",
    }

    def draw(self, rng: random.Random) -> dict:
        chosen = rng.sample(SUPPLIERS, rng.randint(3, 4))
        messages = routine(rng, rng.randint(3, 5), 101, 1)
        amounts = sorted(rng.sample(range(180, 4800), len(chosen)), reverse=True)
        amounts = [a + rng.choice([0, 0.5, 0.75, 0.99]) for a in amounts]
        rng.shuffle(amounts)
        numbers, amount_of, names, number = {}, {}, {}, 120
        for (name, address, service), amount in zip(chosen, amounts, strict=True):
            mid, invoice = f"e{number}", f"INV-{rng.randint(10000, 99999)}"
            body = (f"Dear customer,\n\nplease find attached invoice {invoice} for {service} in May 2024.\n"
                    f"Amount due: USD {amount:,.2f}\nDue date: June {rng.randint(20, 30)}, 2024\n\n{name} billing team")
            messages[mid] = mail("inbox", f"g{number}", {"name": name, "email": address},
                                 f"Invoice {invoice} from {name}", body, stamp(rng, rng.randint(1, 12)),
                                 read=rng.random() < 0.4, attachments=[(f"{invoice}.pdf", rng.randint(60, 400) * 1000,
                                                                          "application/pdf")])  # fmt: skip
            numbers[mid], amount_of[mid], names[mid] = invoice, amount, name
            number += 1
        ranked = sorted(numbers, key=lambda m: amount_of[m], reverse=True)
        disputed = rng.choice(ranked[1:])
        return {"world": {"messages": messages}, "invoices": sorted(numbers), "numbers": numbers,
                "amounts": amount_of, "supplier_names": names, "largest": ranked[0], "runner_up": ranked[1],
                "disputed": disputed, "folder": FOLDER, "label": LABEL, "ap": list(AP),
                "accountant": list(ACCOUNTANT)}  # fmt: skip

    def words(self, P: dict) -> dict[str, str]:
        names = [P["supplier_names"][mid] for mid in P["invoices"]]
        return {"suppliers": ", ".join(names[:-1]) + " and " + names[-1],
                "disputed_supplier": possessive(P["supplier_names"][P["disputed"]]), "disputed_number": P["numbers"][P["disputed"]],
                "ap_email": AP[1], "accountant": ACCOUNTANT[0], "accountant_email": ACCOUNTANT[1]}  # fmt: skip

    def context(self, P: dict) -> str:
        return (
            f"Mail (hub app `mail`). Seeded mailbox (it has an unrelated Northwind invoice e002 in the Inbox, not a "
            f"target; folder 'receipts' named Receipts; label 'finance' named Finance) plus generated inbox messages "
            f"{sorted(P['world']['messages'])}. Supplier invoices {P['numbers']} with amounts {P['amounts']}. Expected: "
            f"each invoice in folder receipts with label finance; a new sent reply with in_reply_to={P['disputed']} to "
            f"the supplier, Cc {AP[1]}, body containing 'dispute'; a new sent message to {ACCOUNTANT[1]} mentioning "
            f"{P['numbers'][P['largest']]} (largest) and no other invoice number; no other message moved or deleted."
        )
