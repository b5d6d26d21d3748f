"""Cross-app (Files -> Calc): inventory the files of a folder into a new spreadsheet: name, type,
exact size in bytes, sorted by name, with a total. The folder has a subfolder whose files must not
be listed. Six independently scored parts; the folder itself must stay untouched. Data and wording:
folder_inventory.yaml."""

from skills.kit.guest import HOME
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.sheets import close_to, new_table, open_book, save_book, total_shown


def draw(rng, pools):
    stem = rng.choice(sorted(pools["folders"]))
    pool = pools["folders"][stem]
    names = rng.sample(pool, rng.randint(6, len(pool)))
    files = {name: rng.randint(180, 48000) for name in names}
    rest = [n for n in pool if n not in names] or ["old_draft.txt"]
    subfolder = rng.choice(["archive", "old", "drafts", "superseded"])
    nested = {f"v1_{n}": rng.randint(100, 9000) for n in rng.sample(rest, min(2, len(rest)))}
    year = rng.randint(2021, 2025)
    return {
        "folder": f"{rng.choice(['Documents', 'Desktop'])}/{stem}_{year}",
        "subfolder": subfolder,
        "files": files,
        "nested": nested,
        "xlsx": f"Desktop/{stem}_{year}_inventory.xlsx",
    }


def initial_setup(P):
    folder = HOME / P["folder"]
    (folder / P["subfolder"]).mkdir(parents=True, exist_ok=True)
    nested = {f"{P['subfolder']}/{name}": size for name, size in P["nested"].items()}
    for name, size in {**P["files"], **nested}.items():
        seed = sum(map(ord, name))
        (folder / name).write_bytes(bytes((seed + i * 7) % 251 for i in range(size)))  # exactly `size` bytes


def solve(P, *, mistake=None):
    sizes = {**P["files"], **(P["nested"] if mistake == "subfolder_included" else {})}
    rows = []
    for name in sorted(sizes, key=str.casefold):
        size = round(sizes[name] / 1024, 1) if mistake == "kib_sizes" else sizes[name]
        rows.append([name, name.rsplit(".", 1)[1].lower(), size])
    rows.append(["Total", None, f"=SUM(C2:C{len(rows) + 1})"])
    save_book(new_table("Inventory", ["File name", "Type", "Size (bytes)"], rows), P["xlsx"])


def reward(P):
    import functools
    import re

    expected = {name.casefold(): (name, size) for name, size in P["files"].items()}
    book = functools.cache(lambda: open_book(HOME / P["xlsx"]))

    def sheet():
        return book()["f"].worksheets[0]

    def listed():
        """(row, name as typed) for every non-empty A cell below the header, until the Total row."""
        rows = []
        for row in range(2, sheet().max_row + 1):
            value = sheet().cell(row=row, column=1).value
            text = str(value).strip() if value is not None else ""
            if text.casefold() == "total":
                break
            if text:
                rows.append((row, text))
        return rows

    @precondition("the folder's files, its subfolder's too, are all still there, unchanged in size")
    def folder_intact():
        # the subfolder's files are not listed, but deleting them is not part of the task either
        folder = HOME / P["folder"]
        nested = {f"{P['subfolder']}/{n}": s for n, s in P["nested"].items()}
        files = {**P["files"], **nested}
        return all((folder / n).is_file() and (folder / n).stat().st_size == s for n, s in files.items())

    @component("row 1 holds the headers File name, Type, Size (bytes)", 0.1)
    def headers():
        cells = [str(sheet().cell(row=1, column=c).value or "").strip().casefold() for c in (1, 2, 3)]
        return sum(a == b for a, b in zip(cells, ["file name", "type", "size (bytes)"], strict=True)) / 3

    @component("exactly the folder's top-level files are listed", 0.3)
    def files_listed():
        names = [text.casefold() for _, text in listed()]
        return len(set(names) & set(expected)) / max(len(names), len(expected))

    @component("each file's size is its exact byte count", 0.25)
    def sizes():
        known = [(row, expected[text.casefold()][1]) for row, text in listed() if text.casefold() in expected]
        hits = sum(close_to(sheet().cell(row=row, column=3).value, size, tol=0) for row, size in known)
        return hits / len(expected)

    @component("each file's type is its lower-case extension", 0.1)
    def types():
        hits = 0
        for row, text in listed():
            if text.casefold() in expected:
                want = expected[text.casefold()][0].rsplit(".", 1)[1].lower()
                hits += str(sheet().cell(row=row, column=2).value or "").strip().lstrip(".").lower() == want
        return hits / len(expected)

    @component("the rows are sorted by file name A to Z", 0.1)
    def sorted_by_name():
        names = [text.casefold() for _, text in listed() if text.casefold() in expected]
        # Calc's collator may rank "_" and "." differently from code points: accept either reading
        loose = [re.sub(r"[^0-9a-z]", "", n) for n in names]
        return len(names) >= 2 and (names == sorted(names) or loose == sorted(loose))

    @component("a Total row right under the list sums the sizes with a formula", 0.15)
    def total_row():
        rows = [row for row, _ in listed()]
        total_at = (rows[-1] if rows else 1) + 1
        if str(sheet().cell(row=total_at, column=1).value or "").strip().casefold() != "total":
            return False
        return total_shown(book(), sheet().title, total_at, 3, rows, sum(P["files"].values()))
