"""VLC: preferred audio and subtitle languages and the recordings folder (Preferences > Audio,
Subtitles / OSD, Input / Codecs). Data and wording: language_prefs.yaml.

The initial vlcrc holds one setting of the user's that must survive and maybe another preferred audio
language. The reward reads vlcrc's active lines after VLC exited; a language setting may list several
codes (comma separated): the first is the one VLC prefers."""

from skills.kit.guest import HOME
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.vlc import read_vlcrc, same_folder, vlc_setting, write_vlcrc
from skills.kit.teach import click, named
from skills.vlc.families._gui import fill, open_preferences, save_preferences
from skills.vlc.world import LANGUAGES


def draw(rng, pools):
    audio, subtitles = rng.sample(sorted(LANGUAGES), 2)
    return dict(
        audio=[audio, list(LANGUAGES[audio])],
        subtitles=[subtitles, list(LANGUAGES[subtitles])],
        folder=f"Videos/{audio} Practice",
        initial_audio=None if audio == "English" else rng.choice([None, "eng"]),
        keeper=rng.choice(pools["keepers"]),
    )


def initial_setup(P):
    (HOME / P["folder"]).mkdir(parents=True, exist_ok=True)
    values = {P["keeper"][0]: P["keeper"][1]}
    if P["initial_audio"]:
        values["audio-language"] = P["initial_audio"]
    write_vlcrc(values)


def solve(P, *, mistake=None):
    audio, subtitles = P["audio"][1][0], P["subtitles"][1][0]
    if mistake == "swapped":
        audio, subtitles = subtitles, audio
    folder = HOME / ("Videos" if mistake == "recordings_parent" else P["folder"])
    write_vlcrc({"audio-language": audio, "sub-language": subtitles, "input-record-path": str(folder)})


def first_language(value):
    """The language VLC tries first in a preference like "spa,eng" (lower case, spaces dropped)."""
    return str(value or "").split(",")[0].strip().lower()


def reward(P):
    def conf():
        return read_vlcrc()

    @precondition(f"the user's {P['keeper'][0]} setting is kept")
    def keeper_kept():
        return vlc_setting(conf(), P["keeper"][0], None) == P["keeper"][1]

    @component(f"{P['audio'][0]} is the preferred audio language", 0.3)
    def audio_language():
        return first_language(vlc_setting(conf(), "audio-language", "")) in P["audio"][1]

    @component(f"{P['subtitles'][0]} is the preferred subtitle language", 0.3)
    def subtitle_language():
        return first_language(vlc_setting(conf(), "sub-language", "")) in P["subtitles"][1]

    @component(f"recordings are saved into ~/{P['folder']}", 0.4)
    def record_folder():
        return same_folder(vlc_setting(conf(), "input-record-path", ""), HOME / P["folder"])


def demonstrate(P, screen):
    """Tools > Preferences: Audio (preferred audio language), Subtitles / OSD (preferred subtitle
    language), Input / Codecs (record directory), then Save."""
    yield from open_preferences(screen, "Audio")
    yield from fill(screen, "Preferred audio language:", P["audio"][1][0])
    yield [click(screen.find(named("check-box", "Subtitles / OSD"), what="the Subtitles / OSD page"))]
    yield from fill(screen, "Preferred subtitle language", P["subtitles"][1][0])
    yield [click(screen.find(named("check-box", "Input / Codecs"), what="the Input / Codecs page"))]
    yield from fill(screen, "Record directory or filename", str(HOME / P["folder"]))
    yield from save_preferences(screen)
