package app

import (
	"fmt"
	"runtime"

	"hostfall/game"
	"hostfall/p2p/transport"
	"hostfall/session"
	"hostfall/version"
)

// VersionInfo is what `hostfall version` prints: which build this is and
// the versions a peer must share with the others to play with them.
type VersionInfo struct {
	Version   string `json:"version"`   // the release, stamped by the build recipe; "dev" otherwise
	Commit    string `json:"commit"`    // the commit built
	Go        string `json:"go"`        // the Go toolchain
	Platform  string `json:"platform"`  // GOOS/GOARCH
	Build     string `json:"build"`     // "full" (window and sound) or "server"
	Game      string `json:"game"`      // GameVersion: peers of another are refused
	Protocol  int    `json:"protocol"`  // session.ProtocolVersion: the same
	Transport string `json:"transport"` // the libp2p protocol of session streams
	Rules     int    `json:"rules"`     // game.RulesVersion: replays and saves of other rules are refused
}

// Version describes this build.
func Version() VersionInfo {
	build := "full"
	if CheckWindow() == ErrServerBuild {
		build = "server"
	}
	return VersionInfo{
		Version: version.String(), Commit: version.Revision(), Go: runtime.Version(),
		Platform: runtime.GOOS + "/" + runtime.GOARCH, Build: build,
		Game: GameVersion, Protocol: session.ProtocolVersion, Transport: transport.ProtocolID, Rules: game.RulesVersion,
	}
}

// String is the text of `hostfall version`.
func (v VersionInfo) String() string {
	return fmt.Sprintf("hostfall %s (%s build, %s)\ncommit:    %s\ngo:        %s\ngame:      %s (session protocol %d, rules %d)\ntransport: %s\n",
		v.Version, v.Build, v.Platform, v.Commit, v.Go, v.Game, v.Protocol, v.Rules, v.Transport)
}
