"""The in-guest desktop server: what runs *inside* a `desktop` env's sandbox.

It boots the session (Xvfb, openbox, a D-Bus session bus with AT-SPI, a LibreOffice profile) and
serves the HTTP routes OSWorld's desktop_env controllers use, with the same request and response
shapes, on a Unix socket under /run/cuagym (it never binds an IP address; the host reaches it only
through infra/envs/desktop/). Every request must carry the token the host wrote on stdin.

This package runs on the desktop venv (infra/desktop_server/requirements.txt) with nothing else of the
host, so it imports only the standard library, that venv, and its own modules — never `infra`.
"""
