"""Thunderbird: add two contacts (name, email, phone, organization) to the Personal Address Book
and a mailing list of them and a contact already there. Data and wording: contact_list.yaml.

The book is abook.sqlite (Thunderbird's schema 4: each card's vCard in properties, lists and
list_cards for mailing lists), read after Thunderbird exited (it leaves a WAL beside it)."""

from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.thunderbird import tb_folders_intact, tb_write_profile
from skills.kit.guest.thunderbird_contacts import (
    tb_add_contact,
    tb_add_list,
    tb_read_address_book,
    tb_write_address_book,
)
from skills.kit.teach import click
from skills.thunderbird.families._gui import named_item, open_address_book
from skills.thunderbird.world import account, account_of, correspondents


def uid(rng):
    """A card or list uid as Thunderbird makes them (a random UUID)."""
    h = f"{rng.getrandbits(128):032x}"
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-8{h[17:20]}-{h[20:]}"


def draw(rng, pools):
    used = set()
    me = account(rng, used)
    people = correspondents(rng, me, 5, used)

    def card(person, phone):
        item = {
            "uid": uid(rng),
            "first": person["first"],
            "last": person["last"],
            "display": person["name"],
            "email": person["email"],
            "org": person["org"],
        }
        if phone:
            item["phone"] = f"+1 555 {rng.randint(100, 999)} {rng.randint(1000, 9999)}"
        return item

    existing = [card(p, rng.random() < 0.5) for p in people[:3]]
    new = [card(p, True) for p in people[3:]]
    return dict(
        account=account_of(me),
        existing=existing,
        new=new,
        member=rng.randrange(3),
        list_name=rng.choice(pools["lists"]),
        list_uid=uid(rng),
    )


def initial_setup(P):
    tb_write_profile(P["account"])
    tb_write_address_book(P["existing"])


def solve(P, *, mistake=None):
    for person in P["new"]:
        if mistake == "no_details":
            person = {k: v for k, v in person.items() if k not in ("phone", "org")}
        tb_add_contact(person)
    members = [p["uid"] for p in P["new"]]
    if mistake != "list_short":
        members.append(P["existing"][P["member"]]["uid"])
    tb_add_list({"uid": P["list_uid"], "name": P["list_name"], "members": members})


def digits(text):
    return "".join(ch for ch in str(text) if ch.isdigit())


def reward(P):
    def book():
        contacts, lists = tb_read_address_book()
        return contacts, lists

    def cards_with(email, contacts):
        return [c for c in contacts.values() if email.lower() in c["emails"]]

    @precondition("the contacts already in the address book are still there")
    def existing_kept():
        contacts, _ = book()
        return all(cards_with(p["email"], contacts) for p in P["existing"])

    @precondition("the account's and Local Folders' standard folders are all still there")
    def folders_intact():
        return tb_folders_intact(P["account"])

    for person in P["new"]:

        @component(f"a contact {person['display']} <{person['email']}> exists", 0.2)
        def contact_added(person=person):
            contacts, _ = book()
            return any(
                c["first"].strip() == person["first"] and c["last"].strip() == person["last"]
                for c in cards_with(person["email"], contacts)
            )

        @component(
            f"{person['display']}'s phone is {person['phone']} and organization {person['org']!r}", 0.1
        )
        def contact_details(person=person):
            contacts, _ = book()
            return any(
                digits(person["phone"]) in [digits(x) for x in c["phones"]]
                and c["org"].strip() == person["org"]
                for c in cards_with(person["email"], contacts)
            )

    members = [p["email"].lower() for p in P["new"]] + [P["existing"][P["member"]]["email"].lower()]

    def the_list():
        contacts, lists = book()
        found = [item for item in lists if item["name"].strip() == P["list_name"]]
        if not found:
            return None
        return {e for card in found[0]["members"] if card in contacts for e in contacts[card]["emails"]}

    @component(f"a mailing list {P['list_name']!r} exists", 0.15)
    def list_exists():
        return the_list() is not None

    @component(f"the list holds {', '.join(members)}", 0.25)
    def list_members():
        emails = the_list()
        if emails is None:
            return False
        return sum(1 for e in members if e in emails) / len(members)


def demonstrate(P, screen):
    """Address Book tab: New Contact (first and last name, email, Add phone number, Add
    organizational properties, Save) for each new person; then Create a new mailing list: its name,
    the three addresses (each accepted from the autocomplete with Enter), OK."""
    yield from open_address_book(screen)
    for person in P["new"]:
        yield [click(named_item(screen, "push-button", "New Contact"))]
        named_item(screen, "heading", "New Contact", "the new contact form")
        fields = [("First name", person["first"]), ("Last name", person["last"])]
        fields.append(("Email address", person["email"]))
        for label, value in fields:
            yield [click(named_item(screen, "entry", label)), {"action": "type", "text": value}]
        yield [click(named_item(screen, "push-button", "Add phone number"))]
        yield [
            click(named_item(screen, "entry", "Phone number")),
            {"action": "type", "text": person["phone"]},
        ]
        yield [click(named_item(screen, "push-button", "Add organizational properties"))]
        yield [click(named_item(screen, "entry", "Organization")), {"action": "type", "text": person["org"]}]
        screen.find(
            lambda e, org=person["org"]: e.role == "entry" and e.name == "Organization" and e.text == org,
            what="the org",
        )
        yield [click(named_item(screen, "push-button", "Save"))]
        named_item(screen, "table-row", person["display"], f"{person['display']} in the contact list")
    yield [click(named_item(screen, "push-button", "Create a new mailing list"))]
    yield [click(named_item(screen, "entry", "List Name:")), {"action": "type", "text": P["list_name"]}]
    members = [p["email"] for p in P["new"]] + [P["existing"][P["member"]]["email"]]
    prompt = "Type email addresses to add them to the mailing list:"
    yield [click(named_item(screen, "entry", prompt))]
    for n, email in enumerate(members):
        yield [{"action": "type", "text": email}]
        screen.find(
            lambda e, email=email: e.role == "entry" and e.text.startswith(email + " >> "), what="a match"
        )
        yield [{"action": "key", "keys": ["Return"]}]
        screen.wait_until(
            lambda n=n: len(screen.elements(lambda e: e.role == "entry" and e.text.endswith(">"))) > n,
            what=f"{email} accepted",
        )
    yield [click(named_item(screen, "push-button", "OK"))]
    screen.find(lambda e: e.role == "tree-item" and e.name == P["list_name"], what="the new list")
