"""VLC: change three of the playlist's general options (All > Playlist: one instance, enqueueing,
repeat, random, start paused, autostart, play and exit, hidden files). Data and wording:
playlist_behaviour.yaml.

The initial vlcrc holds one setting of the user's that must survive; the playlist options are at
their defaults, and each asked value differs from its default. The reward reads vlcrc's active lines
after VLC exited; a commented default never counts."""

from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.vlc import read_vlcrc, vlc_setting, write_vlcrc
from skills.kit.teach import click, named
from skills.vlc.families._gui import advanced_panel, open_preferences, reveal, save_preferences

DEFAULTS = {
    "one-instance": "0",
    "playlist-enqueue": "0",
    "loop": "0",
    "random": "0",
    "start-paused": "0",
    "playlist-autostart": "1",
    "play-and-exit": "0",
    "show-hiddenfiles": "0",
}


def draw(rng, pools):
    switches = rng.sample(pools["switches"], 3)
    return dict(
        switches=switches,
        defaults={s[0]: DEFAULTS[s[0]] for s in switches},
        keeper=rng.choice(pools["keepers"]),
    )


def initial_setup(P):
    write_vlcrc({P["keeper"][0]: P["keeper"][1]})


def solve(P, *, mistake=None):
    values = {switch[0]: switch[1] for switch in P["switches"]}
    if mistake == "last_missed":
        values[P["switches"][2][0]] = None
    if mistake == "first_missed":
        values[P["switches"][0][0]] = None
    write_vlcrc(values)


def reward(P):
    def conf():
        return read_vlcrc()

    @precondition(f"the user's {P['keeper'][0]} setting is kept")
    def keeper_kept():
        return vlc_setting(conf(), P["keeper"][0], None) == P["keeper"][1]

    for (name, value, _, meaning), weight in zip(P["switches"], (0.35, 0.35, 0.3), strict=True):

        @component(f"VLC is set to {meaning} ({name}={value})", weight)
        def switch(name=name, value=value):
            return vlc_setting(conf(), name, P["defaults"][name]) == value


def demonstrate(P, screen):
    """Tools > Preferences > All: filter the tree with "playlist", open the top-level Playlist node
    (the Demuxers' Playlist module is named the same), tick or untick the three check boxes (scrolling
    the panel to each), Save."""
    yield from open_preferences(screen)
    yield from advanced_panel(screen, "playlist", "Playlist")
    screen.wait_until(
        lambda: len(screen.elements(named("table-cell", "Playlist"))) >= 2,
        timeout_s=10,
        what="both Playlist nodes",
    )
    top = min(screen.elements(named("table-cell", "Playlist")), key=lambda e: e.x)
    yield [click(top)]
    screen.find(named("label", "General playlist behaviour"), what="the Playlist panel")
    for _, _, label, _ in P["switches"]:
        box = yield from reveal(screen, named("check-box", label), what=repr(label))
        yield [click(box)]
    yield from save_preferences(screen)
