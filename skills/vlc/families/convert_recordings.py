"""VLC: convert two WAV takes to MP3 (Media > Convert / Save, profile "Audio - MP3", destination by
Browse). Data and wording: convert_recordings.yaml.

The setup writes three takes of distinct lengths into ~/Recordings and the empty episode folder. The
reward reads each output's first bytes (MPEG audio frames, not the MP4 the dialog's default video
profile makes) and its length from its frames, which tells which take it was made from. The golden
patch writes silent MP3 frames of the right length (no encoder in a script)."""

import contextlib

from infra.errors import ConfigError
from skills.kit.guest import HOME
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.vlc import media_kind, mp3_seconds, write_silent_mp3, write_tone_wav
from skills.kit.teach import click, named
from skills.vlc.families._gui import add_to_open_list, choose, dialog, file_dialog_path, key, main_window

PROFILE = "Audio - MP3"


def draw(rng, pools):
    show, short = rng.choice(pools["shows"])
    episode = rng.randint(12, 48)
    numbers = sorted(rng.sample(range(10, 99), 3))
    lengths = rng.sample([4, 6, 8, 10], 3)
    takes = [
        {"file": f"REC_00{n}.wav", "seconds": s, "freq": 260 + 90 * i}
        for i, (n, s) in enumerate(zip(numbers, lengths, strict=True))
    ]
    picks = rng.sample(range(3), 2)
    parts = rng.choice(pools["parts"])
    return dict(
        show=show,
        episode=episode,
        takes=takes,
        picks=picks,
        outputs=[f"{short}-ep{episode}-{part}.mp3" for part in parts],
    )


def take_path(P, index):
    return HOME / "Recordings" / P["takes"][index]["file"]


def output_path(P, which):
    return HOME / "Podcast" / P["show"] / P["outputs"][which]


def initial_setup(P):
    for index, take in enumerate(P["takes"]):
        write_tone_wav(take_path(P, index), take["seconds"], take["freq"])
    (HOME / "Podcast" / P["show"]).mkdir(parents=True, exist_ok=True)


def solve(P, *, mistake=None):
    sources = list(P["picks"])
    if mistake == "swapped_takes":
        sources.reverse()
    for which, index in enumerate(sources):
        path = output_path(P, which)
        write_silent_mp3(path, P["takes"][index]["seconds"])
        if mistake == "default_profile" and which == 1:
            path.write_bytes(b"\0\0\0\x18ftypisom\0\0\x02\0isomiso2" + bytes(4000))


def reward(P):
    @precondition("the takes in ~/Recordings are left alone")
    def takes_kept():
        return all(take_path(P, index).is_file() for index in range(len(P["takes"])))

    for which, index in enumerate(P["picks"]):
        path, take = output_path(P, which), P["takes"][index]

        @component(f"{P['outputs'][which]} is an MP3 file", 0.25)
        def is_mp3(path=path):
            return media_kind(path) == "mp3"

        @component(f"{P['outputs'][which]} is {take['file']} ({take['seconds']} s long)", 0.25)
        def right_take(path=path, take=take):
            if media_kind(path) != "mp3":
                return False
            try:
                return abs(mp3_seconds(path) - take["seconds"]) <= 0.6  # an encoder's padding and delay
            except ValueError:
                return False


def demonstrate(P, screen):
    """Per take: Media > Convert / Save (Ctrl+R), Add... the take, Convert / Save; in the Convert
    dialog pick the "Audio - MP3" profile, Browse to the destination, Start, and wait for VLC to
    finish (its window title names the take while it converts)."""
    for which, index in enumerate(P["picks"]):
        take = P["takes"][index]["file"]
        main_window(screen)
        yield [key("ctrl", "r")]
        yield from add_to_open_list(screen, str(take_path(P, index)))
        yield [click(screen.find(named("push-button", "Convert / Save"), what="the Convert / Save button"))]
        box = dialog(screen, "Convert")
        label = screen.find(named("label", "Profile"), what="the Profile label")
        yield from choose(
            screen,
            lambda e, label=label, box=box: (
                e.role == "combo-box" and abs(e.y - label.y) < 6 and e.x > label.x
            ),
            PROFILE,
            what="the conversion profile",
        )
        yield [click(screen.find(named("push-button", "Browse"), what="the destination's Browse button"))]
        target = str(output_path(P, which))
        yield from file_dialog_path(screen, target, title="Save file...")
        screen.wait_until(
            lambda target=target: any(
                e.text == target
                for e in screen.elements(lambda e: e.role == "text" and e.name == "Destination file:")
            ),
            timeout_s=15,
            what=f"{target} as the destination",
        )
        yield [click(screen.find(named("push-button", "Start"), what="the Start button"))]
        screen.wait_until(
            lambda: not screen.has_window("Convert"), timeout_s=30, what="the Convert dialog to close"
        )
        with contextlib.suppress(ConfigError):  # a short take may be done before its title shows
            screen.wait_until(
                lambda take=take: screen.has_window(take), timeout_s=5, what=f"{take} to convert"
            )
        screen.wait_until(
            lambda take=take: not screen.has_window(take), timeout_s=120, what=f"{take} to be converted"
        )
