"""Cross-app (GIMP -> Writer): prepare a photo for a report printed in black and white — scale it to
a width, make it greyscale, export it as a PNG — and insert that PNG at the end of the Writer report,
saved as .docx. Data and wording: report_figure.yaml.

The reward redraws the photo from its seed and reads the pictures of the report from its package
(python-docx: every a:blip's embedded part): the exported PNG and the embedded picture must each be
of the asked size, grey (99 % of the pixels with R, G, B within 8) and the same picture (SSIM's
structure term >= 0.9 against the photo resized); the picture must sit in the report's last
paragraph or after it (LibreOffice anchors an inserted image to the paragraph of the cursor). The
report's paragraphs and the photo must stay as they were."""

from skills.gimp.families._gui import (
    dialog,
    export_as,
    field,
    image_window,
    menu,
    press,
    set_value,
    switch_to,
    wait_value,
)
from skills.gimp.world import photo, scaled_sizes
from skills.kit.guest import HOME
from skills.kit.guest.docs import new_doc, open_doc, save_doc, texts_kept
from skills.kit.guest.images import (
    gray_fraction,
    image_kind,
    load_rgb,
    save_image,
    structure,
    synth_photo,
    unchanged,
)
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import click, named, save_keeping_format


def draw(rng, pools):
    source = photo(rng)
    image = source["image"]
    width, height = rng.choice(scaled_sizes(image["width"], image["height"], 0.4, 0.7))
    kind = rng.choice(pools["reports"])
    place = source["stem"].replace("_", " ")
    day = rng.randint(2, 27)
    month = rng.choice(["March", "April", "May", "June", "September", "October"])
    paragraphs = [
        f"This {kind} of {place} took place on {day} {month} and covered the access routes, the outside walls "
        "and the drainage.",
        f"No defect needs urgent work. Two items are listed for the next {kind}: the gutter on the east side "
        "and the worn markings near the entrance.",
        f"The photo below shows {place} as it was on the day of the visit.",
    ]
    return dict(
        source=source,
        width=width,
        height=height,
        kind=kind,
        title=f"{kind.capitalize()}: {place.title()}",
        author=rng.choice(pools["inspectors"]),
        paragraphs=paragraphs,
        report=f"Documents/{source['stem']}_report.docx",
        figure=f"Documents/figures/{source['stem']}_print.png",
    )


def initial_setup(P):
    doc = new_doc(P["author"])
    doc.add_heading(P["title"], 1)
    for text in P["paragraphs"]:
        doc.add_paragraph(text)
    save_doc(doc, P["report"])
    (HOME / P["figure"]).parent.mkdir(parents=True, exist_ok=True)
    save_image(synth_photo(P["source"]["image"]), HOME / P["source"]["path"])


def solve(P, *, mistake=None):
    from docx.shared import Cm
    from PIL import Image

    scaled = load_rgb(HOME / P["source"]["path"]).resize((P["width"], P["height"]), Image.Resampling.LANCZOS)
    grey = scaled.convert("L")
    save_image(grey, HOME / P["figure"])
    inserted = HOME / P["figure"]
    if mistake == "colour_inserted":
        inserted = HOME / "Documents" / "figures" / "colour_copy.png"
        save_image(scaled, inserted)
    doc = open_doc(P["report"])
    if mistake == "at_top":
        doc.paragraphs[0].insert_paragraph_before().add_run().add_picture(str(inserted), width=Cm(12))
    else:
        doc.add_picture(str(inserted), width=Cm(12))
    save_doc(doc, P["report"])
    if mistake == "colour_inserted":
        inserted.unlink()


def reward(P):
    import functools
    import io

    from docx.oxml.ns import qn
    from PIL import Image

    size = (P["width"], P["height"])
    photo_px = synth_photo(P["source"]["image"])
    expected = photo_px.resize(size, Image.Resampling.LANCZOS)
    figure = HOME / P["figure"]
    doc = functools.cache(lambda: open_doc(P["report"]))

    def pictures():
        """(paragraph index, image) of every picture embedded in the report's body paragraphs."""
        found = []
        for index, paragraph in enumerate(doc().paragraphs):
            for blip in paragraph._p.iter(qn("a:blip")):
                part = doc().part.related_parts.get(blip.get(qn("r:embed")))
                if part is not None:
                    with Image.open(io.BytesIO(part.blob)) as im:
                        found.append((index, im.convert("RGB")))
        return found

    def the_picture():
        found = pictures()
        return found[0][1] if len(found) == 1 else None

    def looks_right(im):
        """Grey and the same picture as the photo scaled (0.0 when the size differs)."""
        return im is not None and gray_fraction(im, 8) >= 0.99 and structure(im, expected) >= 0.9

    @precondition(f"{P['source']['path']} is the original photo and the report's paragraphs are unchanged")
    def sources_kept():
        return unchanged(HOME / P["source"]["path"], photo_px) and texts_kept(
            doc(), [P["title"], *P["paragraphs"]]
        )

    @component(f"{P['figure']} is a PNG of {size[0]}x{size[1]} pixels", 0.1)
    def figure_size():
        out = load_rgb(figure)
        return image_kind(figure) == "PNG" and out is not None and out.size == size

    @component(f"{P['figure']} is grey and the same picture (structure >= 0.9)", 0.15)
    def figure_grey():
        return looks_right(load_rgb(figure))

    @component(f"the report holds one picture, at or after the paragraph {P['paragraphs'][-1][:40]!r}…", 0.25)
    def placed_at_end():
        found = pictures()
        last = [i for i, p in enumerate(doc().paragraphs) if p.text.strip() == P["paragraphs"][-1]]
        return len(found) == 1 and bool(last) and found[0][0] >= last[-1]

    @component(f"the report's picture is {size[0]}x{size[1]} pixels", 0.25)
    def picture_size():
        im = the_picture()
        return im is not None and im.size == size

    @component("the report's picture is grey and the same picture (structure >= 0.9)", 0.25)
    def picture_grey():
        return looks_right(the_picture())


def demonstrate(P, screen):
    """GIMP: Image > Scale Image to the width (the chain keeps the proportions), Colors > Desaturate >
    Desaturate… OK, File > Export As the figure. Alt+tab to Writer: ctrl+End, Enter (a new last
    paragraph), Insert > Image…, type the figure's path into the file chooser (a leading / opens its
    location field), Enter; save keeping .docx."""
    stem = P["source"]["stem"]
    image_window(screen, stem)
    screen.wait_until(
        lambda: screen.has_window("LibreOffice Writer"), timeout_s=60, what="the report in Writer"
    )
    yield from switch_to(screen, True)
    yield from menu(screen, "Image", "Scale Image...")
    box = dialog(screen, "Scale Image")
    yield set_value(field(screen, box, "Width:"), P["width"])
    wait_value(screen, box, "Height:", P["height"])
    yield [press(screen, box, "Scale")]
    screen.wait_until(
        lambda: any(f" {P['width']}x{P['height']} " in t for t in screen.windows()), what="the scaled image"
    )
    yield from menu(screen, "Colors", "Desaturate", "Desaturate...")
    yield [press(screen, dialog(screen, "Desaturate"), "OK")]
    screen.wait_until(lambda: not screen.has_window("Desaturate"), what="the Desaturate dialog to close")
    yield from export_as(screen, f"/home/user/{P['figure']}")
    yield from switch_to(screen, False)
    yield [{"action": "key", "keys": ["ctrl", "end"]}, {"action": "key", "keys": ["Return"]}]
    yield [click(screen.find(named("menu", "Insert"), what="Writer's Insert menu"))]
    item = screen.find(lambda e: "menu-item" in e.role and e.name == "Image...", what="Insert > Image...")
    yield [click(item)]
    screen.wait_until(lambda: screen.has_window("Insert Image"), what="the Insert Image dialog")
    yield [{"action": "type", "text": f"/home/user/{P['figure']}"}]
    screen.find(
        lambda e: e.role == "text" and e.text.strip() == f"/home/user/{P['figure']}",
        what="the typed location",
    )
    yield [{"action": "key", "keys": ["Return"]}]
    screen.wait_until(lambda: not screen.has_window("Insert Image"), what="the image to be inserted")
    yield from save_keeping_format(screen)
