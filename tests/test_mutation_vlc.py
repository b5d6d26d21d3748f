"""Mutation units of VLC's files, through the real sandbox as tests/test_mutation.py runs the other
handlers: vlcrc (tasks/mutation/guest/mutator/vlcrc.py) one unit per setting added, removed or
changed, a commented `#key=` line never a setting; playlists (tasks/mutation/guest/mutator/playlists.py)
one unit per entry added or removed and one for the order of the entries both states keep."""

from __future__ import annotations

from .test_mutation import by_what, inspect, mutate, pair

RC = ".config/vlc/vlcrc"

RC_SETUP = f"""
from pathlib import Path
def write(lines):
    path = Path("/home/user/{RC}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\\n".join(lines) + "\\n")
# --
write(["[qt] # Qt interface", "#qt-max-volume=125", "qt-bgcone=0", "", "[core] # core program",
       "#snapshot-format=png", "snapshot-path=/home/user/Old", "audio-language=eng"])
"""
# VLC's save: max volume set where its commented default was, the cone back to its default (commented),
# the snapshot folder changed, a new key added; audio-language kept
RC_PATCH = """
write(["[qt] # Qt interface", "qt-max-volume=200", "#qt-bgcone=1", "", "[core] # core program",
       "#snapshot-format=png", "snapshot-path=/home/user/Snaps", "audio-language=eng", "snapshot-sequential=1"])
"""
RC_FACTS = """
active = {}
for line in path.read_text().splitlines():
    if line.strip() and not line.startswith(("#", "[")) and "=" in line:
        key, value = line.split("=", 1)
        active[key] = value
return active
"""


def test_each_vlcrc_setting_is_a_unit(tmp_path, guest_python):
    initial, golden = pair(tmp_path, guest_python, RC_SETUP, RC_PATCH)
    plan, home = mutate(tmp_path, guest_python, initial, golden)
    assert sorted(u["what"].split(": ", 1)[1] for u in plan["units"]) == [
        "qt-bgcone removed",
        "qt-max-volume added",
        "snapshot-path changed",
        "snapshot-sequential added",
    ]
    found = inspect(guest_python, home, RC, RC_FACTS)
    golden_active = {
        "qt-max-volume": "200",
        "snapshot-path": "/home/user/Snaps",
        "audio-language": "eng",
        "snapshot-sequential": "1",
    }
    # drop: the golden file with one setting back as it was
    assert found[by_what(plan, "drop", "vlcrc.key", "qt-max-volume")] == {
        k: v for k, v in golden_active.items() if k != "qt-max-volume"
    }
    assert found[by_what(plan, "drop", "vlcrc.key", "qt-bgcone")] == {**golden_active, "qt-bgcone": "0"}
    assert found[by_what(plan, "drop", "vlcrc.key", "snapshot-path")]["snapshot-path"] == "/home/user/Old"
    # only: the initial file with one setting made
    initial_active = {"qt-bgcone": "0", "snapshot-path": "/home/user/Old", "audio-language": "eng"}
    assert found[by_what(plan, "only", "vlcrc.key", "snapshot-sequential")] == {
        **initial_active,
        "snapshot-sequential": "1",
    }
    assert found[by_what(plan, "only", "vlcrc.key", "qt-bgcone")] == {
        k: v for k, v in initial_active.items() if k != "qt-bgcone"
    }
    # corruption: the changed settings written commented out, the kept one still active
    corrupt = [m["id"] for m in plan["mutants"] if m["unit_kind"] == "corrupt.commented_out"]
    assert len(corrupt) == 1 and found[corrupt[0]] == {"audio-language": "eng"}


PL = "Music/party.xspf"

PL_SETUP = """
from pathlib import Path
from urllib.parse import quote
def write(names, rel, kind):
    path = Path("/home/user") / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "m3u":
        body = "#EXTM3U\\n" + "".join(f"#EXTINF:5,{n}\\n{n}.wav\\n" for n in names)
    else:
        tracks = "".join(
            f"<track><location>file://{quote(str(path.parent / (n + '.wav')))}</location><title>{n}</title></track>"
            for n in names
        )
        body = ('<?xml version="1.0" encoding="UTF-8"?>\\n<playlist xmlns="http://xspf.org/ns/0/" version="1">'
                f"<trackList>{tracks}</trackList></playlist>\\n")
    path.write_text(body)
# --
write(["Blue Hour", "Late Train", "Night Drive", "Slow Tide"], REL, KIND)
"""
PL_FACTS = """
from urllib.parse import unquote
import os
text = path.read_text()
if text.startswith("<?xml"):
    import xml.etree.ElementTree as ET
    root = ET.fromstring(text.encode())
    refs = [unquote(n.text).rsplit("/", 1)[1] for n in root.iter() if n.tag.endswith("location")]
    return ["xspf"] + [os.path.splitext(r)[0] for r in refs]
return ["m3u"] + [os.path.splitext(line)[0] for line in text.splitlines() if line and not line.startswith("#")]
"""


def playlist_pair(tmp_path, guest_python, rel, kind, golden_names):
    setup = PL_SETUP.replace("REL", repr(rel)).replace("KIND", repr(kind))
    return pair(tmp_path, guest_python, setup, f"write({golden_names!r}, {rel!r}, {kind!r})\n")


def test_playlist_entries_and_order_are_units(tmp_path, guest_python):
    # one removed, one added, the kept ones reordered; a removed entry comes back at its initial index
    golden_names = ["Night Drive", "Blue Hour", "Copper Sky"]
    golden_names.insert(1, "Late Train")  # Night Drive, Late Train, Blue Hour, Copper Sky (Slow Tide dropped)
    initial, golden = playlist_pair(tmp_path, guest_python, PL, "xspf", golden_names)
    plan, home = mutate(tmp_path, guest_python, initial, golden)
    assert sorted(u["what"].split(": ", 1)[1] for u in plan["units"]) == [
        "entries reordered",
        "entry /home/user/Music/Copper Sky.wav added",
        "entry /home/user/Music/Slow Tide.wav removed",
    ]
    found = inspect(guest_python, home, PL, PL_FACTS)
    assert found[by_what(plan, "drop", "playlist.order")] == [
        "xspf", "Blue Hour", "Late Train", "Night Drive", "Copper Sky"
    ]  # fmt: skip
    assert found[by_what(plan, "drop", "playlist.entry", "Copper Sky")] == [
        "xspf", "Night Drive", "Late Train", "Blue Hour"
    ]  # fmt: skip
    assert found[by_what(plan, "drop", "playlist.entry", "Slow Tide")] == [
        "xspf", "Night Drive", "Late Train", "Blue Hour", "Slow Tide", "Copper Sky"
    ]  # fmt: skip
    assert found[by_what(plan, "only", "playlist.order")] == [
        "xspf", "Night Drive", "Late Train", "Blue Hour", "Slow Tide"
    ]  # fmt: skip
    corrupt = [m["id"] for m in plan["mutants"] if m["unit_kind"] == "corrupt.wrong_format"]
    assert len(corrupt) == 1 and found[corrupt[0]][0] == "m3u"


def test_m3u_relative_entries_are_resolved(tmp_path, guest_python):
    rel = "Music/run.m3u"
    initial, golden = playlist_pair(
        tmp_path, guest_python, rel, "m3u", ["Slow Tide", "Blue Hour", "Late Train"]
    )
    plan, home = mutate(tmp_path, guest_python, initial, golden)
    assert sorted(u["what"].split(": ", 1)[1] for u in plan["units"]) == [
        "entries reordered",
        "entry /home/user/Music/Night Drive.wav removed",
    ]
    found = inspect(guest_python, home, rel, PL_FACTS)
    assert found[by_what(plan, "drop", "playlist.entry", "Night Drive")] == [
        "m3u", "Slow Tide", "Blue Hour", "Night Drive", "Late Train"
    ]  # fmt: skip
    corrupt = [m["id"] for m in plan["mutants"] if m["unit_kind"] == "corrupt.wrong_format"]
    assert len(corrupt) == 1 and found[corrupt[0]][0] == "xspf"
