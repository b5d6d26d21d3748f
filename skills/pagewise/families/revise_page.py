"""Pagewise: revise a page's body, owner and labels in the document editor. Data and wording:
revise_page.yaml."""

from skills.kit.guest.hub import hub_read, hub_write, mentions, squash, unchanged_except
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach_web import choose, open_record, open_view, settle, type_field
from skills.kit.webapp import records, seeded

SPACES = ("s0001", "s0002", "s0003")
OWNERS = {"u0002": "Felix Amadi", "u0003": "Hana Mori", "u0004": "Luis Ortega", "u0005": "Ruth Adler"}


def draw(rng, pools):
    state = seeded("pagewise")
    topic = rng.choice(pools["topics"])
    old_owner, owner = rng.sample(sorted(OWNERS), 2)
    old_labels = rng.sample(["policy", "handbook", "rules", "finance", "ops"], rng.randint(1, 2))
    label = rng.choice(pools["labels"])
    old_sentence = topic["text"].format(old=topic["old"])
    fixed = {
        "title": topic["title"],
        "space": rng.choice(SPACES),
        "status": "published",
        "owner": old_owner,
        "labels": old_labels,
        "body": old_sentence,
    }
    (page,) = records("pagewise", "pages", 1, rng, state, **fixed)
    state["pages"][page].pop("parent", None)
    return {
        "world": {"pages": {page: state["pages"][page]}},
        "page": page,
        "title": topic["title"],
        "old": topic["old"],
        "new": topic["new"],
        "old_sentence": old_sentence,
        "new_sentence": topic["text"].format(old=topic["new"]),
        "old_owner": old_owner,
        "owner": owner,
        "owner_name": OWNERS[owner],
        "old_labels": old_labels,
        "label": label,
    }


def initial_setup(P):
    hub_write("pagewise", "set", P["world"])


def solve(P, *, mistake=None):
    state = hub_read("pagewise", "state")["stored_state"]
    page = state["pages"][P["page"]]
    if mistake != "body_untouched":
        page["body"] = P["new_sentence"]
    if mistake != "owner_unchanged":
        page["owner"] = P["owner"]
    page["labels"] = [*P["old_labels"], P["label"]]
    hub_write("pagewise", "set_current", state)


def reward(P):
    go = hub_read("pagewise", "go")
    now, before = go["current_state"], go["initial_state"]
    page = now["pages"].get(P["page"], {})

    @precondition("the page is the one the task names, with the old figure and owner")
    def page_as_described():
        old = before["pages"].get(P["page"], {})
        return old.get("title") == P["title"] and old.get("owner") != P["owner"]

    @precondition("no other page changed and nothing was deleted")
    def others_intact():
        return (
            unchanged_except(go, "pages", ids=[P["page"]])
            and unchanged_except(go, "comments")
            and unchanged_except(go, "spaces")
            and unchanged_except(go, "members")
        )

    @component("the body states the new figure and no longer the old one", 0.4)
    def revised():
        body = page.get("body") or ""
        return mentions(body, P["new_sentence"]) and not mentions(body, P["old_sentence"])

    @component("the page has the new owner", 0.3)
    def handed_over():
        return page.get("owner") == P["owner"]

    @component("the label is added and the old labels are kept", 0.3)
    def labelled():
        return sorted(squash(x) for x in page.get("labels") or []) == sorted(
            squash(x) for x in [*P["old_labels"], P["label"]]
        )


def demonstrate(P, screen):
    """Open the page from the Pages tree, retype its body in the document, pick the owner in the side
    column, then retype the labels with the new one added."""
    yield from open_view(screen, "Pages")
    yield from open_record(screen, "Pages", P["title"])
    yield from type_field(screen, "Body", P["new_sentence"])
    yield from choose(screen, "Owner", P["owner_name"])
    yield from type_field(screen, "Labels", ", ".join([*P["old_labels"], P["label"]]))
    yield settle()
