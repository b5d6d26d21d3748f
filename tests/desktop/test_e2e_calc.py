"""End to end: a generated .xlsx opened in real LibreOffice Calc on the desktop, edited through the
server's GUI input, saved with ctrl+s (keep-format dialog answered), and graded by the bundle's own
reward.py with openpyxl — rewards work on files the real app wrote."""

from __future__ import annotations

import io
import json
import time

import openpyxl
import pytest

from infra.envs.desktop.actions import KeyPress, TypeText
from skills.calc.families._gui import go_to
from tasks.rollout.scripted import TeacherScreen

from .conftest import export_bundle, save_screenshot

pytestmark = pytest.mark.slow

KEEP_FORMAT_DIALOG = "Confirm File Format"  # LibreOffice 7.4's "Use Excel 2007-365!" question


def _saved_formula(env, path: str, cell: str, timeout_s: float = 90.0):
    """Wait until the file on disk has a formula in `cell` (LibreOffice writes it after the dialog)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            value = openpyxl.load_workbook(io.BytesIO(env.read_file(path))).active[cell].value
        except Exception:
            value = None
        if isinstance(value, str) and value.startswith("="):
            return value
        time.sleep(0.3)
    raise AssertionError(f"{path} has no formula in {cell} after {timeout_s:g} s")


def test_calc_edit_saved_by_the_real_app_is_scored_by_reward_py(desktop, families, tmp_path):
    bundle = export_bundle(families, "calc.padded_ids", 7, tmp_path / "final")
    opened = desktop.setup_from_config(bundle / "config.json", timeout_s=240)
    assert len(opened) == 1 and opened[0].endswith(".xlsx")
    document = opened[0]
    desktop.mark_initial()  # the task's initial state: what reset() returns to
    reward_py = (bundle / "reward.py").read_text()
    before = desktop.run_script(reward_py, name="reward.py")
    assert before.ok and before.stdout.strip().splitlines()[-1] == "REWARD: 0.0"

    params = json.loads((bundle / "task.json").read_text())["params"]
    zeros = "0" * params["width"]
    # What an agent would do: go to B2, type one TEXT formula per row, save with ctrl+s. A just-opened
    # document under a loaded machine (make test runs two workers) can drop an arrow key while the grid
    # takes focus, so the keys are checked against the Name Box as the Calc teachers do (_gui.go_to).
    for keys in go_to(TeacherScreen(desktop), 2, 2):
        for action in keys:
            desktop.gui_input(KeyPress(keys=action["keys"]))
    for row in range(2, len(params["ids"]) + 2):
        desktop.gui_input(TypeText(text=f'=TEXT(A{row};"{zeros}")'))
        desktop.gui_input(KeyPress(keys=["enter"]))
    desktop.gui_input(KeyPress(keys=["ctrl", "s"]))
    desktop.wait_for_window(KEEP_FORMAT_DIALOG, timeout_s=90)
    desktop.gui_input(KeyPress(keys=["enter"]))  # the default button keeps the .xlsx format
    desktop.wait_for_window(KEEP_FORMAT_DIALOG, gone=True, timeout_s=90)

    formula = _saved_formula(desktop, document, "B2")
    assert formula.replace(";", ",").upper() == f'=TEXT(A2,"{zeros}")'
    after = desktop.run_script(reward_py, name="reward.py")
    assert after.ok, after.stderr
    assert after.stdout.strip().splitlines()[-1] == "REWARD: 1.0"
    # The state LibreOffice wrote also passes the grader as OSWorld's evaluator runs it (vm_command_line).
    # config.json's postconfig uploads reward.py into the home, then runs it there.
    desktop.client.upload("/home/user/reward.py", reward_py.encode())
    graded = desktop.client.execute(["python3", "/home/user/reward.py"], timeout_s=120)
    assert graded.output.strip().splitlines()[-1] == "REWARD: 1.0"
    save_screenshot(desktop, "calc")  # for people to look at: var/screenshots/desktop-calc.png

    # Reset: a fresh desktop over the task's initial state, where the task is undone again.
    seconds = desktop.reset()
    assert openpyxl.load_workbook(io.BytesIO(desktop.read_file(document))).active["B2"].value is None
    assert desktop.run_script(reward_py, name="reward.py").stdout.strip().splitlines()[-1] == "REWARD: 0.0"
    assert seconds < 30  # generous for a loaded machine; bench/desktop.py measures the real figure
