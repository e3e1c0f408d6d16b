#!/usr/bin/env bash
# scripts/fresh.sh [--dry-run]: a newcomer's first run of CI's command. It
# runs .ci/run on a fresh clone of HEAD with an empty $HOME, a private /run
# (a mount namespace of its own with a tmpfs there: nothing a previous run
# or another program left in /run/netns, /run/dbus, … is seen), and empty Go
# caches (GOCACHE, GOMODCACHE and GOPATH in a temporary directory: every
# module is downloaded and every package built), and prints the wall time.
# Debian packages already installed stay installed: on a machine that lacks
# them, the run installs them (as make test does) and its time includes that.
# Needs root (unshare, and the tests need it). It takes about 20 minutes of
# both cores: don't run it beside other work you want to measure.
# --dry-run sets the same up and prints what the run would see, without
# running the tests (a few seconds).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/clone.sh
dry=0
[ "${1:-}" = --dry-run ] && dry=1
[ "$(id -u)" = 0 ] || { echo "fresh: needs root (unshare -m for a private /run; the tests need root too)" >&2; exit 1; }

work=$(mktemp -d /tmp/hostfall-fresh-XXXXXX)
trap 'rm -rf "$work"' EXIT
fresh_clone "$work/hostfall"
mkdir -p "$work/home" "$work/go/cache" "$work/go/mod" "$work/go/path" "$work/tmp"
log=$(mktemp /tmp/hostfall-fresh-log-XXXXXX)

# What runs inside the new mount namespace: /run is a new tmpfs (with the
# directories a booted system has there, and the resolver's file where
# /etc/resolv.conf points into /run), then CI's command.
resolv=$(readlink -f /etc/resolv.conf)
case "$resolv" in /run/*) cp "$resolv" "$work/resolv.conf" ;; *) resolv="" ;; esac
inner='mount -t tmpfs -o mode=0755 tmpfs /run && mkdir -p /run/lock /run/user && chmod 1777 /run/lock &&
  if [ -n "$2" ]; then mkdir -p "$(dirname "$2")" && cp "$3" "$2"; fi && cd "$1" && shift 3 && exec "$@"'
if [ "$dry" = 1 ]; then
  cmd=(bash -c 'echo "HOME=$HOME ($(ls -A "$HOME" | wc -l) entries)"; echo "/run: $(ls -A /run | tr "\n" " ")"; go env GOCACHE GOMODCACHE GOPATH; echo "clone at $(git log -1 --oneline)"; test -x .ci/run && echo ".ci/run is there"')
else
  cmd=(.ci/run)
fi

echo "== fresh run in $work (load before $(loadavg))"
start=$(date +%s)
rc=0
# env -i: nothing of this shell's environment but PATH; Go's settings point
# into the empty directories; -modcacherw lets the cleanup remove the module
# cache.
unshare -m --propagation private bash -c "$inner" inner "$work/hostfall" "$resolv" "$work/resolv.conf" \
  env -i PATH="$PATH" HOME="$work/home" USER=root LANG=C.UTF-8 TERM="${TERM:-dumb}" TMPDIR="$work/tmp" \
  GOCACHE="$work/go/cache" GOMODCACHE="$work/go/mod" GOPATH="$work/go/path" GOFLAGS=-modcacherw \
  "${cmd[@]}" 2>&1 | tee "$log" || rc=$?
took=$(($(date +%s) - start))
echo "== fresh run: $([ "$rc" = 0 ] && echo passed || echo FAILED) in ${took} s wall (load after $(loadavg)); log: $log"
exit "$rc"
