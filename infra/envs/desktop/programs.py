"""The program half of a desktop env: the apps a task's config.json launches (Chromium, Thunderbird,
a code editor — `opens: {by: program}` in their declaration), documents opened by an app's own
command (`opens: {by: document, command: …}`: GIMP, VLC), and the evaluator's postconfig run before
grading (asking such apps to exit, so that what they keep in memory is on disk for reward.py).

`DesktopPrograms` is mixed into DesktopEnv (infra/envs/desktop/env.py); it reads the env's `client`,
`wait_for_window` and `provider`.
"""

from __future__ import annotations

import contextlib
from pathlib import Path, PurePosixPath

from infra import apps
from infra.envs.desktop.sandbox import GUEST_FRAME_BEFORE, SAVE_FRAME, SETTLE
from infra.envs.desktop.setup import LaunchStep, OsworldTask, run_postconfig
from infra.errors import DesktopError


class DesktopPrograms:
    """Launched programs, documents opened by command, and the postconfig before grading."""

    programs: list[tuple[str, ...]]  # the program apps the task's setup launched; reset() relaunches them
    _grading: tuple[OsworldTask, Path] | None  # the task whose postconfig runs before grading
    _frame_before: str  # the screen saved before the task's setup launched its programs ("" if none)

    def _await_programs(self, task: OsworldTask, timeout_s: float) -> list[tuple[str, ...]]:
        """Wait for the window of each program app the config's setup launched; its commands."""
        windows = apps.program_windows()
        launched = [tuple(s.parameters.command) for s in task.config if isinstance(s, LaunchStep)]
        programs = [command for command in launched if command in windows]
        for n, command in enumerate(programs):
            # the frame from before setup tells only the first window apart: by the second, the
            # first has changed the screen, so that one waits by the patient rule
            self._show(windows[command], timeout_s, before=self._frame_before if n == 0 else "")
        return programs

    def relaunch_programs(self, timeout_s: float = 60.0) -> None:
        """Start the programs the setup launched again (after a reset) and wait for their windows."""
        windows = apps.program_windows()
        for command in self.programs:
            before = self.save_frame_before()
            self.client.launch(list(command))
            self._show(windows[command], timeout_s, before=before)

    def open_document(self, guest_path: str, *, timeout_s: float = 120.0) -> None:
        """Open a guest file in its app — an app's own command when it declares one (its window is
        the one whose title names the file), else the guest server's open_file (LibreOffice)."""
        command = apps.document_commands().get(PurePosixPath(guest_path).suffix.lower())
        if command is None:
            self.client.open_file(guest_path, timeout_s=timeout_s)
            return
        before = self.save_frame_before()
        self.client.launch([*command, guest_path])
        self._show(PurePosixPath(guest_path).stem, timeout_s, before=before)

    def prepare_grading(self) -> None:
        """Run the set-up task's evaluator postconfig (not its uploads): before reward.py reads the
        state, as OSWorld runs it before its getters. Nothing for a desktop set up otherwise."""
        if self._grading is not None:
            task, base_dir = self._grading
            run_postconfig(self.client, task, base_dir)

    def save_frame_before(self) -> str:
        """Save the screen in the guest before an app starts; the path `_show` compares against (a
        window that has painted by the time it is found then costs half a second, not 2.5)."""
        saved = self.client.execute(["python3", "-c", SAVE_FRAME, GUEST_FRAME_BEFORE], timeout_s=60)
        return GUEST_FRAME_BEFORE if saved.returncode == 0 else ""  # else: the patient rule

    def _show(self, title_part: str, timeout_s: float, before: str = "") -> None:
        title = self.wait_for_window(title_part, timeout_s=timeout_s)
        with contextlib.suppress(DesktopError):  # the app may retitle it meanwhile
            self.client.activate_window(title, strict=True)
        self.client.execute(["python3", "-c", SETTLE, "20", "", before], timeout_s=60)
