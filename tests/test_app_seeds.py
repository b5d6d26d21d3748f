"""GIMP's first-start profile (infra/app_seeds.py): built once from the real GIMP, readable by the
guest user who copies it, rebuilt only when GIMP changes; GIMP's launch command copies it into a home
without a profile (the smoke teacher of gimp runs a desktop that does)."""

from __future__ import annotations

from infra import apps
from infra.app_seeds import GUEST_APP_SEEDS, MARKER, app_seeds_ready, ensure_app_seeds


def test_the_gimp_seed_holds_its_plugin_registry_and_is_reused(tmp_path):
    root = ensure_app_seeds(tmp_path / "seeds")
    pluginrc = root / "gimp/.config/GIMP/2.10/pluginrc"
    assert pluginrc.stat().st_size > 10_000 and b"plug-in-def" in pluginrc.read_bytes()
    assert not (root / "gimp/.config/GIMP/2.10/sessionrc").exists()  # the launch command writes its own
    assert all(p.stat().st_mode & 0o004 for p in root.rglob("*"))  # readable by the guest user
    assert app_seeds_ready(root)
    built = (root / MARKER).stat().st_mtime_ns
    ensure_app_seeds(root)
    assert (root / MARKER).stat().st_mtime_ns == built
    (root / MARKER).write_text("GIMP 0.0")  # another GIMP: rebuilt
    ensure_app_seeds(root)
    assert app_seeds_ready(root) and (root / MARKER).stat().st_mtime_ns != built


def test_gimps_launch_copies_the_seed_into_a_home_without_a_profile():
    script = apps.app("gimp").opens.command[2]
    assert f"cp -a {GUEST_APP_SEEDS}/gimp/. " in script
    assert script.index('[ -e "$d/sessionrc" ] ||') < script.index("cp -a")
