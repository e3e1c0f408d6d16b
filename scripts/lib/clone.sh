# Sourced by scripts/underload.sh and scripts/fresh.sh: what a newcomer's
# checkout is.
# fresh_clone DIR: a clone of this tree's committed HEAD in DIR (uncommitted
# changes are not in it: commit first), with no build outputs and no
# node_modules (scripts/deps.sh --test installs them).
fresh_clone() {
  local dir=$1
  git clone -q --no-hardlinks "$PWD" "$dir"
  git -C "$dir" checkout -q --detach "$(git rev-parse HEAD)"
  if ! git diff --quiet HEAD 2>/dev/null; then
    echo "note: this tree has uncommitted changes; the clone has HEAD ($(git rev-parse --short HEAD)) only" >&2
  fi
}

# loadavg: the load averages of 1, 5 and 15 minutes.
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
