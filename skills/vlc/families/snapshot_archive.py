"""VLC + a terminal: move a course's old VLC snapshots out of ~/Pictures into a new folder and set
VLC's snapshot folder and prefix to it (Preferences > Video > Video snapshots). Data and wording:
snapshot_archive.yaml.

~/Pictures also holds pictures that are not VLC's and stay. The reward reads the folders and
vlcrc's active lines after VLC exited (a commented default never counts)."""

from skills.kit.guest import HOME
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.vlc import read_vlcrc, same_folder, vlc_setting, write_solid_png, write_vlcrc
from skills.vlc.families._gui import fill, focus_vlc, open_preferences, save_preferences, typed
from skills.vlc.world import SCENE_COLORS, course


def draw(rng, pools):
    name, short = course(rng)
    day = rng.randint(3, 25)
    snaps = []
    for _ in range(rng.randint(3, 5)):
        hour, minute, second, ms = (
            rng.randint(9, 17),
            rng.randint(0, 59),
            rng.randint(0, 59),
            rng.randint(100, 999),
        )
        snaps.append(f"vlcsnap-2026-11-{day:02d}-{hour:02d}h{minute:02d}m{second:02d}s{ms}.png")
    return dict(
        course=name,
        folder=f"Pictures/{name}/stills",
        prefix=f"{short}-",
        snaps=sorted(set(snaps)),
        sizes=[[192 + 8 * i, 144] for i in range(len(set(snaps)))],
        colors=rng.sample(SCENE_COLORS, 3),
        others=rng.sample(
            ["holiday-beach.png", "scan-receipt.png", "profile-photo.png", "whiteboard.png"], 2
        ),
        keeper=rng.choice(pools["keepers"]),
    )


def initial_setup(P):
    pictures = HOME / "Pictures"
    for i, name in enumerate(P["snaps"]):
        write_solid_png(pictures / name, P["sizes"][i], P["colors"][i % 3])
    for i, name in enumerate(P["others"]):
        write_solid_png(pictures / name, (120, 90 + 10 * i), [30 + 60 * i, 120, 200])
    write_vlcrc({P["keeper"][0]: P["keeper"][1]})


def solve(P, *, mistake=None):
    import shutil

    target = HOME / P["folder"]
    target.mkdir(parents=True, exist_ok=True)
    for name in P["snaps"]:
        source = HOME / "Pictures" / name
        if mistake == "copied":
            shutil.copy2(source, target / name)
        else:
            shutil.move(str(source), str(target / name))
    values = {"snapshot-path": str(target), "snapshot-prefix": P["prefix"]}
    if mistake == "prefix_missed":
        values["snapshot-prefix"] = None
    write_vlcrc(values)


def reward(P):
    target = HOME / P["folder"]

    def conf():
        return read_vlcrc()

    @precondition(f"the user's {P['keeper'][0]} setting is kept")
    def keeper_kept():
        return vlc_setting(conf(), P["keeper"][0], None) == P["keeper"][1]

    @precondition("the other pictures in ~/Pictures are left alone")
    def others_kept():
        return all((HOME / "Pictures" / name).is_file() for name in P["others"])

    def intact(path, size):
        """A PNG of the snapshot's size: the file as VLC wrote it, not re-encoded or resized."""
        import struct

        head = path.read_bytes()[:24] if path.is_file() else b""
        return head[:8] == b"\x89PNG\r\n\x1a\n" and list(struct.unpack(">II", head[16:24])) == size

    @component(f"the old snapshots are in ~/{P['folder']}, unchanged", 0.25)
    def moved_in():
        return all(intact(target / name, size) for name, size in zip(P["snaps"], P["sizes"], strict=True))

    @component("no snapshot is left in ~/Pictures (moved, not copied)", 0.1)
    def left_pictures():
        return not any((HOME / "Pictures" / name).exists() for name in P["snaps"])

    @component(f"VLC saves snapshots into ~/{P['folder']}", 0.35)
    def snapshot_folder():
        return same_folder(vlc_setting(conf(), "snapshot-path", ""), target)

    @component(f"snapshot file names start with {P['prefix']}", 0.3)
    def snapshot_prefix():
        return vlc_setting(conf(), "snapshot-prefix", "vlcsnap-") == P["prefix"]


def demonstrate(P, screen):
    """In the terminal (on top): make the folder and move the snapshots with one command. Then Alt+Tab
    to VLC: Tools > Preferences > Video, the snapshot Directory and Prefix, Save."""
    target = str(HOME / P["folder"])
    yield [
        {"action": "wait", "time": 1.0},
        typed(f"mkdir -p '{target}' && mv ~/Pictures/vlcsnap-*.png '{target}/'\n"),
        {"action": "wait", "time": 1.0},
    ]
    yield from focus_vlc(screen)
    yield from open_preferences(screen, "Video")
    yield from fill(screen, "Directory", target)
    yield from fill(screen, "Prefix", P["prefix"])
    yield from save_preferences(screen)
