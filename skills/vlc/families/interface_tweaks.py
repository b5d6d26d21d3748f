"""VLC: raise the maximum volume and change two Qt interface settings (the advanced preferences'
Qt module, as OSWorld's VLC tasks do: the cone, the minimal view, the volume limit, ...). Data and
wording: interface_tweaks.yaml.

The initial vlcrc holds one setting of the user's that must survive and the Qt settings at their
defaults. The reward reads vlcrc's active lines after VLC exited; a commented default never counts."""

from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.vlc import read_vlcrc, vlc_setting, write_vlcrc
from skills.kit.teach import click, named
from skills.vlc.families._gui import (
    advanced_panel,
    choose,
    key,
    open_preferences,
    reveal,
    save_preferences,
    typed,
)
from skills.vlc.world import DEFAULTS

VOLUME_LABEL = "Maximum Volume displayed"


def draw(rng, pools):
    switches = []
    for switch in rng.sample(pools["switches"], len(pools["switches"])):
        if switch[0] not in [s[0] for s in switches]:
            switches.append(switch)
    return dict(
        volume=rng.choice(pools["volumes"]),
        switches=switches[:2],
        defaults={s[0]: DEFAULTS[s[0]] for s in switches[:2]},
        keeper=rng.choice(pools["keepers"]),
    )


def initial_setup(P):
    write_vlcrc({P["keeper"][0]: P["keeper"][1]})


def solve(P, *, mistake=None):
    values = {switch[0]: switch[1] for switch in P["switches"]}
    if mistake == "last_missed":
        values[P["switches"][1][0]] = None
    values["qt-max-volume"] = None if mistake == "volume_default" else str(P["volume"])
    write_vlcrc(values, section="qt")


def reward(P):
    def conf():
        return read_vlcrc()

    @precondition(f"the user's {P['keeper'][0]} setting is kept")
    def keeper_kept():
        return vlc_setting(conf(), P["keeper"][0], None) == P["keeper"][1]

    @component(f"the volume slider goes up to {P['volume']}%", 0.4)
    def max_volume():
        return vlc_setting(conf(), "qt-max-volume", "125") == str(P["volume"])

    for name, value, _, meaning in P["switches"]:

        @component(f"VLC is set to {meaning} ({name}={value})", 0.3)
        def switch(name=name, value=value):
            return vlc_setting(conf(), name, P["defaults"][name]) == value


def demonstrate(P, screen):
    """Tools > Preferences > All: filter the tree with "qt", open Interface > Main interfaces > Qt,
    set the maximum volume spin box and the two settings (scrolling the panel to each), Save."""
    yield from open_preferences(screen)
    yield from advanced_panel(screen, "qt", "Qt")
    spin = yield from reveal(screen, named("spin-button", VOLUME_LABEL), what="the maximum volume")
    yield [
        {"action": "triple_click", "coordinate": list(spin.center)},
        key("ctrl", "a"),
        typed(str(P["volume"])),
    ]
    screen.wait_until(
        lambda: (
            screen.find(named("spin-button", VOLUME_LABEL), what="the maximum volume").text
            == str(P["volume"])
        ),
        timeout_s=10,
        what=f"the maximum volume to read {P['volume']}",
    )
    for name, _, widget, _ in P["switches"]:
        if name == "qt-continue":
            label = yield from reveal(screen, named("label", "Continue playback?"), what="Continue playback?")
            yield from choose(
                screen,
                lambda e, label=label: e.role == "combo-box" and abs(e.y - label.y) < 6 and e.x > label.x,
                widget,
                what="the Continue playback? choice",
            )
        else:
            box = yield from reveal(screen, named("check-box", widget), what=repr(widget))
            yield [click(box)]
    yield from save_preferences(screen)
