// Package deploy is the server build of hostfall and its recipes: the
// relay's container (relay/Dockerfile) around the static binary that
// scripts/server.sh builds (make server, make server-all). It has no code;
// its tests build that binary for linux/amd64, arm64 and 386, once each per
// run, and check what a server operator relies on: the binary is static and
// carries no cgo, it runs the relay and a headless game in a chroot that
// holds nothing else (what the FROM scratch image holds), and every
// architecture plays the same seeded game to the same end. They also run
// the release's Windows game build under Wine (internal/wine) and check that
// its seeded games end as the Linux build's do, that it is a GUI program
// whose headless commands print to the console they were started from, and
// that its window draws. That the same commit gives
// the same bytes is make release-check's to show (scripts/release-check.sh).
package deploy
