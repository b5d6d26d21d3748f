"""Mail: clear the newsletters out of the inbox: create a label, put it on every issue from the named
newsletters, and archive them, leaving everything else in the inbox (medium)."""

from __future__ import annotations

import random

from skills._web.hubkit import WEB_HELPERS, hub_read, hub_write, removed_ids, squash
from skills.mail.families._mailworld import mail, routine, stamp
from tasks.families import Family
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Platform, Scenario, Wording

NEWSLETTERS = [  # name, address, colleague at the same domain (writes personally, not a newsletter), topics
    ("Product Digest", "digest@productdigest.test", ("Maya Ortiz", "maya@productdigest.test"),
     ["Roadmaps that survive contact", "Pricing teardown: three SaaS tiers", "Onboarding flows we liked"]),
    ("Growth Weekly", "hello@growthweekly.test", ("Sam Patel", "sam@growthweekly.test"),
     ["Referral loops in 2024", "Why your activation metric lies", "Churn interviews, a how-to"]),
    ("Design Notes", "notes@designnotes.test", ("Ivy Laurent", "ivy@designnotes.test"),
     ["Typography for dashboards", "Dark patterns to avoid", "Figma variables in practice"]),
    ("The Data Drop", "news@datadrop.test", ("Ken Mori", "ken@datadrop.test"),
     ["SQL window functions explained", "Dashboards nobody reads", "A/B test sample sizes"]),
    ("Remote Work Report", "team@remotereport.test", ("Ada Byrne", "ada@remotereport.test"),
     ["Async standups that work", "Time zones and fairness", "Home office ergonomics"]),
]  # fmt: skip
LABEL_NAMES = ["Newsletters", "Reading list", "Subscriptions", "Read later"]


def initial_setup(P):
    hub_write("mail", "set", P["world"])


def tidy(P, apply_label):
    state = hub_read("mail", "state")["stored_state"]
    lid = P["label_name"].lower().replace(" ", "-")  # the UI's id for a new label (mail/static/model.js)
    state["labels"][lid] = {"name": P["label_name"], "color": "#5f3dc4"}
    for mid in P["targets"]:
        msg = state["messages"][mid]
        msg["folder"] = "archive"
        if apply_label:
            msg["labels"] = [*msg["labels"], lid]
    hub_write("mail", "set_current", state)


def golden_patch(P):
    tidy(P, True)


def near_miss(P):
    # The label is created and the newsletters archived, but the label was never applied to them.
    tidy(P, False)


def reward(P):
    go = hub_read("mail", "go")
    now, before = go["current_state"], go["initial_state"]
    senders = {a.casefold() for a in P["addresses"]}
    label_ids = {lid for lid, lab in now["labels"].items() if squash(lab["name"]) == squash(P["label_name"])}

    @precondition("the newsletters are the inbox messages from the named addresses, and the label is new")
    def world_as_described():
        inbox = sorted(mid for mid, m in before["messages"].items()
                       if m["folder"] == "inbox" and m["from"]["email"].casefold() in senders)  # fmt: skip
        return inbox == sorted(P["targets"]) and not any(
            squash(lab["name"]) == squash(P["label_name"]) for lab in before["labels"].values())

    @precondition("every other message stays where it was, with its labels, and nothing was deleted")
    def others_intact():
        return not removed_ids(go, "messages") and all(
            now["messages"][mid]["folder"] == m["folder"] and now["messages"][mid]["labels"] == m["labels"]
            for mid, m in before["messages"].items() if mid not in P["targets"])  # fmt: skip

    @component("each newsletter carries the new label", 0.4)
    def labelled():
        return sum(bool(label_ids & set(now["messages"][mid]["labels"])) for mid in P["targets"]) / len(P["targets"])

    @component("each newsletter is archived", 0.6)
    def archived():
        return sum(now["messages"][mid]["folder"] == "archive" for mid in P["targets"]) / len(P["targets"])


class ArchiveNewsletters(Family):
    id = "mail.archive_newsletters"
    apps = ("mail",)
    platform = Platform.WEB
    difficulty = Difficulty.MEDIUM
    leaves = ("mail/organize/archive/archive_messages", "mail/organize/labels/create_label",
              "mail/organize/labels/apply_label", "mail/organize/select/bulk_select")  # fmt: skip
    domains = (Domain.OFFICE_ADMIN, Domain.MANAGEMENT, Domain.ARTS_MEDIA, Domain.COMPUTER_MATH)
    scenarios = (Scenario.COMMERCIAL, Scenario.PERSONAL)
    helpers = (*WEB_HELPERS, tidy)
    templates = {
        Wording.IMPERATIVE: "In Mail, create a label named \"{label}\". Apply it to every Inbox email sent by "
        "{newsletters}, then archive those emails. Leave all other emails in the Inbox.",
        Wording.REQUEST: "My inbox is drowning in newsletters. Could you make a \"{label}\" label, put it on every "
        "message in the Inbox from {newsletters}, and archive them? Everything else should stay in the Inbox.",
        Wording.CONTEXTUAL: "As {persona}, I read newsletters once a week, not in my inbox. In Mail, add a label "
        "\"{label}\", tag all Inbox emails from {newsletters} with it, and archive them. Personal emails, even from "
        "people at those publications, stay in the Inbox.",
        Wording.GOAL: "Goal: Mail has a label \"{label}\"; every email from {newsletters} that was in the Inbox "
        "carries it and is archived; no other email was moved or relabelled.",
        Wording.PROBLEM_FIX: "Newsletters from {newsletters} keep burying real email in my Inbox. Fix it in Mail: "
        "create the label \"{label}\", apply it to all of their emails in the Inbox and archive them, without "
        "moving anything else.",
    }

    def draw(self, rng: random.Random) -> dict:
        chosen = rng.sample(NEWSLETTERS, rng.randint(2, 3))
        messages = routine(rng, rng.randint(3, 5), 101, 1)
        targets, number, thread = [], 120, 60
        for name, address, _colleague, topics in chosen:
            issue = rng.randint(40, 180)
            for topic in rng.sample(topics, rng.randint(2, 3)):
                issue += 1
                messages[f"e{number}"] = mail("inbox", f"g{thread}", {"name": name, "email": address},
                                              f"{name} #{issue}: {topic}", f"This week in {name}: {topic}. "
                                              "Read online. Unsubscribe at any time.", stamp(rng, rng.randint(1, 12)),
                                              read=rng.random() < 0.3)  # fmt: skip
                targets.append(f"e{number}")
                number, thread = number + 1, thread + 1
        # A personal email from someone at one of the publications: not a newsletter.
        _, _, colleague, _ = rng.choice(chosen)
        messages[f"e{number}"] = mail("inbox", f"g{thread}", {"name": colleague[0], "email": colleague[1]},
                                      "Would you write a guest post?", "Hi Jordan, we'd love a guest post from you "
                                      "for a future issue. Interested?", stamp(rng, 12))  # fmt: skip
        # An older issue already archived: it is not in the Inbox and stays untouched.
        messages[f"e{number + 1}"] = mail("archive", f"g{thread + 1}", {"name": chosen[0][0], "email": chosen[0][1]},
                                          f"{chosen[0][0]} #12: Welcome issue", "Thanks for subscribing!",
                                          "2024-01-08T07:00:00Z", read=True)  # fmt: skip
        return {"world": {"messages": messages}, "targets": targets, "label_name": rng.choice(LABEL_NAMES),
                "names": [c[0] for c in chosen], "addresses": [c[1] for c in chosen]}  # fmt: skip

    def words(self, P: dict) -> dict[str, str]:
        parts = [f"{n} ({a})" for n, a in zip(P["names"], P["addresses"], strict=True)]
        return {"label": P["label_name"], "newsletters": ", ".join(parts[:-1]) + " and " + parts[-1]}

    def context(self, P: dict) -> str:
        return (
            f"Mail (hub app `mail`). Seeded mailbox (its inbox includes The Weekly Brief newsletter e007, not a target) "
            f"plus generated messages {sorted(P['world']['messages'])}. Inbox messages from {P['addresses']}: "
            f"{P['targets']}; a personal email from a colleague at one of those domains and an archived old issue are "
            f"not targets. No label named {P['label_name']!r} exists. Expected: a label with that name (any id); each "
            f"target has it and folder 'archive'; every other message keeps folder and labels; none deleted."
        )
