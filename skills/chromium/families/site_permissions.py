"""Chromium: block one site's notifications and allow another site a permission. Data and wording:
site_permissions.yaml.

Per-site permissions are content-settings exceptions in Preferences
(profile.content_settings.exceptions.<kind>), keyed by a site pattern: "https://host:443,*" from a
site's own Site settings page, "https://host,*" or "host,*" from the Add dialogs of a permission's
page. The noisy site starts allowed to send notifications, another site's notifications must stay
allowed; the second site's permission starts blocked or unset. The reward reads Preferences after the
browser exited and asks which exception applies to each site (site_setting)."""

from infra.errors import ConfigError
from skills.chromium.families._gui import choose, open_page, open_settings
from skills.chromium.world import sites
from skills.kit.guest.chromium import chromium_profile, read_preferences, site_setting, write_preferences
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import click, named


def draw(rng, pools):
    noisy, needy, kept = sites(rng, 3)
    for one in (noisy, needy, kept):
        one["origin"] = one["url"].rstrip("/")
    return dict(
        noisy=noisy, needy=needy, kept=kept, kind=rng.choice(pools["kinds"]), needy_blocked=rng.random() < 0.5
    )


def exceptions(kind, settings):
    """Preferences holding these exceptions of one kind: {origin: setting}, keyed as a site's page keys them."""
    keyed = {f"{origin}:443,*": {"setting": setting} for origin, setting in settings.items()}
    return {"profile": {"content_settings": {"exceptions": {kind: keyed}}}}


def initial_setup(P):
    write_preferences(exceptions("notifications", {P["noisy"]["origin"]: 1, P["kept"]["origin"]: 1}))
    if P["needy_blocked"]:
        write_preferences(exceptions(P["kind"][0], {P["needy"]["origin"]: 2}))


def solve(P, *, mistake=None):
    import json

    if mistake == "removed_not_blocked":
        prefs = read_preferences()
        del prefs["profile"]["content_settings"]["exceptions"]["notifications"][
            f"{P['noisy']['origin']}:443,*"
        ]
        (chromium_profile() / "Preferences").write_text(json.dumps(prefs, indent=2), encoding="utf-8")
    else:
        write_preferences(exceptions("notifications", {P["noisy"]["origin"]: 2}))
    kind = "notifications" if mistake == "wrong_permission" else P["kind"][0]
    write_preferences(exceptions(kind, {P["needy"]["origin"]: 1}))


def reward(P):
    noisy, needy, kept, kind = P["noisy"]["origin"], P["needy"]["origin"], P["kept"]["origin"], P["kind"][0]

    @precondition(f"{kept} may still send notifications")
    def kept_allowed():
        return site_setting(read_preferences(), "notifications", kept) == 1

    @component(f"{noisy} is blocked from sending notifications", 0.5)
    def noisy_blocked():
        return site_setting(read_preferences(), "notifications", noisy) == 2

    @component(f"{needy} is allowed to {P['kind'][2]}", 0.5)
    def needy_allowed():
        return site_setting(read_preferences(), kind, needy) == 1


def demonstrate(P, screen):
    """Settings > Privacy and security > Site settings > Notifications: the noisy site's row in the
    allowed list, More options > Block. Then the second site's own Site settings page
    (chrome://settings/content/siteDetails?site=...), its permission's drop-down set to Allow."""
    noisy, needy = P["noisy"]["origin"], P["needy"]["origin"]
    yield from open_settings(screen, "content/notifications", "Notifications")
    more = screen.find(named("push-button", f"More options for {noisy}:443"), what=f"the menu of {noisy}")
    yield [click(more)]
    yield [click(screen.find(lambda e: e.role == "menu-item" and e.name.strip() == "Block", what="Block"))]
    screen.find(
        lambda e: e.role == "table-row" and e.name.startswith(f"{noisy}:443 Not allowed"),
        what=f"{noisy} in the blocked list",
    )
    host = needy.split("://", 1)[1]
    for attempt in range(3):  # a long URL typed on a busy desktop may lose a key (and become a search)
        yield from open_page(screen, f"chrome://settings/content/siteDetails?site=https%3A%2F%2F{host}", "")
        try:
            screen.find(named("heading", host), what=f"the Site settings of {host}", timeout_s=20)
            break
        except ConfigError:
            if attempt == 2:
                raise
    yield from choose(screen, P["kind"][1], "Allow")
