"""Guest helpers shared by the VS Code families: the renderer ships each one a script reaches.

VS Code reads settings.json, keybindings.json and *.code-workspace as JSONC: `//` and `/* */` comments
and trailing commas are legal, so a reward that calls json.loads on them directly crashes on the
files real users keep. Every function here is self-contained (imports inside the body) because
render_script pastes its source at module level of a generated script.
"""

from __future__ import annotations


def parse_jsonc(text):
    """Parse JSONC text: comments and trailing commas are dropped outside strings; empty text is None.

    >>> parse_jsonc('{"a": 1, // note\\n "b": [1, 2,], /* x */}')
    {'a': 1, 'b': [1, 2]}
    """
    import json

    text = text.lstrip("\ufeff")
    out = []
    i, n = 0, len(text)
    in_string = False
    while i < n:
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
                continue
            in_string = c != '"'
            i += 1
        elif c == '"':
            in_string = True
            out.append(c)
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise ValueError("unterminated /* comment")
            out.append(" ")
            i = end + 2
        else:
            out.append(c)
            i += 1
    stripped = "".join(out)
    kept = []
    in_string = False
    escaped = False
    for j, c in enumerate(stripped):
        if in_string:
            in_string = escaped or c != '"'
            escaped = not escaped and c == "\\"
        elif c == '"':
            in_string = True
        elif c == ",":
            rest = stripped[j + 1 :].lstrip()
            if rest[:1] in ("}", "]"):
                continue  # a trailing comma: VS Code accepts it, json.loads does not
        kept.append(c)
    cleaned = "".join(kept)
    if not cleaned.strip():
        return None
    return json.loads(cleaned)


def load_jsonc(path):
    """The parsed content of a JSONC file (None when the file is empty)."""
    from pathlib import Path

    return parse_jsonc(Path(path).read_text(encoding="utf-8"))


def same_value(a, b):
    """JSON equality that keeps true apart from 1 (Python's True == 1 would let a wrong type pass)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    return type(a) is type(b) and a == b


def norm_key(key):
    """A keybinding `key` in canonical form: chords kept in order, modifiers sorted, lower case.

    >>> norm_key("Shift+Ctrl+K  ctrl+C") == norm_key("ctrl+shift+k ctrl+c")
    True
    """
    chords = []
    for chord in str(key).lower().split():
        parts = chord.split("+")
        mods = sorted(p for p in parts[:-1] if p)
        chords.append("+".join([*mods, parts[-1]]))
    return " ".join(chords)


def norm_when(clause):
    """A when clause without spaces or quotes, so `a && b == 'x'` equals `a&&b == x`."""
    return "".join(ch for ch in str(clause or "") if ch not in " \t\n'\"")


def contains_value(actual, expected):
    """`actual` holds `expected`: objects may carry extra keys (VS Code merges them), others are equal."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and contains_value(actual[k], v) for k, v in expected.items()
        )
    return same_value(actual, expected)


def render_jsonc(entries, header):
    """Settings text as people keep it: a header comment, `// why` comments, a trailing comma.

    `entries` is a list of [key, value, comment-or-None]; the result parses with parse_jsonc.
    """
    import json

    lines = [f"/* {header} */", "{"]
    for key, value, comment in entries:
        if comment:
            lines.append(f"    // {comment}")
        body = json.dumps(value, indent=4).replace("\n", "\n    ")
        lines.append(f"    {json.dumps(key)}: {body},")
    lines.append("}")
    return "\n".join(lines) + "\n"


def seed_jsonc(path, entries, header):
    """Create the file at `path` (and its folders) holding render_jsonc(entries, header)."""
    from pathlib import Path

    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(render_jsonc(entries, header), encoding="utf-8")


def write_jsonc(path, data, note):
    """Write `data` back with 4-space indentation (as VS Code does) under a `// note` line."""
    import json
    from pathlib import Path

    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(f"// {note}\n" + json.dumps(data, indent=4) + "\n", encoding="utf-8")
