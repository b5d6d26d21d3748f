#!/usr/bin/env bash
# Prove the README's two commands where nothing of this checkout can help them: a fresh clone of
# the committed tree (no .venv, no var/, no output/) and an environment with nothing but PATH and
# HOME. Runs `make demo`, then `make test`, and prints how each ended. Uncommitted work is not
# tested: commit first. Debian packages already on the machine stay; the list they come from is
# infra/setup/apt-packages.txt, and tests/test_system_packages.py checks nothing used is missing from it.
set -uo pipefail
src="$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
work="$(mktemp -d /tmp/cuagym-fresh-XXXXXX)"
git clone -q "$src" "$work/cuagym" || exit 1
rev="$(git -C "$work/cuagym" rev-parse --short HEAD)"
echo "fresh clone of $rev in $work/cuagym (logs: $work/*.log)"
results=()
status=0
for target in demo test; do
  started=$(date +%s)
  env -i PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" HOME="$HOME" \
    make -C "$work/cuagym" "$target" >"$work/$target.log" 2>&1
  rc=$?
  [ $rc -eq 0 ] || status=1
  results+=("make $target|$rc|$(( $(date +%s) - started )) s|$(tail -n 1 "$work/$target.log" | cut -c1-80)")
done
printf '\n%-10s %-4s %-8s %s\n' command exit time "last line"
for row in "${results[@]}"; do
  IFS='|' read -r cmd rc secs last <<<"$row"
  printf '%-10s %-4s %-8s %s\n' "$cmd" "$rc" "$secs" "$last"
done
exit $status
