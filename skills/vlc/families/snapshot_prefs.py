"""VLC: set the video snapshot preferences (folder, format, prefix, sequential numbering). Data and
wording: snapshot_prefs.yaml.

The initial vlcrc holds a setting of the user's that must survive (the keeper), maybe a stale snapshot
folder and a non-default format; the task sets Tools > Preferences > Video > Video snapshots. The
reward reads vlcrc's active lines after VLC exited (a commented `#key=` line is a default, never a
setting)."""

from skills.kit.guest import HOME
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.vlc import read_vlcrc, same_folder, vlc_setting, write_vlcrc
from skills.kit.teach import click, named
from skills.vlc.families._gui import choose, fill, open_preferences, save_preferences
from skills.vlc.world import course


def draw(rng, pools):
    name, short = course(rng)
    initial_fmt = rng.choice(pools["formats"])
    fmt = rng.choice([f for f in pools["formats"] if f != initial_fmt])
    stale = rng.choice([None, "/home/user/Pictures/Old Snapshots", "/home/user/Videos/snaps"])
    return dict(
        course=name,
        folder=f"Pictures/{name} Stills",
        prefix=f"{short}-",
        fmt=fmt,
        initial_fmt=initial_fmt,
        stale=stale,
        keeper=rng.choice(pools["keepers"]),
    )


def initial_setup(P):
    (HOME / P["folder"]).mkdir(parents=True, exist_ok=True)
    values = {P["keeper"][0]: P["keeper"][1]}
    if P["stale"]:
        values["snapshot-path"] = P["stale"]
    if P["initial_fmt"] != "png":
        values["snapshot-format"] = P["initial_fmt"]
    write_vlcrc(values)


def solve(P, *, mistake=None):
    write_vlcrc(
        {
            "snapshot-path": str(HOME / P["folder"]),
            "snapshot-format": P["initial_fmt"] if mistake == "format_unchanged" else P["fmt"],
            "snapshot-prefix": P["prefix"],
            "snapshot-sequential": None if mistake == "no_numbering" else "1",
        }
    )


def reward(P):
    def conf():
        return read_vlcrc()

    @precondition(f"the user's {P['keeper'][0]} setting is kept")
    def keeper_kept():
        return vlc_setting(conf(), P["keeper"][0], None) == P["keeper"][1]

    @component(f"snapshots are saved into ~/{P['folder']}", 0.35)
    def folder():
        return same_folder(vlc_setting(conf(), "snapshot-path", ""), HOME / P["folder"])

    @component(f"the snapshot format is {P['fmt']}", 0.25)
    def snapshot_format():
        return vlc_setting(conf(), "snapshot-format", "png").lower() == P["fmt"]

    @component(f"snapshot file names start with {P['prefix']}", 0.25)
    def prefix():
        return vlc_setting(conf(), "snapshot-prefix", "vlcsnap-") == P["prefix"]

    @component("snapshots are numbered sequentially", 0.15)
    def sequential():
        return vlc_setting(conf(), "snapshot-sequential", "0") == "1"


def demonstrate(P, screen):
    """Tools > Preferences > Video: the Video snapshots box (directory, prefix, sequential numbering,
    format), then Save."""
    yield from open_preferences(screen, "Video")
    yield from fill(screen, "Directory", str(HOME / P["folder"]))
    yield from fill(screen, "Prefix", P["prefix"])
    yield [click(screen.find(named("check-box", "Sequential numbering"), what="Sequential numbering"))]
    yield from choose(
        screen,
        lambda e: e.role == "combo-box" and e.name in ("png", "jpg", "tiff"),
        P["fmt"],
        what="the snapshot format",
    )
    yield from save_preferences(screen)
