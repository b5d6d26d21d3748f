"""VLC: rebuild a saved playlist (XSPF or M3U) in a new running order, two tracks added and one
dropped, saved over the old file (Media > Save Playlist to File). Data and wording:
playlist_update.yaml.

The setup writes the tracks (WAV tones) into ~/Music/<playlist>/, one more that the playlist never
lists, and the old playlist. The reward reads the playlist's entries as absolute paths (XSPF
locations or M3U lines, file:// URIs decoded): every asked track, nothing else, in the asked order;
the file keeps its format (a precondition: it holds initially)."""

from skills.kit.guest import HOME
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.vlc import playlist_entries, playlist_kind, write_m3u, write_tone_wav, write_xspf
from skills.vlc.families._gui import open_media, playlist_titles, save_playlist, show_playlist
from skills.vlc.world import TRACKS


def draw(rng, pools):
    names = rng.sample(TRACKS, 7)
    dropped, kept, added = names[0], names[1:4], names[4:6]
    old = [*kept, dropped]
    rng.shuffle(old)
    old_kept = [n for n in old if n != dropped]
    while True:
        order = [*kept, *added]
        rng.shuffle(order)
        if [n for n in order if n in kept] != old_kept:
            break
    return dict(
        playlist=rng.choice(pools["playlists"]),
        fmt=rng.choice(pools["formats"]),
        tracks=[{"name": n, "seconds": rng.randint(3, 9), "freq": 220 + 40 * i} for i, n in enumerate(names)],
        old=old,
        order=order,
        dropped=dropped,
    )


def track_path(P, name):
    return HOME / "Music" / P["playlist"] / f"{name}.wav"


def playlist_path(P):
    return HOME / "Music" / "Playlists" / f"{P['playlist']}.{P['fmt']}"


def write_playlist(P, names):
    seconds = {t["name"]: t["seconds"] for t in P["tracks"]}
    entries = [{"path": str(track_path(P, n)), "title": f"{n}.wav", "seconds": seconds[n]} for n in names]
    if P["fmt"] == "m3u":
        write_m3u(playlist_path(P), entries)
    else:
        write_xspf(playlist_path(P), entries)


def initial_setup(P):
    for track in P["tracks"]:
        write_tone_wav(track_path(P, track["name"]), track["seconds"], track["freq"])
    write_playlist(P, P["old"])


def solve(P, *, mistake=None):
    names = list(P["order"])
    if mistake == "old_order":
        names = [n for n in P["old"] if n != P["dropped"]] + [n for n in P["order"] if n not in P["old"]]
    elif mistake == "dropped_kept":
        names.append(P["dropped"])
    write_playlist(P, names)


def reward(P):
    path = playlist_path(P)
    want = [str(track_path(P, name)) for name in P["order"]]

    def entries():
        return playlist_entries(path)

    @precondition(f"the playlist is still {P['fmt'].upper()}")
    def same_format():
        return playlist_kind(path) == P["fmt"]

    @precondition(f"the tracks in ~/Music/{P['playlist']} are left alone")
    def tracks_kept():
        return all(track_path(P, track["name"]).is_file() for track in P["tracks"])

    @component("every track asked for is in the playlist", 0.35)
    def all_tracks():
        found = entries()
        return all(track in found for track in want)

    @component(f"nothing else is in the playlist ({P['dropped']} dropped, no track twice)", 0.15)
    def nothing_else():
        found = entries()
        return all(track in want for track in found) and len(found) == len(set(found))

    @component("the tracks play in the order asked", 0.5)
    def in_order():
        return [track for track in entries() if track in want] == want


def demonstrate(P, screen):
    """Open the tracks one after another (Media > Open File adds each to the end of the playlist),
    check the playlist view's order, then Media > Save Playlist to File over the old file (the typed
    suffix picks the format; confirm the replacement)."""
    for name in P["order"]:
        yield from open_media(screen, str(track_path(P, name)), f"{name}.wav")
    wanted = [f"{name}.wav" for name in P["order"]]
    yield from show_playlist(screen)
    screen.wait_until(
        lambda: playlist_titles(screen) == wanted, timeout_s=15, what=f"the playlist to read {wanted}"
    )
    yield from save_playlist(screen, str(playlist_path(P)), replace=True)
