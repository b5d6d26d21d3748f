"""Impress: in a project status deck, flag the delayed projects by recolouring and resizing the titles
of their slides. Which slides those are is read from each slide's "Status:" bullet."""

from __future__ import annotations

import random

from skills.impress.families._deckkit import norm
from tasks.families import Family
from tasks.guest import HOME
from tasks.guest.rewardkit import component, precondition
from tasks.models import Difficulty, Domain, Scenario, Wording

PROJECTS = ["Billing migration", "Mobile app 2.0", "Warehouse scanners", "HR portal", "Data lake", "Call centre IVR",
            "Payroll upgrade", "Fleet telematics", "Supplier portal", "Intranet search", "Energy audit",
            "Loyalty scheme"]  # fmt: skip
OWNERS = ["Aisha Khan", "Bruno Silva", "Chloe Martin", "Dev Patel", "Emma Fischer", "Farid Haddad", "Grace Liu"]
STATUSES = ["On track", "At risk", "Delayed"]
COLOURS = {"red": "FF0000", "dark red": "C9211E", "orange": "FF8000", "purple": "800080", "dark blue": "1C4587"}




def title_shape(slide):
    """The title placeholder (type title or ctrTitle); not slide.shapes.title, which picks the first
    placeholder with idx 0 and LibreOffice saves the content placeholder as <p:ph/> with idx 0 too."""
    from pptx.enum.shapes import PP_PLACEHOLDER

    for shape in slide.placeholders:
        if shape.placeholder_format.type in (PP_PLACEHOLDER.TITLE, PP_PLACEHOLDER.CENTER_TITLE):
            return shape
    return None


def _format_titles(P, size_pt):
    from pptx import Presentation
    from pptx.dml.color import RGBColor
    from pptx.util import Pt

    path = HOME / P["path"]
    prs = Presentation(path)
    delayed = {p["name"] for p in P["projects"] if p["status"] == "Delayed"}
    for slide in prs.slides:
        shape = title_shape(slide)
        if shape is None or norm(shape.text_frame.text) not in delayed:
            continue
        for paragraph in shape.text_frame.paragraphs:
            for run in paragraph.runs:
                run.font.color.rgb = RGBColor.from_string(P["rgb"])
                run.font.size = Pt(size_pt)
    prs.save(path)


def initial_setup(P):
    from pptx import Presentation
    from pptx.util import Emu

    prs = Presentation()
    prs.slide_width, prs.slide_height = Emu(12192000), Emu(6858000)
    first = prs.slides.add_slide(prs.slide_layouts[0])
    first.shapes.title.text = P["deck"]
    first.placeholders[1].text = P["subtitle"]
    for project in P["projects"]:
        slide = prs.slides.add_slide(prs.slide_layouts[1])
        slide.shapes.title.text = project["name"]
        body = slide.placeholders[1].text_frame
        body.text = f"Owner: {project['owner']}"
        body.add_paragraph().text = f"Status: {project['status']}"
        body.add_paragraph().text = f"Next milestone: {project['milestone']}"
    path = HOME / P["path"]
    path.parent.mkdir(parents=True, exist_ok=True)
    prs.save(path)


def golden_patch(P):
    _format_titles(P, P["size_pt"])


def near_miss(P):
    # Right colour on the right slides, but the size was left at a different value.
    _format_titles(P, P["size_pt"] - 8)


def reward(P):
    from pptx import Presentation
    from pptx.enum.dml import MSO_COLOR_TYPE

    titles = {}

    def title_runs(name):
        """(size_pt, "RRGGBB") of each non-blank run of the title reading `name`, None if no slide has
        that title. A run's own a:rPr wins; else the title shape's own list style (formatting applied to
        the whole box) counts; inheritance from layout or master is not the task's change."""
        if not titles:
            for slide in Presentation(HOME / P["path"]).slides:
                shape = title_shape(slide)
                if shape is None:
                    continue
                box = shape._element.xpath("./p:txBody/a:lstStyle/a:lvl1pPr/a:defRPr")
                box_size = box[0].get("sz") if box else None
                box_rgb = box[0].xpath("./a:solidFill/a:srgbClr/@val") if box else []
                runs = []
                for paragraph in shape.text_frame.paragraphs:
                    for run in paragraph.runs:
                        if not run.text.strip():
                            continue
                        size = run.font.size.pt if run.font.size is not None else None
                        if size is None and box_size is not None:
                            size = int(box_size) / 100
                        rgb = str(run.font.color.rgb) if run.font.color.type == MSO_COLOR_TYPE.RGB else None
                        runs.append((size, rgb if rgb is not None or not box_rgb else box_rgb[0]))
                titles[norm(shape.text_frame.text)] = runs
        return titles.get(name)

    delayed = [p["name"] for p in P["projects"] if p["status"] == "Delayed"]
    others = [p["name"] for p in P["projects"] if p["status"] != "Delayed"] + [P["deck"]]
    target = tuple(int(P["rgb"][i : i + 2], 16) for i in (0, 2, 4))

    def coloured(run):
        rgb = run[1]
        if rgb is None:
            return False
        channels = [int(rgb[i : i + 2], 16) for i in (0, 2, 4)]
        return all(abs(a - b) <= 8 for a, b in zip(channels, target, strict=True))  # palette rounding

    def sized(run):
        return run[0] is not None and abs(run[0] - P["size_pt"]) <= 0.5

    def score(check):
        """Share of delayed titles whose every run passes; nothing if any other title passes too."""

        def passes(name):
            runs = title_runs(name)
            return bool(runs) and all(check(r) for r in runs)

        if any(passes(name) for name in others):
            return 0.0
        return sum(passes(name) for name in delayed) / len(delayed)

    @precondition("every project slide is still there with its title")
    def slides_intact():
        return all(title_runs(p["name"]) is not None for p in P["projects"])

    @component(f"delayed projects' titles (only) are coloured #{P['rgb']}", 0.5)
    def titles_coloured():
        return score(coloured)

    @component(f"delayed projects' titles (only) are {P['size_pt']} pt", 0.5)
    def titles_sized():
        return score(sized)


class HighlightTitles(Family):
    id = "impress.highlight_titles"
    apps = ("impress",)
    difficulty = Difficulty.MEDIUM
    leaves = ("impress/text/formatting/font_color", "impress/text/formatting/font_size")
    domains = (Domain.MANAGEMENT, Domain.COMPUTER_MATH, Domain.BUSINESS_FINANCE, Domain.OFFICE_ADMIN)
    scenarios = (Scenario.COMMERCIAL,)
    helpers = (norm, title_shape, _format_titles)
    templates = {
        Wording.IMPERATIVE: "In {file}, find every project slide whose status bullet says \"Delayed\" and "
        "make its title text {colour} (#{rgb}) at {size} pt. Leave the other titles unchanged and save as .pptx.",
        Wording.REQUEST: "Could you make the delayed projects stand out in {file}? Each slide whose "
        "\"Status:\" line reads Delayed should get a {size} pt title in {colour} (hex {rgb}); the on-track "
        "and at-risk slides stay as they are. Please save it as .pptx.",
        Wording.CONTEXTUAL: "As {persona}, I present {file} at the steering meeting and want the board to "
        "spot delays at a glance: the titles of the slides with \"Status: Delayed\" must be {size} pt and "
        "coloured {colour} (#{rgb}), all other titles untouched. Save it in .pptx format.",
        Wording.GOAL: "Goal: in {file}, the title of every slide with \"Status: Delayed\" is {size} pt "
        "and #{rgb} ({colour}), while no other slide title has that colour or size. Saved as .pptx.",
        Wording.PROBLEM_FIX: "In {file} the delayed projects look exactly like the healthy ones. Fix it: "
        "give the titles of the slides marked \"Status: Delayed\" the colour #{rgb} ({colour}) and a "
        "font size of {size} pt, without changing any other slide. Save as .pptx.",
    }

    def draw(self, rng: random.Random) -> dict:
        names = rng.sample(PROJECTS, rng.randint(5, 8))
        delayed = rng.sample(range(len(names)), rng.randint(2, 3))
        others = [i for i in range(len(names)) if i not in delayed]
        statuses = ["Delayed" if i in delayed else rng.choice(STATUSES[:2]) for i in range(len(names))]
        statuses[rng.choice(others)] = "At risk"  # a near-synonym to tell apart
        colour = rng.choice(sorted(COLOURS))
        month = rng.choice(["March", "June", "September", "December"])
        return {
            "deck": f"Portfolio status, {month} {rng.randint(2024, 2026)}",
            "subtitle": "Programme management office",
            "path": f"Desktop/portfolio_status_{month.lower()}.pptx",
            "projects": [{"name": n, "status": s, "owner": rng.choice(OWNERS),
                          "milestone": f"{rng.choice(['Pilot', 'UAT', 'Go-live', 'Design sign-off'])} in week "
                                       f"{rng.randint(2, 50)}"}
                         for n, s in zip(names, statuses, strict=True)],  # fmt: skip
            "colour": colour,
            "rgb": COLOURS[colour],
            "size_pt": rng.choice([28, 32, 36, 40]),
        }

    def words(self, P: dict) -> dict[str, str]:
        return {"file": "~/" + P["path"], "colour": P["colour"], "rgb": P["rgb"], "size": str(P["size_pt"])}

    def context(self, P: dict) -> str:
        rows = [(p["name"], p["status"]) for p in P["projects"]]
        return (
            f"~/{P['path']}: title slide {P['deck']!r}, then one Title-and-Content slide per project, titled "
            f"with the project name, bullets Owner/Status/Next milestone; statuses {rows}. Titles inherit the "
            f"master's size and colour. Expected: every run of the Delayed projects' titles is {P['size_pt']} "
            f"pt (±0.5) and #{P['rgb']} (±8 per channel); no other title gets that colour or size."
        )
