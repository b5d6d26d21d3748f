"""Routes that run commands in the guest: /execute, /setup/execute, /execute_with_verification,
/setup/execute_with_verification, /run_python, /run_bash_script, /setup/launch — request and response
shapes as OSWorld's desktop_env server (Flask) has them.

/execute_with_verification runs the command, then polls `verification` every `check_interval` s
for up to `max_wait_time` s: `window_exists` (a title substring, case-insensitive) and/or
`command_success` (a shell command that must exit 0 within 5 s). Passed: the /execute reply plus
`verification: "passed"` and `wait_time`; not passed in time: 500 with `status:
"verification_failed"`.

cuagym extensions, which OSWorld's controllers never send: /execute accepts `timeout` (seconds,
default 120 as OSWorld) and `env` (extra variables); a timed-out /execute answers 500 with
`timed_out: true`. /run_python runs `python3` from PATH (the desktop venv), where OSWorld's server
names /usr/bin/python3 (its VM's system Python has the same libraries).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

from starlette.requests import Request
from starlette.routing import Route

from .replies import HttpError, json_body, reply, run_captured, text
from .routes_windows import list_windows
from .session import Session

EXECUTE_TIMEOUT_S = 120.0  # OSWorld's fixed value
RUN_PYTHON_TIMEOUT_S = 30.0
BASH_DEFAULT_TIMEOUT_S = 100.0
VERIFY_COMMAND_TIMEOUT_S = 5.0  # OSWorld's, for each `command_success` check


def _command(data: dict) -> tuple[list[str] | str, bool]:
    """OSWorld's reading of {command, shell}: a str without shell is split, `~/` args expanded."""
    shell = bool(data.get("shell", False))
    command = data.get("command", "" if shell else [])
    if isinstance(command, str) and not shell:
        command = shlex.split(command)
    if isinstance(command, list):
        if not all(isinstance(arg, str) for arg in command):
            raise HttpError(400, {"status": "error", "message": "command must be a list of strings"})
        command = [os.path.expanduser(arg) if arg.startswith("~/") else arg for arg in command]
    if not command:
        raise HttpError(400, {"status": "error", "message": "command is empty"})
    return command, shell


def make_routes(session: Session) -> list[Route]:
    async def execute(request: Request):
        data = await json_body(request)
        command, shell = _command(data)
        timeout_s = float(data.get("timeout", EXECUTE_TIMEOUT_S))
        extra_env = data.get("env") or None
        if extra_env is not None and not all(isinstance(v, str) for v in dict(extra_env).values()):
            raise HttpError(400, {"status": "error", "message": "env values must be strings"})
        return await _in_thread(_execute, command, shell, timeout_s, extra_env)

    def _execute(command, shell, timeout_s, extra_env):
        return reply(_run(command, shell, timeout_s, extra_env))

    def _run(command, shell, timeout_s, extra_env=None) -> dict:
        try:
            code, out, err = run_captured(command, shell=shell, timeout_s=timeout_s, env=extra_env)
        except subprocess.TimeoutExpired:
            raise HttpError(
                500,
                {
                    "status": "error",
                    "timed_out": True,
                    "message": f"command timed out after {timeout_s:g} seconds",
                },
            ) from None
        except OSError as exc:
            raise HttpError(500, {"status": "error", "message": str(exc)}) from None
        return {"status": "success", "output": out, "error": err, "returncode": code}

    async def execute_with_verification(request: Request):
        data = await json_body(request)
        command, shell = _command(data)
        verification = data.get("verification") or {}
        if not isinstance(verification, dict):
            raise HttpError(400, {"status": "error", "message": "verification must be an object"})
        try:
            max_wait_s = float(data.get("max_wait_time", 10))
            interval_s = max(float(data.get("check_interval", 1)), 0.05)
        except (TypeError, ValueError):
            raise HttpError(
                400, {"status": "error", "message": "max_wait_time and check_interval are seconds"}
            ) from None
        return await _in_thread(_execute_verified, command, shell, verification, max_wait_s, interval_s)

    def _execute_verified(command, shell, verification: dict, max_wait_s: float, interval_s: float):
        result = _run(command, shell, EXECUTE_TIMEOUT_S)
        if not verification:
            return reply(result)
        started = time.monotonic()
        while True:
            if _verified(verification):
                return reply({**result, "verification": "passed", "wait_time": time.monotonic() - started})
            if time.monotonic() - started + interval_s > max_wait_s:
                break
            time.sleep(interval_s)
        raise HttpError(
            500,
            {**result, "status": "verification_failed", "verification": "failed", "wait_time": max_wait_s},
        )

    async def run_python(request: Request):
        data = await json_body(request)
        code = data.get("code")
        if not code:
            raise HttpError(400, {"status": "error", "message": "Code not supplied!"})
        return await _in_thread(_run_python, str(code))

    def _run_python(code: str):
        script = Path(tempfile.gettempdir()) / f"python_exec_{uuid.uuid4().hex}.py"
        script.write_text(code, encoding="utf-8")
        try:
            returncode, out, err = run_captured(
                ["python3", str(script)], shell=False, timeout_s=RUN_PYTHON_TIMEOUT_S
            )
        except subprocess.TimeoutExpired:
            raise HttpError(
                500,
                {
                    "status": "error",
                    "message": "Execution timeout: Code took too long to execute",
                    "error": "TimeoutExpired",
                    "need_more": False,
                    "output": None,
                },
            ) from None
        except OSError as exc:
            raise HttpError(
                500,
                {
                    "status": "error",
                    "message": f"Execution error: {exc}",
                    "error": str(exc),
                    "need_more": False,
                    "output": None,
                },
            ) from None
        finally:
            script.unlink(missing_ok=True)
        if returncode != 0 and not err:
            err = f"Process exited with code {returncode}"
        message = out + (("\n" if out else "") + err if err else "")
        return reply(
            {
                "status": "success" if returncode == 0 else "error",
                "message": message,
                "need_more": False,
                "output": out,
                "error": err,
                "return_code": returncode,
            }
        )

    async def run_bash_script(request: Request):
        data = await json_body(request)
        script = data.get("script")
        if not script:
            raise HttpError(
                400, {"status": "error", "output": "Script not supplied!", "error": "", "returncode": -1}
            )
        timeout_s = float(data.get("timeout") or BASH_DEFAULT_TIMEOUT_S)
        working_dir = data.get("working_dir")
        if working_dir:
            working_dir = os.path.expanduser(working_dir)
            if not os.path.exists(working_dir):
                raise HttpError(
                    400,
                    {
                        "status": "error",
                        "output": f"Working directory does not exist: {working_dir}",
                        "error": "",
                        "returncode": -1,
                    },
                )
        return await _in_thread(_run_bash, str(script), timeout_s, working_dir)

    def _run_bash(script: str, timeout_s: float, working_dir: str | None):
        if "#!/bin/bash" not in script:
            script = "#!/bin/bash\n\n" + script
        path = Path(tempfile.gettempdir()) / f"bash_exec_{uuid.uuid4().hex}.sh"
        path.write_text(script, encoding="utf-8")
        try:
            code, out, _ = run_captured(
                ["/bin/bash", str(path)], shell=False, timeout_s=timeout_s, cwd=working_dir, merge_stderr=True
            )
        except subprocess.TimeoutExpired:
            raise HttpError(
                500,
                {
                    "status": "error",
                    "output": f"Script execution timed out after {timeout_s:g} seconds",
                    "error": "",
                    "returncode": -1,
                },
            ) from None
        except OSError as exc:
            raise HttpError(
                500, {"status": "error", "output": str(exc), "error": "", "returncode": -1}
            ) from None
        finally:
            path.unlink(missing_ok=True)
        return reply(
            {"status": "success" if code == 0 else "error", "output": out, "error": "", "returncode": code}
        )

    async def launch(request: Request):
        data = await json_body(request)
        command, shell = _command(data)
        try:
            session.spawn(command, shell=shell)
        except OSError as exc:
            raise HttpError(500, {"status": "error", "message": str(exc)}) from None
        shown = command if shell or isinstance(command, str) else " ".join(command)
        return text(f"{shown} launched successfully")

    return [
        Route("/execute", execute, methods=["POST"]),
        Route("/setup/execute", execute, methods=["POST"]),
        Route("/execute_with_verification", execute_with_verification, methods=["POST"]),
        Route("/setup/execute_with_verification", execute_with_verification, methods=["POST"]),
        Route("/run_python", run_python, methods=["POST"]),
        Route("/run_bash_script", run_bash_script, methods=["POST"]),
        Route("/setup/launch", launch, methods=["POST"]),
    ]


def _verified(verification: dict) -> bool:
    """Whether every check in OSWorld's `verification` holds now."""
    name = verification.get("window_exists")
    if name is not None:
        titles = "\n".join(title for _, title in list_windows()).lower()
        if str(name).lower() not in titles:
            return False
    check = verification.get("command_success")
    if check is not None:
        try:
            code, _, _ = run_captured(str(check), shell=True, timeout_s=VERIFY_COMMAND_TIMEOUT_S)
        except (subprocess.TimeoutExpired, OSError):
            return False
        if code != 0:
            return False
    return True


async def _in_thread(fn, *args):
    """Blocking work (a subprocess) off the event loop, so one slow command never stalls the others."""
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(fn, *args)
