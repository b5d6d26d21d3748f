"""Cross-app (terminal -> Chromium): file a client's downloads into a new project folder, then make
that folder Chromium's download location and have Chromium ask where to save each file. Data and
wording: download_folder.yaml.

The folder part is checked on the files themselves (same bytes, moved not copied, the other downloads
untouched); the Chromium part on Preferences' download.default_directory and
download.prompt_for_download, read after the browser exited."""

from infra.errors import ConfigError
from skills.chromium.families._gui import open_settings, switch_to_chromium
from skills.chromium.world import ORGS
from skills.files.world import make_file
from skills.kit.guest import HOME
from skills.kit.guest.chromium import pref, read_preferences, write_preferences
from skills.kit.guest.files import same_bytes, write_files
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import click, named


def draw(rng, pools):
    client = rng.choice(ORGS)
    kind = rng.choice(sorted(pools["kinds"]))
    stems = rng.sample(pools["kinds"][kind], rng.randint(3, 4))
    files = [make_file(rng, f"{client}_{stem}.{rng.choice(pools['extensions'])}") for stem in stems]
    other_client = rng.choice([o for o in ORGS if o != client])
    others = [make_file(rng, name) for name in rng.sample(pools["others"], 3)]
    others.append(make_file(rng, f"{other_client}_{rng.choice(pools['kinds'][kind])}.pdf"))  # a look-alike
    top = rng.choice(["Projects", "Clients", "Documents/Clients"])
    return dict(client=client, kind=kind, files=files, others=others, folder=f"{top}/{client}/{kind}")


def initial_setup(P):
    write_files(HOME / "Downloads", P["files"] + P["others"])
    write_preferences(
        {"download": {"default_directory": str(HOME / "Downloads"), "prompt_for_download": False}}
    )


def solve(P, *, mistake=None):
    import shutil

    folder = HOME / P["folder"]
    folder.mkdir(parents=True, exist_ok=True)
    for spec in P["files"]:
        move = shutil.copy2 if mistake == "copied_not_moved" else shutil.move
        move(str(HOME / "Downloads" / spec["name"]), str(folder / spec["name"]))
    location = HOME / "Downloads" if mistake == "location_unchanged" else folder
    write_preferences({"download": {"default_directory": str(location), "prompt_for_download": True}})


def reward(P):
    import os

    folder = HOME / P["folder"]
    downloads = HOME / "Downloads"

    def same_dir(path, want):
        return isinstance(path, str) and os.path.normpath(os.path.expanduser(path)) == os.path.normpath(
            str(want)
        )

    @precondition("the other downloads are still in ~/Downloads, unchanged")
    def others_stay():
        return all(same_bytes(downloads / spec["name"], spec["sha256"]) for spec in P["others"])

    @component(f"the new folder ~/{P['folder']} holds the {P['client']}_ files, byte for byte", 0.4)
    def files_filed():
        return sum(same_bytes(folder / spec["name"], spec["sha256"]) for spec in P["files"]) / len(P["files"])

    @component(f"the {P['client']}_ files were moved: none is left in ~/Downloads", 0.1)
    def files_moved():
        moved = [
            same_bytes(folder / spec["name"], spec["sha256"]) and not (downloads / spec["name"]).exists()
            for spec in P["files"]
        ]
        return sum(moved) / len(moved)

    @component(f"Chromium downloads into ~/{P['folder']}", 0.35)
    def download_location():
        return same_dir(pref(read_preferences(), "download.default_directory"), folder)

    @component("Chromium asks where to save each file before downloading", 0.15)
    def ask_where():
        return pref(read_preferences(), "download.prompt_for_download") is True


def demonstrate(P, screen):
    """The terminal is on top: mkdir and mv in one line (the shell's title tells when it ran), then
    alt+tab to Chromium: Settings > Downloads > Change opens GTK's folder chooser, where ctrl+L takes a
    typed path and alt+O its Open button; then the Ask-where toggle."""
    path = f"/home/user/{P['folder']}"
    screen.wait_until(lambda: screen.has_window("Terminal"), what="the terminal")
    names = " ".join(f"~/Downloads/{spec['name']}" for spec in P["files"])
    done = "Terminal - filed"
    command = f"mkdir -p ~/{P['folder']} && mv {names} ~/{P['folder']}/ && printf '\\033]0;{done}\\007'\n"
    yield [{"action": "type", "text": command}]
    screen.wait_until(lambda: screen.has_window(done), timeout_s=20, what="the files to be moved")
    yield from switch_to_chromium(screen)
    yield from open_settings(screen, "downloads", "Downloads")
    change = screen.find(named("push-button", "Change"), what="the download location's Change button")
    for attempt in range(3):  # the chooser may open slowly on a busy desktop: a person clicks again
        yield [click(change)]
        try:
            screen.wait_until(lambda: screen.has_window("Location"), timeout_s=10, what="the folder chooser")
            break
        except ConfigError:
            if attempt == 2:
                raise
    yield [{"action": "key", "keys": ["ctrl", "l"]}, {"action": "type", "text": path}]
    yield [{"action": "wait", "time": 0.5}, {"action": "key", "keys": ["alt", "o"]}]
    screen.find(
        lambda e: e.name.startswith("Location ") and e.name.endswith(path),
        what=f"{path} as the download location",
    )
    toggle = screen.find(
        named("toggle-button", "Ask where to save each file before downloading"), what="the Ask where toggle"
    )
    yield [click(toggle), {"action": "wait", "time": 1.0}]
