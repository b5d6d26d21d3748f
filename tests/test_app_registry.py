"""Each app is declared once (skills/<app>/app.yaml, read by infra/apps.py) and every list of apps is
derived from it (issue 25, "Register each app once"); an undeclared app is an error, never a default.

The recipe test follows CONTRIBUTING.md's "Add an app" in a temp dir: it declares a desktop app and a
web app there and checks, in a fresh interpreter pointed at that folder, that both appear in every
derived list and export with their OSWorld names."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from infra import apps
from infra.errors import ConfigError
from infra.settings import PROJECT_ROOT

PAINT = """name: paint
kind: desktop
title: GNU Image Manipulation Program
osworld: gimp
suffixes: [.xcf, .png]
opens: {by: document}
"""
WIKI = """name: wiki
kind: web
title: Team Wiki
osworld: chrome
opens: {by: browser, route: /wiki/}
"""

# Runs in a fresh interpreter with CUAGYM_APPS_DIR set, so module-level lists are derived anew.
PROBE = r"""
import json, sys, tempfile
from pathlib import Path
from pydantic import ValidationError
from infra.apps import UnknownAppError
from infra.envs.desktop.browser import WEB_APP_TITLES, rendered_title
from infra.envs.desktop.setup import APP_SUFFIXES, task_documents
from infra.envs.local import WEB_APPS
from infra.hub.settings import ALL_APPS, HubSettings
from skills.kit.catalogue import load_families
from tasks.export import OSWORLD_APPS, osworld_config
from tasks.models import KNOWN_APPS, SynthParams
from tasks.quality.teachers import teacher_kind

spec = load_families(Path(sys.argv[1]))["calc.padded_ids"].instantiate(0)
home = Path(tempfile.mkdtemp())
(home / "Desktop").mkdir()
(home / "Desktop" / "logo.xcf").write_bytes(b"gimp")
config = osworld_config(spec.model_copy(update={"apps": ["paint", "calc", "wiki"]}))
try:
    osworld_config(spec.model_copy(update={"apps": ["ghost"]}))
    unknown_export = "exported"
except UnknownAppError as exc:
    unknown_export = str(exc)
try:
    SynthParams(apps=["ghost"])
    unknown_param = "accepted"
except ValidationError:
    unknown_param = "refused"
print(json.dumps({
    "known": list(KNOWN_APPS),
    "synth_accepts": SynthParams(apps=["paint", "wiki"]).apps,
    "web_apps": list(WEB_APPS),
    "hub_apps": list(ALL_APPS),
    "hub_default": HubSettings().apps,
    "titles": WEB_APP_TITLES,
    "rendered": rendered_title(["Home - Team Wiki - Chromium"], "wiki"),
    "osworld": OSWORLD_APPS,
    "suffixes": {k: list(v) for k, v in APP_SUFFIXES.items()},
    "documents": task_documents(home, config["related_apps"]),
    "snapshot": config["snapshot"],
    "related_apps": config["related_apps"],
    "teacher_kinds": {app: teacher_kind(app) for app in ("paint", "wiki", "files")},
    "unknown_export": unknown_export,
    "unknown_param": unknown_param,
}))
"""


def _declared_copy(tmp_path: Path) -> Path:
    """A skills folder holding the checkout's declarations and taxonomies (what the registry reads)."""
    root = tmp_path / "skills"
    for declaration in (PROJECT_ROOT / "skills").glob("*/app.yaml"):
        (root / declaration.parent.name).mkdir(parents=True)
        shutil.copy(declaration, root / declaration.parent.name / "app.yaml")
        shutil.copy(declaration.parent / "taxonomy.yaml", root / declaration.parent.name / "taxonomy.yaml")
    return root


def _write(root: Path, app: str, text: str, *, taxonomy: bool = True) -> None:
    (root / app).mkdir(parents=True, exist_ok=True)
    (root / app / "app.yaml").write_text(text, encoding="utf-8")
    if taxonomy:
        (root / app / "taxonomy.yaml").write_text(f"app: {app}\nname: {app}\ntree: {{}}\n", encoding="utf-8")


def test_an_app_added_by_the_recipe_appears_in_every_derived_list(tmp_path):
    root = _declared_copy(tmp_path)
    _write(root, "paint", PAINT)  # recipe step 1: skills/<app>/app.yaml beside its taxonomy
    _write(root, "wiki", WIKI)
    env = os.environ | {"CUAGYM_APPS_DIR": str(root)}
    run = subprocess.run(
        [sys.executable, "-c", PROBE, str(PROJECT_ROOT / "skills")],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout.splitlines()[-1])
    assert {"paint", "wiki", "calc", "chat"} <= set(seen["known"])
    assert seen["synth_accepts"] == ["paint", "wiki"]
    assert "wiki" in seen["web_apps"] and "paint" not in seen["web_apps"]
    assert seen["hub_apps"] == seen["web_apps"] == seen["hub_default"]
    assert seen["titles"]["wiki"] == "Team Wiki"
    assert seen["rendered"] == "Home - Team Wiki - Chromium"
    assert seen["osworld"]["paint"] == "gimp" and seen["osworld"]["wiki"] == "chrome"
    assert seen["suffixes"]["gimp"] == [".xcf", ".png"]
    # the export names each app the OSWorld way; the primary app is the snapshot
    assert seen["snapshot"] == "gimp"
    assert seen["related_apps"] == ["chrome", "gimp", "libreoffice_calc"]
    assert seen["documents"] == ["/home/user/Desktop/logo.xcf"]  # the desktop opens the new app's files
    assert seen["teacher_kinds"] == {"paint": "office", "wiki": "browser", "files": "terminal"}
    assert "unknown app 'ghost'" in seen["unknown_export"] and "paint" in seen["unknown_export"]
    assert seen["unknown_param"] == "refused"


def test_an_undeclared_app_raises_naming_the_known_apps():
    with pytest.raises(apps.UnknownAppError, match=r"unknown app 'paint'.*known apps: .*calc, chat, "):
        apps.osworld_name("paint")
    with pytest.raises(apps.UnknownAppError, match="unknown app 'ghost'"):
        apps.require(["calc", "ghost"])


def test_the_declarations_keep_the_osworld_names_and_the_hub_packages():
    # OSWorld's own names (desktop_env's evaluation_examples): vscode tasks say "vscode", files "os"
    assert {a: apps.osworld_name(a) for a in ("calc", "writer", "impress", "vscode", "files")} == {
        "calc": "libreoffice_calc",
        "writer": "libreoffice_writer",
        "impress": "libreoffice_impress",
        "vscode": "vscode",
        "files": "os",
    }
    # a web app is a hand-written package or an engine app's definition, never both
    packages = {p.parent.name for p in (PROJECT_ROOT / "infra/hub/apps").glob("*/__init__.py")}
    defined = {p.parent.name for p in (PROJECT_ROOT / "infra/hub/apps").glob("*/definition.yaml")}
    assert not packages & defined
    assert set(apps.web_apps()) == packages | defined
    assert all(apps.osworld_name(a) == "chrome" and apps.route(a) == f"/{a}/" for a in apps.web_apps())
    assert set(apps.all_apps()) == {p.parent.name for p in (PROJECT_ROOT / "skills").glob("*/taxonomy.yaml")}


def test_a_taxonomy_without_a_declaration_is_refused(tmp_path, monkeypatch):
    root = _declared_copy(tmp_path)
    (root / "paint").mkdir()
    (root / "paint" / "taxonomy.yaml").write_text("app: paint\nname: Paint\ntree: {}\n", encoding="utf-8")
    monkeypatch.setenv("CUAGYM_APPS_DIR", str(root))
    with pytest.raises(ConfigError, match=r"\['paint'\] have a taxonomy but no app.yaml"):
        apps.registry()


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (WIKI.replace("osworld: chrome", "osworld: libreoffice_calc"), "web app's OSWorld name is 'chrome'"),
        (WIKI.replace("{by: browser, route: /wiki/}", "{by: document}"), "web app cannot open by document"),
        (PAINT.replace("suffixes: [.xcf, .png]\n", ""), "needs their suffixes"),
        (PAINT.replace(".xcf", "xcf"), "start with '.'"),
        (PAINT + "colour: blue\n", "colour"),  # a closed schema: an unknown field is refused
        (PAINT.replace("name: paint", "name: gimp"), "declares 'gimp'"),
        (PAINT + "host_paths: [/usr/share/gimp]\n", "host_paths are configuration under /etc"),
        (PAINT + "quit: gimp; rm -rf /\n", "quit"),  # a process name, never a command line
        (PAINT.replace("{by: document}", "{by: program, window: GIMP}"), "command"),
        (PAINT.replace("{by: document}", "{by: program, command: [gimp]}"), "window"),
    ],
)
def test_a_bad_declaration_is_refused_with_its_path(tmp_path, monkeypatch, text, problem):
    root = tmp_path / "skills"
    _write(root, "paint" if "name: paint" in text or "gimp" in text else "wiki", text)
    monkeypatch.setenv("CUAGYM_APPS_DIR", str(root))
    with pytest.raises(ConfigError, match=problem) as err:
        apps.registry()
    assert "app.yaml" in str(err.value)


def test_a_program_app_is_launched_by_its_config_and_asked_to_quit_before_grading():
    """Chromium's declaration: the export launches it after the setup wrote its profile, and the
    evaluator's postconfig asks it to exit (and waits, zombies aside) before reward.py is uploaded."""
    from infra.envs.desktop.setup import LaunchStep, load_task
    from skills.kit import load_families
    from tasks.export import osworld_config
    from tasks.quality.teachers import teacher_kind

    spec = load_families(PROJECT_ROOT / "skills")["chromium.startup_pages"].instantiate(0)
    config = osworld_config(spec)
    program = apps.program("chromium")
    assert config["related_apps"] == ["chrome"] and program is not None
    assert config["config"][-1] == {"type": "launch", "parameters": {"command": list(program.command)}}
    assert "--user-data-dir=/home/user/.config/chromium" in program.command  # the env's own profile
    quit_step, upload = config["evaluator"]["postconfig"]
    script = quit_step["parameters"]["command"][-1]
    assert quit_step["type"] == "execute" and script.startswith("pkill -TERM -x chromium;")
    assert "pgrep -r R,S,D,T -x chromium" in script and script.endswith("exit 0")
    assert upload["parameters"]["files"][0]["local_path"] == "reward.py"
    assert apps.program_windows()[program.command] == " - Chromium" and teacher_kind("chromium") == "program"
    # the desktop's own reader of config.json takes it: the launch step, and the postconfig it keeps
    import json
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "config.json").write_text(json.dumps(config))
        task = load_task(Path(folder) / "config.json")
    assert isinstance(task.config[-1], LaunchStep) and [s.type for s in task.evaluator.postconfig] == [
        "execute",
        "upload_file",
    ]
    # an office task launches nothing and quits nothing
    calc = load_families(PROJECT_ROOT / "skills")["calc.padded_ids"].instantiate(0)
    office = osworld_config(calc)
    assert all(s["type"] != "launch" for s in office["config"])
    assert [s["type"] for s in office["evaluator"]["postconfig"]] == ["upload_file"]
