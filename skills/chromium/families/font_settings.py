"""Chromium: font size, minimum font size and fixed-width font. Data and wording: font_settings.yaml.

Settings > Appearance > Font size stores webkit.webprefs.default_font_size and keeps
default_fixed_font_size 3 below it; Customize fonts (chrome://settings/fonts) has the Minimum font
size slider (minimum_font_size) and the Fixed-width font drop-down (fonts.fixed.Zyyy, the family for
every script). The reward reads Preferences after the browser exited."""

from skills.chromium.families._gui import choose, open_settings
from skills.kit.guest.chromium import pref, read_preferences, write_preferences
from skills.kit.guest.rewardkit import component
from skills.kit.teach import click, named


def draw(rng, pools):
    sizes = pools["sizes"]
    initial_size = rng.choice(sizes[:3])
    size = rng.choice([s for s in sizes if s[1] > initial_size[1] and s[1] >= 16])
    minimum = rng.choice([m for m in pools["minimums"] if m <= size[1] - 4])
    initial_fixed, fixed = rng.sample(pools["fixed_fonts"], 2)
    return dict(
        size=size,
        minimum=minimum,
        fixed=fixed,
        initial_size=initial_size,
        initial_minimum=rng.choice([0, 6]),
        initial_fixed=initial_fixed,
    )


def fonts(size, minimum, fixed):
    return {
        "webkit": {
            "webprefs": {
                "default_font_size": size,
                "default_fixed_font_size": size - 3,
                "minimum_font_size": minimum,
                "fonts": {"fixed": {"Zyyy": fixed}},
            }
        }
    }


def initial_setup(P):
    write_preferences(fonts(P["initial_size"][1], P["initial_minimum"], P["initial_fixed"]))


def solve(P, *, mistake=None):
    size, minimum = P["size"][1], P["minimum"]
    if mistake == "size_slider":
        size, minimum = P["minimum"], P["initial_minimum"]
    if mistake == "minimum_forgotten":
        minimum = P["initial_minimum"]
    write_preferences(fonts(size, minimum, P["fixed"]))


def reward(P):
    def web(key, default):
        return pref(read_preferences(), f"webkit.webprefs.{key}", default)

    size = P["size"][1]

    @component(f"the font size is {size} (fixed-width {size - 3})", 0.35)
    def font_size():
        return web("default_font_size", 16) == size and web("default_fixed_font_size", 13) == size - 3

    @component(f"the minimum font size is {P['minimum']}", 0.35)
    def minimum_size():
        return web("minimum_font_size", 0) == P["minimum"]

    @component(f"the fixed-width font is {P['fixed']}", 0.3)
    def fixed_font():
        return web("fonts", {}).get("fixed", {}).get("Zyyy") == P["fixed"]


def demonstrate(P, screen):
    """Appearance's Font size drop-down, then Customize fonts: the Minimum font size slider moved with
    the keyboard (Home, then Right one stop at a time until its label reads the size) and the
    Fixed-width font drop-down."""
    yield from open_settings(screen, "appearance", "Appearance")
    yield from choose(screen, "Font size", P["size"][0])
    yield from open_settings(screen, "fonts", "Customize fonts")
    slider = screen.find(named("slider", "Minimum font size"), what="the Minimum font size slider")

    def label():
        """The number the page shows under the slider (its sample text "N: The quick brown fox...",
        right-aligned under it, so its left end moves with the size): the minimum font size now."""
        below = [
            e
            for e in screen.elements(lambda e: e.role == "static" and e.name.isdigit())
            if slider.y + slider.h <= e.y <= slider.y + slider.h + 60 and e.x < slider.x + slider.w
        ]
        return int(below[0].name) if below else None

    # A click puts the slider where it lands; Home moves it to its first stop (no minimum), then each Right
    # to the next stop: wait for the label to follow every key, so that no stop is skipped or read stale.
    yield [click(slider)]
    yield [{"action": "key", "keys": ["Home"]}]
    screen.wait_until(lambda: (label() or 0) < 6, timeout_s=10, what="the slider at its first stop")
    for _ in range(16):
        now = label()
        if now == P["minimum"]:
            break
        yield [{"action": "key", "keys": ["Right"]}]
        screen.wait_until(lambda now=now: label() != now, timeout_s=10, what="the slider's next stop")
    screen.wait_until(
        lambda: label() == P["minimum"], timeout_s=5, what=f"the minimum font size {P['minimum']}"
    )
    yield from choose(screen, "Fixed-width font", P["fixed"])
