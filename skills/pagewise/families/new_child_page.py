"""Pagewise: create a child page with owner, labels and body. Data and wording: new_child_page.yaml."""

from skills.kit.guest.hub import added_ids, hub_read, hub_write, mentions, next_id, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import in_dialog
from skills.kit.teach_web import choose, open_view, press, settle, type_field
from skills.kit.webapp import records, seeded

SPACES = {"s0001": "Engineering", "s0002": "People Ops", "s0003": "Product"}
OWNERS = {"u0002": "Felix Amadi", "u0003": "Hana Mori", "u0004": "Luis Ortega", "u0005": "Ruth Adler"}


def draw(rng, pools):
    state = seeded("pagewise")
    space = rng.choice(sorted(SPACES))
    parent_title = rng.choice(pools["parents"])
    (parent,) = records(
        "pagewise", "pages", 1, rng, state, title=parent_title, space=space, status="published"
    )
    state["pages"][parent].pop("parent", None)
    labels = list(rng.choice(pools["labels"]))
    owner = rng.choice(sorted(OWNERS))
    return {
        "world": {"pages": {parent: state["pages"][parent]}},
        "space": space,
        "space_name": SPACES[space],
        "parent": parent,
        "parent_title": parent_title,
        "title": rng.choice(pools["titles"]),
        "owner": owner,
        "owner_name": OWNERS[owner],
        "labels": labels,
        "labels_text": " and ".join(f'"{label}"' for label in labels),
        "body": rng.choice(pools["bodies"]),
    }


def initial_setup(P):
    hub_write("pagewise", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("pagewise", "state")["stored_state"]
    page = {
        "title": P["title"],
        "space": P["space"],
        "status": "draft",
        "owner": P["owner"],
        "labels": list(P["labels"]),
        "updated": "2024-06-14T10:00:00Z",
    }
    if mistake != "no_parent":
        page["parent"] = P["parent"]
    if mistake != "no_body":
        page["body"] = P["body"]
    state["pages"][next_id(state["pages"], "p", 4)] = page
    hub_write("pagewise", "set_current", state)


def reward(P):
    go = hub_read("pagewise", "go")
    now, before = go["current_state"], go["initial_state"]
    new = [now["pages"][p] for p in added_ids(go, "pages")]
    made = [p for p in new if squash(p["title"]) == squash(P["title"])]

    @precondition("the parent page exists and no page has that title yet")
    def world_as_described():
        return before["pages"].get(P["parent"], {}).get("title") == P["parent_title"] and not any(
            squash(p["title"]) == squash(P["title"]) for p in before["pages"].values()
        )

    @precondition("no existing page changed, nothing was deleted, and only one page was added")
    def others_intact():
        return (
            unchanged_except(go, "pages")
            and unchanged_except(go, "spaces")
            and unchanged_except(go, "comments")
            and unchanged_except(go, "members")
            and len(new) <= 1
        )

    @component("a page with that title exists, owned by the named member with the labels asked", 0.3)
    def exists():
        wanted = sorted(squash(label) for label in P["labels"])
        return any(
            p.get("owner") == P["owner"] and sorted(squash(x) for x in p.get("labels") or []) == wanted
            for p in made
        )

    @component("it sits in the space under the named parent page", 0.4)
    def placed():
        return any(p.get("space") == P["space"] and p.get("parent") == P["parent"] for p in made)

    @component("its body has the text asked", 0.3)
    def written():
        return any(mentions(p.get("body") or "", P["body"]) for p in made)


def demonstrate(P, screen):
    """New page on Pages; fill the dialog (title, space, parent page, owner, labels, body) and
    create it."""
    yield from open_view(screen, "Pages")
    yield from press(screen, "New page")
    screen.find(lambda e: e.role == "dialog", timeout_s=10, what="the New page dialog")
    yield from type_field(screen, "Title", P["title"])
    yield from choose(screen, "Space", P["space_name"])
    yield from choose(screen, "Parent page", P["parent_title"])
    yield from choose(screen, "Owner", P["owner_name"])
    yield from type_field(screen, "Labels", ", ".join(P["labels"]))
    yield from type_field(screen, "Body", P["body"])
    yield [
        {"action": "left_click", "coordinate": list(in_dialog(screen, "push-button", "Create page").center)}
    ]
    screen.wait_until(
        lambda: not screen.elements(lambda e: e.role == "dialog"), timeout_s=10, what="the dialog to close"
    )
    yield settle()
