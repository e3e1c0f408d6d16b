# Hostfall — the two commands are `make play` and `make test`.
# Every target installs what it needs first (scripts/deps.sh installs only what is missing).

GO        ?= go
BIN       := bin/hostfall
FUZZTIME  ?= 60s
SOAK      ?= 10000
RUNS      ?= 1

.PHONY: all deps build server server-all play test test-under-load release release-check bench fuzz soak botgames proto clean

all: build

deps:
	@scripts/deps.sh

build: deps
	$(GO) build -o $(BIN) .

# The server build: static, no window, no sound (relay, list, sim, replay
# --verify, headless host and join); it needs only Go. server-all adds the
# cross builds for a Raspberry Pi (arm64) and old 32-bit machines (386).
SERVER_ARCHS := amd64 arm64 386
server:
	@scripts/server.sh $(BIN)-server amd64

server-all:
	@for a in $(SERVER_ARCHS); do scripts/server.sh $(BIN)-server-linux-$$a $$a || exit 1; done

# play opens the game window on a LAN session with three bots, under way at once
# (ARGS=--lobby waits in the lobby for players on the LAN); it needs an X display.
play: build
	$(BIN) play $(ARGS)

# test also installs what only tests need (Xvfb, qemu, avahi, iptables, mingw-w64
# and Wine, node and the JS rendezvous point); play and build install only what
# the game needs. Its summary gives each stage's wall time and the slowest
# packages and tests.
test:
	@scripts/test.sh --deps

# test-under-load runs CI's command (.ci/run) on a fresh clone of the
# committed HEAD with two CPU hogs (stress-ng --cpu 2) beside it for the whole
# run: the suite must pass on a busy machine (RUNS=3 runs it three times).
test-under-load:
	@scripts/deps.sh --test
	@RUNS=$(RUNS) scripts/underload.sh

# release builds dist/: the game for Windows and Linux and the server builds,
# each archived with its README and licences, and SHA256SUMS (scripts/release.sh).
# release-check runs the release tests make test leaves out (the Windows
# build under Wine, the arm64 and 386 server builds: internal/releasetest),
# then builds the release twice, the second time from a copy elsewhere, and
# compares the bytes. Both need mingw-w64 for the Windows build; the tests
# need Wine, qemu and Xvfb too (what make test installs).
release:
	@scripts/deps.sh --release
	@scripts/release.sh dist

release-check:
	@scripts/deps.sh --test
	@scripts/release-check.sh

# bench measures windows under Xvfb and peers in namespaces: it installs what tests need.
bench:
	@scripts/deps.sh --test
	@scripts/bench.sh

fuzz: deps
	@FUZZTIME=$(FUZZTIME) scripts/fuzz.sh

soak: deps
	@SOAK=$(SOAK) scripts/soak.sh

# Long bot runs: every game ends with a winner, and the levels' win rates
# (SEEDS=50 RANK=20 by default; see scripts/botgames.sh).
botgames: deps
	@scripts/botgames.sh

# Regenerates the committed protobuf code of session/ (installs protoc when missing).
proto:
	@scripts/proto.sh

clean:
	rm -rf bin dist bench-results.txt
