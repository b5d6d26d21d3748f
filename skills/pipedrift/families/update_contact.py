"""Pipedrift: update a contact's email and job title in the grid. Data and wording: update_contact.yaml."""

from skills.kit.guest.hub import hub_read, hub_write, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach_web import open_view, settle, type_field
from skills.kit.webapp import records, seeded


def draw(rng, pools):
    state = seeded("pipedrift")
    names = rng.sample(pools["names"], 3)
    contacts = {}
    for name in names:
        first, last = name.lower().split()
        fixed = {
            "name": name,
            "email": f"{first}.{last}@{rng.choice(pools['domains'])}",
            "job_title": rng.choice(pools["titles"]),
        }
        contacts.update(records("pipedrift", "contacts", 1, rng, state, **fixed))
    contact = rng.choice(sorted(contacts))
    old = contacts[contact]
    first, last = old["name"].lower().split()
    email = f"{first[0]}{last}@{rng.choice([d for d in pools['domains'] if d not in old['email']])}"
    job_title = rng.choice([t for t in pools["titles"] if t != old["job_title"]])
    return {
        "world": {"contacts": contacts},
        "contact": contact,
        "name": old["name"],
        "old_email": old["email"],
        "old_job_title": old["job_title"],
        "email": email,
        "job_title": job_title,
    }


def initial_setup(P):
    hub_write("pipedrift", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("pipedrift", "state")["stored_state"]
    contact = state["contacts"][P["contact"]]
    if mistake != "title_only":
        contact["email"] = P["email"]
    if mistake != "email_only":
        contact["job_title"] = P["job_title"]
    hub_write("pipedrift", "set_current", state)


def reward(P):
    go = hub_read("pipedrift", "go")
    now, before = go["current_state"], go["initial_state"]

    @precondition("the contact is the one the task names, with the old email and title")
    def contact_as_described():
        old = before["contacts"].get(P["contact"], {})
        return old.get("name") == P["name"] and old.get("email") == P["old_email"]

    @precondition("no other contact changed and none was deleted")
    def others_intact():
        return unchanged_except(go, "contacts", ids=[P["contact"]])

    @component("the contact's email is the new one", 0.5)
    def email():
        return (now["contacts"][P["contact"]].get("email") or "").strip().lower() == P["email"]

    @component("the contact's job title is the new one", 0.5)
    def job_title():
        return squash(now["contacts"][P["contact"]].get("job_title") or "") == squash(P["job_title"])


def demonstrate(P, screen):
    """On the Contacts grid, type into the contact's Email and Job title cells (Tab saves each)."""
    yield from open_view(screen, "Contacts")
    yield from type_field(screen, f"Email of {P['name']}", P["email"])
    screen.find(
        lambda e: e.role == "entry" and e.name == f"Email of {P['name']}" and e.text == P["email"],
        timeout_s=10,
        what="the new email saved",
    )
    yield from type_field(screen, f"Job title of {P['name']}", P["job_title"])
    yield settle()
