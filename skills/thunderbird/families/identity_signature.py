"""Thunderbird: bring an identity up to date: organization, signature text, replies above the
quote and the signature on forwards. Data and wording: identity_signature.yaml.

Account Settings (a tab) writes the identity's prefs (mail.identity.id1.*) as the user leaves a
page; Thunderbird writes prefs.js on exit, which the reward reads."""

from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.thunderbird import tb_folders_intact, tb_read_prefs, tb_set_prefs, tb_write_profile
from skills.kit.teach import click
from skills.thunderbird.families._gui import MAIN, named_item, open_account_settings
from skills.thunderbird.world import account, account_of


def draw(rng, pools):
    me = account(rng, set())
    old_role, role = rng.sample(pools["roles"], 2)
    phone = f"+1 555 {rng.randint(100, 999)} {rng.randint(1000, 9999)}"
    return dict(
        account=account_of(me),
        org=me["org"],
        role=role,
        old_signature=[me["first"], old_role],
        signature=[me["name"], role, me["org"], phone],
    )


def initial_setup(P):
    tb_write_profile(P["account"], {"mail.identity.id1.htmlSigText": "\n".join(P["old_signature"])})


def solve(P, *, mistake=None):
    lines = P["signature"][:-1] if mistake == "signature_short" else P["signature"]
    tb_set_prefs(
        {
            "mail.identity.id1.organization": P["org"],
            "mail.identity.id1.htmlSigText": "\n".join(lines),
            "mail.identity.id1.reply_on_top": None if mistake == "reply_below" else 1,
            "mail.identity.id1.sig_on_fwd": True,
        }
    )


def signature_lines(text):
    """The signature's non-blank lines, trailing spaces dropped (Thunderbird keeps what was typed)."""
    return [line.rstrip() for line in str(text or "").replace("\r\n", "\n").split("\n") if line.strip()]


def reward(P):
    def pref(name, default=None):
        return tb_read_prefs().get("mail.identity.id1." + name, default)

    @precondition("the identity's name and address are unchanged")
    def identity_kept():
        return pref("fullName") == P["account"]["name"] and pref("useremail") == P["account"]["email"]

    @precondition("the account's and Local Folders' standard folders are all still there")
    def folders_intact():
        return tb_folders_intact(P["account"])

    @component(f"the organization is {P['org']!r}", 0.2)
    def organization():
        return str(pref("organization", "")).strip() == P["org"]

    @component("the signature is the new one, line by line", 0.35)
    def signature():
        found = signature_lines(pref("htmlSigText", ""))
        if found == P["signature"]:
            return True
        return 0.5 * sum(1 for line in P["signature"] if line in found) / len(P["signature"])

    @component("replies start above the quote", 0.25)
    def reply_on_top():
        return pref("reply_on_top", 0) == 1

    @component("the signature is included in forwards", 0.2)
    def signature_on_forwards():
        return pref("sig_on_fwd", False) is True


def demonstrate(P, screen):
    """Account Settings of the account: Organization and Signature text (select all, type), then
    Composition & Addressing: "When quoting" > start my reply above the quote, tick "Include
    signature for forwards", and close the tab (the settings are saved as the page is left)."""
    yield from open_account_settings(screen, P["account"]["email"])
    org = named_item(screen, "entry", "Organization:")
    yield [click(org), {"action": "key", "keys": ["ctrl", "a"]}, {"action": "type", "text": P["org"]}]
    screen.find(
        lambda e: e.role == "entry" and e.name == "Organization:" and e.text == P["org"], what="the org"
    )
    sig = named_item(screen, "entry", "Signature text:")
    typed = "\n".join(P["signature"])
    yield [click(sig), {"action": "key", "keys": ["ctrl", "a"]}, {"action": "type", "text": typed}]
    screen.find(
        lambda e: e.role == "entry" and e.name == "Signature text:" and e.text.strip() == typed,
        what="the typed signature",
    )
    yield [click(named_item(screen, "tree-item", "Composition & Addressing"))]
    yield [click(named_item(screen, "combo-box", "When quoting,"))]
    yield [click(named_item(screen, "menu-item", "start my reply above the quote"))]
    yield [click(named_item(screen, "check-box", "Include signature for forwards"))]
    yield [{"action": "key", "keys": ["ctrl", "w"]}]
    screen.wait_until(
        lambda: not screen.has_window("Account Settings"), what="the Account Settings tab to close"
    )
    screen.wait_until(lambda: screen.has_window(MAIN), what="the main window")
