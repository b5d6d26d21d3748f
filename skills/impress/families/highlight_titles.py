"""Impress: recolour and resize the delayed projects' slide titles. Data and wording: highlight_titles.yaml.

Which slides those are is read from each slide's "Status:" bullet ("At risk" is the near-synonym)."""

from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.slides import add_slide, new_deck, norm, open_deck, save_deck, slide_texts, title_shape


def draw(rng, pools):
    names = rng.sample(pools["projects"], rng.randint(5, 8))
    delayed = rng.sample(range(len(names)), rng.randint(2, 3))
    others = [i for i in range(len(names)) if i not in delayed]
    statuses = ["Delayed" if i in delayed else rng.choice(pools["statuses"][:2]) for i in range(len(names))]
    statuses[rng.choice(others)] = "At risk"  # a near-synonym to tell apart
    colour = rng.choice(sorted(pools["colours"]))
    month = rng.choice(["March", "June", "September", "December"])
    deck = f"Portfolio status, {month} {rng.randint(2024, 2026)}"
    projects = []
    for name, status in zip(names, statuses, strict=True):
        owner = rng.choice(pools["owners"])
        milestone = f"{rng.choice(pools['milestones'])} in week {rng.randint(2, 50)}"
        projects.append({"name": name, "status": status, "owner": owner, "milestone": milestone})
    return {
        "deck": deck,
        "subtitle": "Programme management office",
        "path": f"Desktop/portfolio_status_{month.lower()}.pptx",
        "projects": projects,
        "colour": colour,
        "rgb": pools["colours"][colour],
        "size_pt": rng.choice([28, 32, 36, 40]),
    }


def lines_of(p):
    return [f"Owner: {p['owner']}", f"Status: {p['status']}", f"Next milestone: {p['milestone']}"]


def initial_setup(P):
    prs = new_deck()
    add_slide(prs, 0, P["deck"], [P["subtitle"]])
    for p in P["projects"]:
        add_slide(prs, 1, p["name"], lines_of(p))
    save_deck(prs, P["path"])


def solve(P, *, mistake=None):
    from pptx.dml.color import RGBColor
    from pptx.util import Pt

    prs = open_deck(P["path"])
    names = [p["name"] for p in P["projects"] if p["status"] == "Delayed"]
    names = names[:1] if mistake == "first_only" else names
    for shape in [title_shape(slide) for slide in prs.slides]:
        if shape is not None and norm(shape.text_frame.text) in names:
            for run in (run for paragraph in shape.text_frame.paragraphs for run in paragraph.runs):
                run.font.color.rgb = RGBColor.from_string(P["rgb"])
                run.font.size = Pt(P["size_pt"] - 8 if mistake == "wrong_size" else P["size_pt"])
    save_deck(prs, P["path"])


def reward(P):
    from functools import cache

    from pptx.enum.dml import MSO_COLOR_TYPE

    @cache
    def titles():
        """Title text -> (size_pt, "RRGGBB") of each non-blank run of that title. A run's own a:rPr wins;
        else the title shape's own list style (formatting applied to the whole box) counts; inheritance
        from layout or master is not the task's change."""
        found = {}
        for shape in [s for s in map(title_shape, open_deck(P["path"]).slides) if s is not None]:
            box = shape._element.xpath("./p:txBody/a:lstStyle/a:lvl1pPr/a:defRPr")
            box_size = box[0].get("sz") if box else None
            box_rgb = box[0].xpath("./a:solidFill/a:srgbClr/@val") if box else []
            runs = found[norm(shape.text_frame.text)] = []
            for run in (
                r for paragraph in shape.text_frame.paragraphs for r in paragraph.runs if r.text.strip()
            ):
                size = run.font.size.pt if run.font.size is not None else None
                size = int(box_size) / 100 if size is None and box_size is not None else size
                rgb = str(run.font.color.rgb) if run.font.color.type == MSO_COLOR_TYPE.RGB else None
                runs.append((size, rgb if rgb is not None else (box_rgb or [None])[0]))
        return found

    delayed = [p["name"] for p in P["projects"] if p["status"] == "Delayed"]
    others = [p["name"] for p in P["projects"] if p["status"] != "Delayed"] + [P["deck"]]
    target = tuple(int(P["rgb"][i : i + 2], 16) for i in (0, 2, 4))

    def coloured(run):
        channels = [int(run[1][i : i + 2], 16) for i in (0, 2, 4)] if run[1] else None
        return channels is not None and all(abs(a - b) <= 8 for a, b in zip(channels, target, strict=True))

    def sized(run):
        return run[0] is not None and abs(run[0] - P["size_pt"]) <= 0.5

    def score(check):
        """Share of delayed titles whose every run passes; nothing if any other title passes too."""

        def passes(name):
            return bool(titles().get(name)) and all(check(r) for r in titles()[name])

        return 0.0 if any(map(passes, others)) else sum(map(passes, delayed)) / len(delayed)

    @precondition("every project slide is still there with its title, every slide's text unchanged")
    def slides_intact():
        texts = {P["deck"]: [P["subtitle"]]} | {p["name"]: lines_of(p) for p in P["projects"]}
        kept = all(lines == texts[t] for t, lines in slide_texts(P["path"]) if t in texts)
        return kept and all(p["name"] in titles() for p in P["projects"])

    @component(f"delayed projects' titles (only) are coloured #{P['rgb']}", 0.5)
    def titles_coloured():
        return score(coloured)

    @component(f"delayed projects' titles (only) are {P['size_pt']} pt", 0.5)
    def titles_sized():
        return score(sized)
