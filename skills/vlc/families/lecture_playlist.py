"""VLC + a terminal: move a course's lecture recordings from ~/Downloads into their own folder, then
save a VLC playlist of them in week order. Data and wording: lecture_playlist.yaml.

The weeks run past 9 and are not zero-padded, so file-name order (week10 before week2) is not week
order. ~/Downloads also holds another course's recordings and a notes file that stay. The reward
reads the folders and the playlist's entries as absolute paths (file:// URIs decoded)."""

from skills.kit.guest import HOME
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.vlc import (
    playlist_entries,
    playlist_kind,
    wav_seconds,
    write_m3u,
    write_tone_wav,
    write_xspf,
)
from skills.vlc.families._gui import (
    focus_vlc,
    open_media,
    playlist_titles,
    save_playlist,
    show_playlist,
    typed,
)
from skills.vlc.world import COURSES


def draw(rng, pools):
    (course, short), (_, other) = rng.sample(COURSES, 2)
    weeks = sorted(rng.sample(range(1, 14), 4))
    while not any(w >= 10 for w in weeks) or not any(w < 10 for w in weeks):
        weeks = sorted(rng.sample(range(1, 14), 4))
    other_weeks = sorted(rng.sample(range(1, 14), 2))
    others = [f"{other}-week{w}.wav" for w in other_weeks] + [f"{short}-reading-list.txt"]
    return dict(
        course=course,
        short=short,
        fmt=rng.choice(pools["formats"]),
        weeks=weeks,
        seconds={str(w): rng.randint(3, 8) for w in weeks},
        others=others,
    )


def recording(P, week):
    return f"{P['short']}-week{week}.wav"


def folder(P):
    return HOME / "Music" / P["course"]


def playlist_path(P):
    return folder(P) / f"{P['short']}-lectures.{P['fmt']}"


def initial_setup(P):
    downloads = HOME / "Downloads"
    for i, week in enumerate(P["weeks"]):
        write_tone_wav(downloads / recording(P, week), P["seconds"][str(week)], 300 + 50 * i)
    for i, name in enumerate(P["others"]):
        if name.endswith(".wav"):
            write_tone_wav(downloads / name, 3 + i, 500 + 50 * i)
        else:
            (downloads / name).write_text("Week 1: chapter 1\nWeek 2: chapter 2-3\n", encoding="utf-8")


def solve(P, *, mistake=None):
    import shutil

    folder(P).mkdir(parents=True, exist_ok=True)
    for week in P["weeks"]:
        source = HOME / "Downloads" / recording(P, week)
        if mistake == "copied":
            shutil.copy2(source, folder(P) / recording(P, week))
        else:
            shutil.move(str(source), str(folder(P) / recording(P, week)))
    weeks = sorted(P["weeks"], key=lambda w: recording(P, w)) if mistake == "name_order" else P["weeks"]
    entries = [
        {"path": str(folder(P) / recording(P, w)), "title": recording(P, w), "seconds": P["seconds"][str(w)]}
        for w in weeks
    ]
    if P["fmt"] == "m3u":
        write_m3u(playlist_path(P), entries)
    else:
        write_xspf(playlist_path(P), entries)


def reward(P):
    import wave

    path = playlist_path(P)
    moved = [str(folder(P) / recording(P, week)) for week in P["weeks"]]

    def entries():
        return playlist_entries(path)

    @precondition("the other files in ~/Downloads are left alone")
    def others_kept():
        return all((HOME / "Downloads" / name).is_file() for name in P["others"])

    def intact(path, seconds):
        """The recording itself: a WAV as long as the one the setup wrote."""
        try:
            return abs(wav_seconds(path) - seconds) < 0.01
        except (OSError, EOFError, wave.Error):
            return False

    @component(f"the {P['course']} recordings are in ~/Music/{P['course']}", 0.2)
    def in_folder():
        return all(intact(folder(P) / recording(P, week), P["seconds"][str(week)]) for week in P["weeks"])

    @component("the recordings are no longer in ~/Downloads (moved, not copied)", 0.1)
    def left_downloads():
        return not any((HOME / "Downloads" / recording(P, week)).exists() for week in P["weeks"])

    @component(f"the playlist is {P['fmt'].upper()}", 0.1)
    def playlist_format():
        return playlist_kind(path) == P["fmt"]

    @component("the playlist lists exactly the moved recordings", 0.25)
    def playlist_files():
        found = entries()
        return sorted(found) == sorted(moved)

    @component("the playlist plays them in week order", 0.35)
    def week_order():
        return [entry for entry in entries() if entry in moved] == moved


def demonstrate(P, screen):
    """In the terminal (on top): make the folder and move the recordings with one command. Then
    Alt+Tab to VLC, open the moved recordings week by week (each goes to the end of the playlist),
    check the playlist view, and save it (the typed suffix picks the format)."""
    target = str(folder(P))
    names = " ".join(f"'{recording(P, week)}'" for week in P["weeks"])
    yield [
        {"action": "wait", "time": 1.0},
        typed(f"mkdir -p '{target}' && cd ~/Downloads && mv {names} '{target}/' && cd\n"),
        {"action": "wait", "time": 1.0},
    ]
    yield from focus_vlc(screen)
    for week in P["weeks"]:
        yield from open_media(screen, f"{target}/{recording(P, week)}", recording(P, week))
    wanted = [recording(P, week) for week in P["weeks"]]
    yield from show_playlist(screen)
    screen.wait_until(
        lambda: playlist_titles(screen) == wanted, timeout_s=15, what=f"the playlist to read {wanted}"
    )
    yield from save_playlist(screen, str(playlist_path(P)))
