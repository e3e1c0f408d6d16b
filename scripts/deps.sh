#!/usr/bin/env bash
# Installs what building and testing Hostfall needs, and only what is missing.
# Debian packages come from apt-get (through sudo when not root); Go modules from
# the module proxy. Safe to run again: a machine that has everything is left alone.
# With --test (make test) also what only tests need: Xvfb, qemu, avahi, the
# network tools, mingw-w64 and Wine, node and the JS rendezvous point's
# packages (from the npm registry), and staticcheck (scripts/staticcheck.sh,
# from the module proxy). With --release (make release) also
# mingw-w64, the Windows build's compiler.
set -euo pipefail
for_tests=0
for_release=0
[ "${1:-}" = --test ] && for_tests=1
[ "${1:-}" = --release ] && for_release=1

# Each package, and why we need it. Without --test (make play, make build)
# only what building and running the game needs: the compiler and the
# development headers of OpenGL, X11 and ALSA.
packages=(
  gcc pkg-config                      # cgo: GLFW (pixel) and ALSA (beep speaker)
  libgl1-mesa-dev libx11-dev          # pixel: OpenGL and X11 headers
  libxcursor-dev libxrandr-dev libxinerama-dev libxi-dev libxxf86vm-dev
  libasound2-dev                      # beep speaker (oto v3 on ALSA)
)
if [ "$for_release" = 1 ]; then
  packages+=(gcc-mingw-w64-x86-64) # make release: the Windows build's cgo cross-compiler
fi
if [ "$for_tests" = 1 ]; then
  packages+=(
    xvfb xauth x11-apps netpbm        # headless windows and screenshots in tests
    libgl1-mesa-dri                   # Mesa llvmpipe: software OpenGL for the window under Xvfb (render tests)
    iproute2 iptables                 # network namespaces, veth, netem, NAT in tests
    avahi-utils                       # avahi-browse: checks that our mDNS records are valid DNS-SD
    avahi-daemon dbus-daemon          # avahi-browse asks a daemon; the LAN tests run one in a namespace
    python3-zeroconf                  # a second DNS-SD reader of our mDNS records (p2p/e2e TestDNSSDZeroconf)
    qemu-user                         # qemu-i386: the GOARCH=386 tests where the kernel has no 32-bit support; qemu-aarch64: the arm64 server build (deploy tests)
    gcc-mingw-w64-x86-64              # the Windows build (cgo cross-compiler) and the tests' ProcessPrng shim (internal/wine)
    wine64                            # runs the Windows build in tests: its sims, LAN games and window (internal/wine)
  )
  packages+=(python3 make g++) # node-gyp: better-sqlite3, the store of the JS rendezvous point, builds from source
  packages+=(stress-ng)        # make test-under-load: two CPU hogs beside the whole suite
  packages+=(miniupnpd-iptables natpmpc) # a UPnP-IGD and NAT-PMP router in a namespace (p2p/e2e TestInternetUPnP); natpmpc checks a mapping by hand
  # node, npm and node's headers run the third-party rendezvous point the directory
  # is tested against (tools/rendezvous-js). Only when missing: a node from NodeSource
  # ships all three and conflicts with Debian's packages of them.
  command -v node >/dev/null 2>&1 || packages+=(nodejs)
  command -v npm >/dev/null 2>&1 || packages+=(npm)
  [ -e /usr/include/node/node_api.h ] || packages+=(libnode-dev)
fi

need_go="1.26"

die() { printf 'deps: %s\n' "$*" >&2; exit 1; }

check_go() {
  command -v go >/dev/null 2>&1 ||
    die "Go is not installed. Install Go $need_go or newer from https://go.dev/dl/ and put it on PATH."
  local v
  v=$(go env GOVERSION | sed 's/^go//')
  if [ "$(printf '%s\n%s\n' "$need_go" "$v" | sort -V | head -n1)" != "$need_go" ]; then
    die "Go $v is too old; Hostfall needs Go $need_go or newer (https://go.dev/dl/)."
  fi
}

missing_packages() {
  local p
  for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
      printf '%s\n' "$p"
    fi
  done
}

install_packages() {
  command -v dpkg-query >/dev/null 2>&1 || {
    echo "deps: not a Debian-like system; make sure these are installed: ${packages[*]}" >&2
    return 0
  }
  local missing
  mapfile -t missing < <(missing_packages)
  [ "${#missing[@]}" -eq 0 ] && return 0

  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      sudo=(sudo)
    else
      die "missing Debian packages: ${missing[*]}
      Install them as root:  sudo apt-get install -y ${missing[*]}
      then run this again."
    fi
  fi
  echo "deps: installing these Debian packages with apt-get: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq ||
    die "apt-get update failed; check the network or /etc/apt/sources.list, then run this again."
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
    die "apt-get install failed for: ${missing[*]}. Run it by hand to see why: apt-get install ${missing[*]}"
}

install_modules() {
  go mod download ||
    die "go mod download failed. The module proxy must be reachable (go env GOPROXY); go.sum is committed, so a download that fails checking a module against the checksum database can be retried with GOSUMDB=off."
}

# The JS rendezvous point's packages, at the versions package-lock.json pins.
# better-sqlite3's prebuilt binaries come from GitHub, which is not always
# reachable: it is built from source, against the installed node's headers.
install_js() {
  local dir=tools/rendezvous-js
  if [ -e "$dir/node_modules/better-sqlite3/build/Release/better_sqlite3.node" ] &&
    [ -e "$dir/node_modules/@canvas-js/libp2p-rendezvous/package.json" ]; then
    return 0
  fi
  local major
  major=$(node -p 'process.versions.node.split(".")[0]')
  if [ "$major" -lt 20 ]; then
    echo "deps: node $(node --version) is older than the node 20 the JS rendezvous point was tested with; its test may fail. Node 20 or newer: https://nodejs.org/ or NodeSource's packages." >&2
  fi
  # A fresh clone would build better-sqlite3 again (about three minutes):
  # what npm ci made is kept per lock file, node version and machine, as Go
  # keeps its build cache, and copied in when it is there.
  local key cache
  key=$( (cat "$dir/package-lock.json"; node --version; uname -m) | sha256sum | cut -c1-16)
  cache="${XDG_CACHE_HOME:-$HOME/.cache}/hostfall/rendezvous-js/$key"
  if [ -d "$cache/node_modules" ]; then
    echo "deps: the JS rendezvous point's packages from $cache"
    rm -rf "$dir/node_modules"
    cp -a "$cache/node_modules" "$dir/node_modules" && return 0
  fi
  echo "deps: installing the JS rendezvous point's packages (npm ci in $dir; better-sqlite3 builds from source, a few minutes)"
  (cd "$dir" && npm_config_nodedir=/usr npm_config_build_from_source=true npm ci --no-audit --no-fund) ||
    die "npm ci in $dir failed. It needs the npm registry, python3, make and g++ and node's headers in /usr/include/node; run it by hand there to see why."
  # Into the cache by rename, so a run beside this one never reads half a copy.
  mkdir -p "$(dirname "$cache")"
  local tmp
  tmp=$(mktemp -d "$(dirname "$cache")/.tmp.XXXXXX")
  chmod 755 "$tmp"
  if cp -a "$dir/node_modules" "$tmp/node_modules" && mv -T "$tmp" "$cache" 2>/dev/null; then
    return 0
  fi
  rm -rf "$tmp"
}

cd "$(dirname "$0")/.."
check_go
install_packages
install_modules
if [ "$for_tests" = 1 ]; then
  install_js
  scripts/staticcheck.sh --install || exit 1
fi
