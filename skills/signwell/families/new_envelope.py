"""SignWell: create an envelope from a template and send it. Data and wording: new_envelope.yaml."""

from skills.kit.guest.hub import added_ids, hub_read, hub_write, next_id, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import fill_date, in_dialog
from skills.kit.teach_web import choose, open_view, press, settle, showing, type_field
from skills.kit.webapp import seeded

MEMBERS = {"u0001": "Maya Lindqvist", "u0002": "Daniel Osei", "u0003": "Priya Raman", "u0004": "Tomas Kral"}
MONTHS = ["June", "July"]


def draw(rng, pools):
    state = seeded("signwell")
    template = rng.choice(sorted(state["templates"]))
    counterparty = rng.choice(sorted(state["contacts"]))
    signer = rng.choice(sorted(MEMBERS))
    month, day = rng.randint(6, 7), rng.randint(17, 28)
    return {
        "title": rng.choice(pools["titles"]),
        "template": template,
        "template_name": state["templates"][template]["name"],
        "counterparty": counterparty,
        "counterparty_name": state["contacts"][counterparty]["company"],
        "signer": signer,
        "signer_name": MEMBERS[signer],
        "due": f"2024-{month:02d}-{day:02d}",
        "due_text": f"{MONTHS[month - 6]} {day}, 2024",
    }


def initial_setup(P):
    hub_write("signwell", "set", {})


def solve(P, *, mistake=None):
    state = hub_read("signwell", "state")["stored_state"]
    envelope = {
        "title": P["title"],
        "template": P["template"],
        "counterparty": P["counterparty"],
        "signer": P["signer"],
        "status": "draft" if mistake == "not_sent" else "sent",
        "created": "2024-06-14T10:00:00Z",
    }
    if mistake != "no_due":
        envelope["due"] = P["due"]
    state["envelopes"][next_id(state["envelopes"], "E", 4)] = envelope
    hub_write("signwell", "set_current", state)


def reward(P):
    go = hub_read("signwell", "go")
    now, before = go["current_state"], go["initial_state"]
    new = [now["envelopes"][e] for e in added_ids(go, "envelopes")]
    made = [e for e in new if squash(e["title"]) == squash(P["title"])]

    @precondition("no envelope with that title exists yet")
    def world_as_described():
        return not any(squash(e["title"]) == squash(P["title"]) for e in before["envelopes"].values())

    @precondition("no existing envelope changed, nothing was deleted, and only one envelope was added")
    def others_intact():
        return (
            unchanged_except(go, "envelopes")
            and unchanged_except(go, "form_fields")
            and unchanged_except(go, "contacts")
            and unchanged_except(go, "templates")
            and len(new) <= 1
        )

    @component("the envelope is made from the template for the counterparty", 0.4)
    def prepared():
        return any(
            e.get("template") == P["template"] and e.get("counterparty") == P["counterparty"] for e in made
        )

    @component("its signer and due date are the ones asked", 0.3)
    def addressed():
        return any(e.get("signer") == P["signer"] and e.get("due") == P["due"] for e in made)

    @component("it is sent for signature", 0.3)
    def sent():
        return any(e.get("status") == "sent" for e in made)


def demonstrate(P, screen):
    """New envelope on Envelopes; fill the dialog (title, template, counterparty, signer, due) and create
    it (the new envelope opens), then press Send for signature."""
    yield from open_view(screen, "Envelopes")
    yield from press(screen, "New envelope")
    screen.find(lambda e: e.role == "dialog", timeout_s=10, what="the New envelope dialog")
    yield from type_field(screen, "Title", P["title"])
    yield from choose(screen, "Template", P["template_name"])
    yield from choose(screen, "Counterparty", P["counterparty_name"])
    yield from choose(screen, "Signer", P["signer_name"])
    yield fill_date(screen, "Due", P["due"])
    yield [
        {
            "action": "left_click",
            "coordinate": list(in_dialog(screen, "push-button", "Create envelope").center),
        }
    ]
    screen.wait_until(lambda: showing(screen, P["title"], "Envelopes"), timeout_s=15, what="the new envelope")
    yield from press(screen, "Send for signature")
    screen.find(lambda e: e.role == "push-button" and e.name == "Send reminder", timeout_s=10, what="it sent")
    yield settle()
