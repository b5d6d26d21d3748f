"""Cross-app (terminal -> GIMP): replace a small website's hero image. The old banner is moved into a
new archive folder under a dated name (a terminal's mkdir and mv), then the new photo is scaled in
GIMP and exported over the site's img/hero.jpg as a JPEG at a given quality. Data and wording:
site_hero.yaml.

The reward redraws both pictures from their seeds: the archived file must hold the old banner's
pixels in JPEG (what the setup wrote, decoded: mean difference <= 1; a move keeps the bytes), and the new hero must show the new
photo (SSIM >= 0.9 against it resized), at exactly the asked size, as a JPEG at the asked quality
(+-2). The old banner is a JPEG at quality 92 and of another size, so nothing holds initially. The
PNG and the site's page must stay as they were."""

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
from skills.kit.guest.images import (
    image_kind,
    jpeg_quality,
    load_rgb,
    save_image,
    ssim,
    synth_photo,
    unchanged,
)
from skills.kit.guest.rewardkit import component, precondition


def draw(rng, pools):
    source = photo(rng)
    image = source["image"]
    width, height = rng.choice(scaled_sizes(image["width"], image["height"], 0.5, 0.85))
    bw, bh = rng.choice(pools["banners"])
    return dict(
        source=source,
        site=f"Sites/{rng.choice(pools['sites'])}",
        banner={"seed": rng.randrange(1_000_000), "width": bw, "height": bh},
        width=width,
        height=height,
        quality=rng.choice(pools["qualities"]),
        year=rng.choice(pools["years"]),
    )


def page(P):
    """The site's index.html (it names img/hero.jpg, which keeps its name)."""
    name = P["site"].split("/")[-1].replace("_", " ").title()
    return (
        f'<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{name}</title>\n'
        f'<link rel="stylesheet" href="css/site.css">\n</head>\n<body>\n<header class="hero">\n'
        f'<img src="img/hero.jpg" alt="{name}" width="{P["width"]}">\n</header>\n'
        f"<main><h1>{name}</h1><p>Opening hours, news and contact details.</p></main>\n</body>\n</html>\n"
    )


def initial_setup(P):
    site = HOME / P["site"]
    (site / "css").mkdir(parents=True, exist_ok=True)
    (site / "index.html").write_text(page(P), encoding="utf-8")
    (site / "css" / "site.css").write_text(
        ".hero img { display: block; margin: 0 auto; max-width: 100%; }\nbody { font-family: sans-serif; }\n",
        encoding="utf-8",
    )
    save_image(synth_photo(P["banner"]), site / "img" / "hero.jpg", quality=92)
    save_image(synth_photo(P["source"]["image"]), HOME / P["source"]["path"])


def solve(P, *, mistake=None):
    from PIL import Image

    site = HOME / P["site"]
    hero = site / "img" / "hero.jpg"
    if mistake != "not_archived":
        archive = site / "img" / "archive"
        archive.mkdir(parents=True, exist_ok=True)
        hero.rename(archive / f"hero_{P['year']}.jpg")
    original = load_rgb(HOME / P["source"]["path"])
    if mistake != "full_size":
        original = original.resize((P["width"], P["height"]), Image.Resampling.LANCZOS)
    save_image(original, hero, quality=P["quality"])


def reward(P):
    import io

    from PIL import Image

    site = HOME / P["site"]
    hero = site / "img" / "hero.jpg"
    archived = site / "img" / "archive" / f"hero_{P['year']}.jpg"
    size = (P["width"], P["height"])
    photo_px = synth_photo(P["source"]["image"])

    def old_banner():
        """The old banner as the setup wrote it: the JPEG at quality 92, decoded."""
        data = io.BytesIO()
        synth_photo(P["banner"]).save(data, "JPEG", quality=92)
        data.seek(0)
        return Image.open(data).convert("RGB")

    @precondition(
        f"{P['source']['path']} is the new photo, unchanged, and the site's index.html is as it was"
    )
    def sources_kept():
        return unchanged(HOME / P["source"]["path"], photo_px) and (site / "index.html").read_text(
            encoding="utf-8"
        ) == page(P)

    @component(
        f"img/archive/hero_{P['year']}.jpg is the old banner, moved: a JPEG with its pixels (mean diff <= 1)",
        0.25,
    )
    def banner_archived():
        if not archived.exists():
            return False
        return image_kind(archived) == "JPEG" and unchanged(archived, old_banner())

    @component("img/hero.jpg shows the new photo (SSIM >= 0.9 against it resized)", 0.3)
    def new_picture():
        out = load_rgb(hero)
        if out is None:
            return False
        expected = photo_px.resize(size, Image.Resampling.LANCZOS)
        return ssim(out.resize(size, Image.Resampling.LANCZOS), expected) >= 0.9

    @component(f"img/hero.jpg is {size[0]}x{size[1]} pixels", 0.2)
    def right_size():
        out = load_rgb(hero)
        return out is not None and out.size == size

    @component(f"img/hero.jpg is a JPEG encoded at quality {P['quality']} (+-2)", 0.25)
    def right_quality():
        found = jpeg_quality(hero) if image_kind(hero) == "JPEG" else None
        return found is not None and abs(found - P["quality"]) <= 2


def demonstrate(P, screen):
    """The terminal: mkdir the archive and mv the old banner into it (before GIMP writes the new one
    over its name). Alt+tab to GIMP: Image > Scale Image to the width (the chain keeps the
    proportions), File > Export As the site's hero.jpg with the quality; alt+tab back and list it."""
    import shlex

    img = f"/home/user/{P['site']}/img"
    stem = P["source"]["stem"]
    image_window(screen, stem)
    screen.wait_until(lambda: screen.has_window("Terminal"), what="the terminal")
    yield from switch_to(screen, False)
    yield [
        {
            "action": "type",
            "text": f"cd {shlex.quote(img)} && mkdir -p archive && mv -nv hero.jpg archive/hero_{P['year']}.jpg\n",
        }
    ]
    yield [{"action": "type", "text": "ls -l . archive\n"}, {"action": "wait", "time": 0.5}]
    yield from switch_to(screen, True)
    yield from menu(screen, "Image", "Scale Image...")
    box = dialog(screen, "Scale Image")
    yield set_value(field(screen, box, "Width:"), P["width"])
    wait_value(screen, box, "Height:", P["height"])
    yield [press(screen, box, "Scale")]
    screen.wait_until(
        lambda: any(f" {P['width']}x{P['height']} " in t for t in screen.windows()), what="the scaled image"
    )
    yield from export_as(screen, f"{img}/hero.jpg", quality=P["quality"])
    yield from switch_to(screen, False)
    yield [{"action": "type", "text": "ls -l . archive\n"}, {"action": "wait", "time": 0.5}]
