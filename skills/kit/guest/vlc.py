"""Guest helpers of the VLC families: the media a task's setup generates, the preferences file VLC
reads when it starts and writes when Preferences are saved (and on exit), and the playlists it saves.

- ~/.config/vlc/vlcrc: `key=value` lines under `[module]` section headers. VLC writes every option,
  the ones at their default commented out (`#key=default`): a commented line is never a setting.
  Keys are unique across sections, so a reader may ignore the sections. A setup may write a file
  with only the keys it sets (VLC fills in the rest when it next saves).
- Playlists: XSPF (XML, `<track><location>file:///…</location>…`) or M3U (`#EXTM3U`, then per
  entry an `#EXTINF:<seconds>,<title>` line and the path or URL; VLC 3 writes file:// URIs).
- Media: WAV tones (the `wave` module) and MJPEG AVI videos (frames drawn with Pillow, the RIFF
  container written with `struct`): small files VLC plays, converts and snapshots without codecs
  the scripts would need.

Every function is self-contained (imports inside the body): render_script pastes its source.
"""

from __future__ import annotations

from skills.kit.guest import HOME, Path


def vlcrc_path():
    """VLC's preferences file in the guest home."""
    return HOME / ".config" / "vlc" / "vlcrc"


def parse_vlcrc(text):
    """{key: value} of the active (uncommented) `key=value` lines of a vlcrc text; sections ignored."""
    found = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";", "[")) or "=" not in line:
            continue
        key, value = line.split("=", 1)
        found[key.strip()] = value.strip()
    return found


def read_vlcrc():
    """The active settings of ~/.config/vlc/vlcrc as {key: value} (FileNotFoundError without one)."""
    return parse_vlcrc(vlcrc_path().read_text(encoding="utf-8", errors="replace").lstrip("\ufeff"))


def vlc_setting(conf, key, default):
    """A setting's value as VLC sees it: the active line's value, else the option's default (VLC
    comments out every option at its default when it saves)."""
    return conf.get(key, default)


def same_folder(value, expected):
    """Whether a folder setting as VLC stores it (as typed: maybe with ~ or a trailing slash) names
    the folder `expected`."""
    import os

    text = str(value or "").strip()
    if text.startswith("~"):
        text = str(HOME) + text[1:]
    return bool(text) and os.path.normpath(text) == os.path.normpath(str(expected))


def write_vlcrc(values, section="core"):
    """Set `values` ({key: value}) in ~/.config/vlc/vlcrc, creating it (and its folder) when missing:
    a key's active or commented line is replaced in place, a new key goes under `[section]` (added at
    the end when absent). A value of None comments the key out (back to its default)."""
    path = vlcrc_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    pending = dict(values)
    out = []
    for raw in lines:
        body = raw.lstrip("#").strip()
        key = body.split("=", 1)[0].strip() if "=" in body and not body.startswith("[") else None
        if key in pending:
            value = pending.pop(key)
            if value is None:
                out.append(raw if raw.startswith("#") else f"#{raw}")
            else:
                out.append(f"{key}={value}")
            continue
        out.append(raw)
    pending = {k: v for k, v in pending.items() if v is not None}
    if pending:
        header = f"[{section}]"
        new = [f"{k}={v}" for k, v in pending.items()]
        if header in out:
            at = out.index(header) + 1
            out[at:at] = new
        else:
            out += ([""] if out else []) + [header, *new]
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def write_tone_wav(path, seconds, freq=440.0, rate=8000, volume=0.4):
    """A mono 16-bit PCM WAV of a sine tone lasting `seconds` at `freq` Hz (folders created)."""
    import math
    import struct
    import wave

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    count = int(round(seconds * rate))
    amplitude = int(32767 * volume)
    samples = struct.pack(
        f"<{count}h", *(int(amplitude * math.sin(2 * math.pi * freq * i / rate)) for i in range(count))
    )
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(samples)


def wav_seconds(path):
    """The duration of a PCM WAV file in seconds."""
    import wave

    with wave.open(str(path), "rb") as source:
        return source.getnframes() / float(source.getframerate())


def scene_frame(scene, size):
    """The picture of one scene of a generated video: a Pillow RGB image of `size` (w, h) filled with
    the scene's colour, a white band whose place depends on the scene's index, and its label."""
    from PIL import Image, ImageDraw

    width, height = size
    image = Image.new("RGB", (width, height), tuple(scene["color"]))
    draw = ImageDraw.Draw(image)
    band = width // 6
    # the band's place tells scenes apart, and never sits in the middle (a mirrored frame differs)
    left = [8, 40, 124, 150, 60, 104, 24, 140][scene["index"] % 8] * width // 192
    draw.rectangle([left, 0, left + band - 1, height - 1], fill=(255, 255, 255))
    draw.rectangle([0, height - height // 5, width - 1, height - 1], fill=(0, 0, 0))
    draw.text((6, height - height // 5 + 2), scene["label"], fill=(255, 255, 0))
    return image


def write_mjpeg_avi(path, frames, fps):
    """An AVI file (RIFF, one MJPEG video stream, an idx1 index) of `frames` (Pillow images of one
    size) at `fps` frames per second (folders created)."""
    import io
    import struct

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    width, height = frames[0].size
    jpegs = []
    for frame in frames:
        buffer = io.BytesIO()
        frame.convert("RGB").save(buffer, "JPEG", quality=90)
        jpegs.append(buffer.getvalue())

    def chunk(fourcc, data):
        return fourcc + struct.pack("<I", len(data)) + data + (b"\0" if len(data) % 2 else b"")

    def riff_list(kind, fourcc, data):
        return kind + struct.pack("<I", len(data) + 4) + fourcc + data

    biggest = max(len(j) for j in jpegs)
    avih = struct.pack(
        "<14I", 1000000 // fps, biggest * fps, 0, 0x10, len(jpegs), 0, 1, biggest, width, height, 0, 0, 0, 0
    )
    strh = struct.pack(
        "<4s4sIHHIIIIIIIIhhhh",
        b"vids",
        b"MJPG",
        0,
        0,
        0,
        0,
        1,
        fps,
        0,
        len(jpegs),
        biggest,
        0xFFFFFFFF,
        0,
        0,
        0,
        width,
        height,
    )
    strf = struct.pack("<IiiHH4sIiiII", 40, width, height, 1, 24, b"MJPG", width * height * 3, 0, 0, 0, 0)
    header = riff_list(
        b"LIST",
        b"hdrl",
        chunk(b"avih", avih) + riff_list(b"LIST", b"strl", chunk(b"strh", strh) + chunk(b"strf", strf)),
    )
    movi, index, offset = b"", b"", 4
    for jpeg in jpegs:
        piece = chunk(b"00dc", jpeg)
        index += struct.pack("<4sIII", b"00dc", 0x10, offset, len(jpeg))
        movi += piece
        offset += len(piece)
    body = header + riff_list(b"LIST", b"movi", movi) + chunk(b"idx1", index)
    path.write_bytes(b"RIFF" + struct.pack("<I", len(body) + 4) + b"AVI " + body)


def write_scene_video(path, scenes, size=(192, 144), fps=5):
    """An MJPEG AVI of `scenes` (dicts: index, color [r, g, b], label, seconds) played one after
    another, each a still picture (scene_frame) for its seconds."""
    frames = []
    for scene in scenes:
        picture = scene_frame(scene, size)
        frames += [picture] * int(round(scene["seconds"] * fps))
    write_mjpeg_avi(path, frames, fps)


def media_kind(path):
    """What a media file is by its first bytes: "ogg", "flac", "mp3", "wav", "mp4", "avi", "webm" (EBML),
    "asf", "ts", or None."""
    head = Path(path).read_bytes()[:64]
    if head.startswith(b"OggS"):
        return "ogg"
    if head.startswith(b"fLaC"):
        return "flac"
    if head.startswith(b"RIFF") and head[8:12] == b"WAVE":
        return "wav"
    if head.startswith(b"RIFF") and head[8:12] == b"AVI ":
        return "avi"
    if head[4:8] == b"ftyp":
        return "mp4"
    if head.startswith(b"\x1a\x45\xdf\xa3"):
        return "webm"
    if head.startswith(b"\x30\x26\xb2\x75"):
        return "asf"
    if head.startswith(b"ID3") or (len(head) > 1 and head[0] == 0xFF and head[1] & 0xE0 == 0xE0):
        return "mp3"
    if head[:1] == b"\x47" and len(head) > 1:
        return "ts"
    return None


def ogg_vorbis_seconds(path):
    """The duration of an Ogg Vorbis file: the last page's granule position over the sample rate of
    the identification header. ValueError when the file is not Ogg Vorbis."""
    import struct

    data = Path(path).read_bytes()
    if not data.startswith(b"OggS"):
        raise ValueError("not an Ogg file")
    first = data.find(b"\x01vorbis")
    if first < 0:
        raise ValueError("no Vorbis stream")
    rate = struct.unpack("<I", data[first + 12 : first + 16])[0]
    granule, at = -1, 0
    while True:
        at = data.find(b"OggS", at)
        if at < 0 or at + 14 > len(data):
            break
        value = struct.unpack("<q", data[at + 6 : at + 14])[0]
        if value >= 0:
            granule = value
        at += 4
    if rate <= 0 or granule < 0:
        raise ValueError("no granule position")
    return granule / float(rate)


def flac_seconds(path):
    """The duration of a FLAC file: STREAMINFO's total samples, or (when an encoder left it 0, as VLC
    does) the last frame header's position plus its block size. ValueError when not FLAC."""
    import struct

    data = Path(path).read_bytes()
    if not data.startswith(b"fLaC"):
        raise ValueError("not a FLAC file")
    info = data[8:42]
    min_block = struct.unpack(">H", info[0:2])[0]
    packed = int.from_bytes(info[10:18], "big")
    rate = packed >> 44
    total = packed & ((1 << 36) - 1)
    if total and rate:
        return total / float(rate)

    def crc8(chunk):
        crc = 0
        for byte in chunk:
            crc ^= byte
            for _ in range(8):
                crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
        return crc

    last, at = None, data.find(b"\xff\xf8", 42)
    while 0 <= at < len(data) - 16:
        header = data[at : at + 16]
        block_code, variable = header[2] >> 4, header[1] & 1
        # the UTF-8-like coded frame (or sample) number
        lead, extra = header[4], 0
        while extra < 7 and lead & (0x80 >> extra):
            extra += 1
        if extra == 1 or block_code == 0:
            at = data.find(b"\xff\xf8", at + 1)
            continue
        count = max(extra - 1, 0)
        number = lead & (0x7F >> extra) if extra else lead
        for byte in header[5 : 5 + count]:
            number = (number << 6) | (byte & 0x3F)
        end = 5 + count
        if block_code == 6:
            block, end = header[end] + 1, end + 1
        elif block_code == 7:
            block, end = struct.unpack(">H", header[end : end + 2])[0] + 1, end + 2
        elif block_code == 1:
            block = 192
        elif block_code <= 5:
            block = 576 << (block_code - 2)
        else:
            block = 256 << (block_code - 8)
        rate_code = header[2] & 0x0F
        end += 1 if rate_code == 12 else 2 if rate_code in (13, 14) else 0
        if crc8(header[:end]) == header[end]:
            last = number + block if variable else number * min_block + block
        at = data.find(b"\xff\xf8", at + 2)
    if last is None or not rate:
        raise ValueError("no FLAC frame")
    return last / float(rate)


def mp3_seconds(path):
    """The duration of an MP3 file: its MPEG audio frames counted from the first one (an ID3v2 tag
    skipped), each 1152 samples (576 for MPEG-2/2.5 layer III). ValueError when none is found."""
    data = Path(path).read_bytes()
    at = 0
    if data.startswith(b"ID3") and len(data) > 10:
        at = 10 + ((data[6] & 0x7F) << 21 | (data[7] & 0x7F) << 14 | (data[8] & 0x7F) << 7 | (data[9] & 0x7F))
    rates = {3: (44100, 48000, 32000), 2: (22050, 24000, 16000), 0: (11025, 12000, 8000)}
    bitrates_v1 = (0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320)
    bitrates_v2 = (0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160)
    samples, rate, frames = 0, None, 0
    while at + 4 <= len(data):
        b1, b2 = data[at + 1], data[at + 2]
        version, layer = (b1 >> 3) & 3, (b1 >> 1) & 3
        bitrate_index, rate_index = b2 >> 4, (b2 >> 2) & 3
        if data[at] != 0xFF or b1 & 0xE0 != 0xE0 or version == 1 or layer != 1:
            if frames:
                break
            at += 1
            continue
        if bitrate_index in (0, 15) or rate_index == 3:
            at += 1
            continue
        this_rate = rates[version][rate_index]
        bitrate = (bitrates_v1 if version == 3 else bitrates_v2)[bitrate_index] * 1000
        per_frame = 1152 if version == 3 else 576
        size = per_frame // 8 * bitrate // this_rate + ((b2 >> 1) & 1)
        rate = rate or this_rate
        samples += per_frame
        frames += 1
        at += size
    if not frames:
        raise ValueError("no MPEG audio frame")
    return samples / float(rate)


def audio_seconds(path, kind):
    """The duration of an audio file of `kind` ("ogg", "flac", "mp3", "wav") in seconds."""
    if kind == "ogg":
        return ogg_vorbis_seconds(path)
    if kind == "flac":
        return flac_seconds(path)
    if kind == "mp3":
        return mp3_seconds(path)
    return wav_seconds(path)


def write_m3u(path, entries):
    """An extended M3U playlist of `entries` ({"path": absolute path, "title", "seconds"}) as VLC 3 saves
    one: `#EXTM3U`, then per entry `#EXTINF:<seconds>,<title>` and its percent-encoded file:// URI."""
    from urllib.parse import quote

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ["#EXTM3U"]
    for entry in entries:
        lines.append(f"#EXTINF:{int(round(entry['seconds']))},{entry['title']}")
        lines.append("file://" + quote(str(entry["path"])))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_xspf(path, entries, title="Playlist"):
    """An XSPF playlist of `entries` ({"path": absolute path, "title", "seconds"}) with file:// URIs."""
    from urllib.parse import quote
    from xml.sax.saxutils import escape

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tracks = "".join(
        "\t\t<track>\n"
        f"\t\t\t<location>file://{quote(str(entry['path']))}</location>\n"
        f"\t\t\t<title>{escape(entry['title'])}</title>\n"
        f"\t\t\t<duration>{int(round(entry['seconds'] * 1000))}</duration>\n"
        "\t\t</track>\n"
        for entry in entries
    )
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<playlist xmlns="http://xspf.org/ns/0/" version="1">\n'
        f"\t<title>{escape(title)}</title>\n\t<trackList>\n{tracks}\t</trackList>\n</playlist>\n",
        encoding="utf-8",
    )


def playlist_kind(path):
    """ "xspf" or "m3u" by the playlist's content (not its name), or None for anything else."""
    text = Path(path).read_text(encoding="utf-8", errors="replace").lstrip("\ufeff").lstrip()
    if text.startswith("<?xml") or text.startswith("<playlist"):
        return "xspf" if "<trackList" in text or "<playlist" in text else None
    if text.startswith("#EXTM3U") or (text and not text.startswith("<")):
        return "m3u"
    return None


def playlist_entries(path):
    """The media of a playlist, in order, as absolute paths (file:// URIs decoded; an M3U's relative
    paths resolved against its folder, percent-escapes decoded as VLC writes them). XSPF or M3U by
    content. Raises FileNotFoundError when missing, ParseError for broken XSPF."""
    import os
    import xml.etree.ElementTree as ET
    from urllib.parse import unquote, urlparse

    path = Path(path)
    kind = playlist_kind(path)

    def absolute(reference):
        reference = reference.strip()
        if reference.startswith("file://"):
            return os.path.normpath(unquote(urlparse(reference).path))
        if "://" in reference:
            return reference
        local = unquote(reference)
        return os.path.normpath(local if local.startswith("/") else str(path.parent / local))

    if kind == "xspf":
        root = ET.fromstring(path.read_bytes())
        return [
            absolute(node.text or "")
            for node in root.iter()
            if node.tag.rsplit("}", 1)[-1] == "location" and (node.text or "").strip()
        ]
    if kind == "m3u":
        lines = path.read_text(encoding="utf-8", errors="replace").lstrip("\ufeff").splitlines()
        return [absolute(line) for line in lines if line.strip() and not line.strip().startswith("#")]
    return []


def write_silent_mp3(path, seconds):
    """An MP3 file of `seconds` of silence: MPEG-1 layer III frames (44.1 kHz, 128 kbit/s, mono) whose
    side information and main data are zero — what `mp3_seconds` measures, no encoder needed."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    frame = bytes([0xFF, 0xFB, 0x90, 0xC0]) + bytes(417 - 4)
    path.write_bytes(frame * int(round(seconds * 44100 / 1152)))


def write_solid_png(path, size, color):
    """A PNG of `size` (w, h) filled with `color` (r, g, b), written with zlib and struct only (what a
    VLC snapshot of a still scene looks like; folders created)."""
    import struct
    import zlib

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    width, height = size

    def chunk(kind, data):
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    row = b"\0" + bytes(color) * width
    body = zlib.compress(row * height)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")
    )
