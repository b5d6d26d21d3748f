#!/usr/bin/env bash
# Install the Debian packages cuagym needs, only those missing (idempotent, quiet when all present).
set -euo pipefail
PACKAGES=(bubblewrap python3 python3-venv util-linux chromium
  xvfb xfonts-base openbox wmctrl xdotool dbus-daemon at-spi2-core python3-pyatspi gir1.2-atspi-2.0
  libreoffice-calc libreoffice-writer libreoffice-impress libreoffice-gtk3
  fonts-dejavu-core fonts-liberation fonts-crosextra-carlito fonts-crosextra-caladea)
missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing Debian packages: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "need root (or sudo) to run: apt-get install ${missing[*]}" >&2; exit 1; }
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
