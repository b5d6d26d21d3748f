"""SignWell: fill an envelope's form fields and sign it. Data and wording: fill_and_sign.yaml."""

from skills.kit.guest.hub import hub_read, hub_write, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import click, named
from skills.kit.teach_web import open_record, open_view, press, settle, type_field
from skills.kit.webapp import records, seeded

ME = "Maya Lindqvist"


def draw(rng, pools):
    state = seeded("signwell")
    title = rng.choice(pools["titles"])
    counterparty = rng.choice(sorted(state["contacts"]))
    fixed = {
        "title": title,
        "counterparty": counterparty,
        "signer": "u0001",
        "status": "sent",
        "reminders": 0,
    }
    (envelope,) = records("signwell", "envelopes", 1, rng, state, **fixed)
    for key in ("signature", "signed_at", "void_reason"):
        state["envelopes"][envelope].pop(key, None)
    asked = rng.sample(pools["questions"], rng.randint(2, 3))
    fields = {}
    for n, item in enumerate(asked):
        fid = f"ff{21 + n:04d}"
        fields[fid] = {"envelope": envelope, "label": item["q"], "value": "", "required": True}
    return {
        "world": {"envelopes": {envelope: state["envelopes"][envelope]}, "form_fields": fields},
        "envelope": envelope,
        "title": title,
        "counterparty_name": state["contacts"][counterparty]["company"],
        "fields": sorted(fields),
        "questions": [item["q"] for item in asked],
        "answers": [item["a"] for item in asked],
        "answers_text": "; ".join(f'{item["q"]} "{item["a"]}"' for item in asked),
        "me_name": ME,
    }


def initial_setup(P):
    hub_write("signwell", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("signwell", "state")["stored_state"]
    pairs = list(zip(P["fields"], P["answers"], strict=True))
    for fid, answer in pairs[:-1] if mistake == "one_blank" else pairs:
        state["form_fields"][fid]["value"] = answer
    if mistake != "unsigned":
        envelope = state["envelopes"][P["envelope"]]
        envelope.update(signature=P["me_name"], status="signed", signed_at="2024-06-14T10:00:00Z")
    hub_write("signwell", "set_current", state)


def reward(P):
    go = hub_read("signwell", "go")
    now, before = go["current_state"], go["initial_state"]
    envelope = now["envelopes"].get(P["envelope"], {})

    @precondition("the envelope is the one the task names, awaiting my signature, its fields blank")
    def envelope_as_described():
        old = before["envelopes"].get(P["envelope"], {})
        blank = all(not before["form_fields"][f].get("value") for f in P["fields"])
        return old.get("title") == P["title"] and old.get("status") == "sent" and blank

    @precondition("no other envelope or field changed and nothing was deleted")
    def others_intact():
        return (
            unchanged_except(go, "envelopes", ids=[P["envelope"]])
            and unchanged_except(
                go, "envelopes", fields=("title", "counterparty", "signer", "due", "template")
            )
            and unchanged_except(go, "form_fields", ids=P["fields"])
            and unchanged_except(go, "form_fields", fields=("label", "envelope", "required"))
            and unchanged_except(go, "contacts")
            and unchanged_except(go, "templates")
        )

    @component("each form field holds its answer", 0.5)
    def filled():
        values = [now["form_fields"][f].get("value") for f in P["fields"]]
        return sum(squash(v) == squash(a) for v, a in zip(values, P["answers"], strict=True)) / len(
            P["fields"]
        )

    @component("the envelope is signed with my full name", 0.5)
    def signed():
        return (
            envelope.get("status") == "signed"
            and squash(envelope.get("signature")) == squash(P["me_name"])
            and envelope.get("signed_at") == "2024-06-14T10:00:00Z"
        )


def demonstrate(P, screen):
    """Open the envelope from Envelopes, type each answer into the field named by its question, then
    type the full name into the signature entry and press Sign."""
    yield from open_view(screen, "Envelopes")
    yield from open_record(screen, "Envelopes", P["title"])
    for question, answer in zip(P["questions"], P["answers"], strict=True):
        yield from type_field(screen, question, answer)
        screen.find(
            lambda e, q=question, a=answer: e.role == "entry" and e.name == q and e.text == a,
            timeout_s=10,
            what=f"the answer to {question!r}",
        )
    box = screen.find(named("entry", "Type your full name to sign"), what="the signature entry")
    yield [click(box), {"action": "type", "text": P["me_name"]}]
    yield from press(screen, "Sign")
    screen.find(
        lambda e: e.role == "static" and e.name.startswith("Completed"),
        timeout_s=10,
        what="the envelope signed",
    )
    yield settle()
