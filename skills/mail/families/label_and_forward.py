"""Mail: forward a client's email (with its attachment) to a colleague and label it (easy)."""

from __future__ import annotations

import random

from skills._web.hubkit import (
    WEB_HELPERS,
    added_ids,
    hub_read,
    hub_write,
    next_id,
    now_iso,
    removed_ids,
    squash,
)
from skills.mail.families._mailworld import COLLEAGUES, CONTACTS, mail, person, routine, stamp
from tasks.families import Family
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Platform, Scenario, Wording

TOPICS = [  # subject, body, attachment
    ("Signed contract for the Q3 engagement", "Hi Jordan, attached is the countersigned contract for Q3. Let me "
     "know if anything is missing.", "contract-q3-signed.pdf"),
    ("Venue options for the offsite", "Here are the three venues we shortlisted, with prices and capacity.",
     "offsite-venues.pdf"),
    ("Brand guidelines v2", "Sharing the updated brand guidelines. Colours and logo spacing changed.",
     "brand-guidelines-v2.pdf"),
    ("Usability test findings", "Summary of the five usability sessions is attached; checkout was the main pain point.",
     "usability-findings.docx"),
    ("Purchase order PO-7781", "Please find purchase order PO-7781 attached for the annual licence.", "PO-7781.pdf"),
    ("Speaker bio and headshot", "As requested, my bio and a headshot for the conference programme.", "bio-headshot.zip"),
]  # fmt: skip
NEW_LABELS = {"clients": "Clients", "legal": "Legal", "events": "Events", "vendors": "Vendors", "hiring": "Hiring"}
TYPES = {"pdf": "application/pdf", "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
         "zip": "application/zip"}  # fmt: skip


def initial_setup(P):
    hub_write("mail", "set", P["world"])


def send_on(P, forward):
    state = hub_read("mail", "state")["stored_state"]
    src = state["messages"][P["target"]]
    mid = next_id(state["messages"], "e", 3)
    me = {"name": state["account"]["name"], "email": state["account"]["email"]}
    if forward:
        msg = {"to": [{"name": P["colleague"][0], "email": P["colleague"][1]}], "subject": f"Fwd: {src['subject']}",
               "body": f"FYI\n\n---------- Forwarded message ----------\nFrom: {src['from']['email']}\n\n{src['body']}",
               "attachments": list(src["attachments"]), "thread": f"t_{mid}", "in_reply_to": None, "labels": []}  # fmt: skip
    else:  # answered the sender instead
        msg = {"to": [src["from"]], "subject": f"Re: {src['subject']}", "body": "Thanks, forwarding internally.",
               "attachments": [], "thread": src["thread"], "in_reply_to": P["target"], "labels": list(src["labels"])}  # fmt: skip
    state["messages"][mid] = {"folder": "sent", "from": me, "cc": [], "date": now_iso(), "read": True, "starred": False,
                              **msg}  # fmt: skip
    src["labels"] = [*src["labels"], P["label"]]
    hub_write("mail", "set_current", state)


def golden_patch(P):
    send_on(P, True)


def near_miss(P):
    # Labelled, but replied to the sender instead of forwarding to the colleague.
    send_on(P, False)


def reward(P):
    go = hub_read("mail", "go")
    now, before = go["current_state"], go["initial_state"]
    colleague = P["colleague"][1].casefold()

    @precondition("the email and the label are there, the label not yet on it")
    def world_as_described():
        src = before["messages"][P["target"]]
        return squash(src["subject"]) == squash(P["subject"]) and P["label"] in before["labels"] \
            and P["label"] not in src["labels"]  # fmt: skip

    @precondition("no message was deleted, moved or relabelled besides the target")
    def others_intact():
        return not removed_ids(go, "messages") and all(
            now["messages"][mid]["folder"] == m["folder"]
            and (mid == P["target"] or now["messages"][mid]["labels"] == m["labels"])
            for mid, m in before["messages"].items())  # fmt: skip

    @component("the email was forwarded to the colleague with its attachment", 0.6)
    def forwarded():
        for mid in added_ids(go, "messages"):
            m = now["messages"][mid]
            names = {a["name"] for a in m.get("attachments") or []}
            if m["folder"] == "sent" and any(p["email"].casefold() == colleague for p in m["to"] + m["cc"]) \
                    and squash(P["subject"]) in squash(m["subject"]) and P["attachment"] in names:  # fmt: skip
                return True
        return False

    @component("the email carries the label", 0.4)
    def labelled():
        return P["label"] in now["messages"][P["target"]]["labels"]


class LabelAndForward(Family):
    id = "mail.label_and_forward"
    apps = ("mail",)
    platform = Platform.WEB
    difficulty = Difficulty.EASY
    leaves = ("mail/compose/respond/forward_message", "mail/organize/labels/apply_label")
    domains = (Domain.OFFICE_ADMIN, Domain.LEGAL, Domain.SALES, Domain.MANAGEMENT, Domain.ARTS_MEDIA)
    scenarios = (Scenario.COMMERCIAL,)
    helpers = (*WEB_HELPERS, send_on)
    templates = {
        Wording.IMPERATIVE: "In Mail, forward the email \"{subject}\" from {sender} to {colleague} ({email}), with "
        "its attachment, and apply the label {label} to the original email.",
        Wording.REQUEST: "Could you pass {sender}'s email \"{subject}\" on to {colleague} at {email}? Forward it "
        "with the attachment, and tag the original with the {label} label.",
        Wording.CONTEXTUAL: "As {persona}, I need {colleague} ({email}) to see what {sender} sent us. Forward the "
        "email \"{subject}\" to them including the attachment, and file the original under the {label} label.",
        Wording.GOAL: "Goal: {colleague} ({email}) has been forwarded {sender}'s email \"{subject}\" with its "
        "attachment, and that email carries the {label} label.",
        Wording.PROBLEM_FIX: "{colleague} ({email}) never got {sender}'s email \"{subject}\" and it isn't filed "
        "anywhere. Fix both: forward it to them with the attachment and put the {label} label on the original.",
    }

    def draw(self, rng: random.Random) -> dict:
        messages = routine(rng, rng.randint(3, 5), 101, 1)
        sender = rng.choice(CONTACTS)
        subject, body, attachment = rng.choice(TOPICS)
        target = f"e{120 + rng.randint(0, 9)}"
        messages[target] = mail("inbox", "g50", person(sender), subject, body, stamp(rng, 13), read=rng.random() < 0.5,
                                attachments=[(attachment, rng.randint(40, 900) * 1000, TYPES[attachment.rsplit('.', 1)[1]])])  # fmt: skip
        # The same sender wrote again about something else: the older email is the one to forward.
        other = rng.choice([t for t in TOPICS if t[0] != subject])
        messages["e131"] = mail("inbox", "g51", person(sender), other[0], other[1], stamp(rng, 14))
        labels = {lid: {"name": name, "color": "#0c8599"} for lid, name in rng.sample(sorted(NEW_LABELS.items()), 2)}
        label = rng.choice([*labels, "work"])
        return {"world": {"messages": messages, "labels": labels}, "target": target, "subject": subject,
                "sender": sender[0], "attachment": attachment, "colleague": list(rng.choice(COLLEAGUES)),
                "label": label, "label_name": labels[label]["name"] if label in labels else "Work"}  # fmt: skip

    def words(self, P: dict) -> dict[str, str]:
        return {"subject": P["subject"], "sender": P["sender"], "colleague": P["colleague"][0],
                "email": P["colleague"][1], "label": P["label_name"]}  # fmt: skip

    def context(self, P: dict) -> str:
        return (
            f"Mail (hub app `mail`), account jordan.lee@brightmail.test. Seeded mailbox plus inbox messages "
            f"{sorted(P['world']['messages'])} and labels {sorted(P['world']['labels'])}. Target {P['target']}: "
            f"{P['subject']!r} from {P['sender']} with attachment {P['attachment']}; a later email from the same sender "
            f"has another subject. Expected: a new sent message to {P['colleague'][1]} whose subject contains the "
            f"original subject and which carries {P['attachment']}; messages.{P['target']}.labels gains {P['label']!r} "
            f"(label {P['label_name']!r}); no other message moved, relabelled or deleted ('read' may change)."
        )
