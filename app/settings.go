package app

import (
	"errors"
	"io"

	"hostfall/game/ai"
	"hostfall/p2p/codes"
	"hostfall/settings"
)

// The full build (cgo) has the window and the speaker; the server build
// (CGO_ENABLED=0, static: a relay or a headless peer on a VPS or a Raspberry
// Pi with no X11, OpenGL or ALSA) answers what needs them with ErrServerBuild.
// The settings below are plain data, so the command line reads them in both.

// ErrServerBuild is the server build's answer to a command that needs the
// window or the speaker; the command line exits with code 2 on it.
var ErrServerBuild = errors.New("this is the server build of hostfall; the window needs the full build: make build " +
	"(this one runs relay, list, sim, replay --headless --verify, and host, join and play with --headless)")

// Window is the game window of a command. What the command line leaves
// zero comes from the player's settings (the full build's options.go).
type Window struct {
	Name          string // the player's name
	Width, Height int
	FPS           int // frame rate cap
	Mute          bool

	saved      *settings.Settings // the settings file, once read (withSettings)
	fullscreen bool
}

// Network is the network of a window that browses or plays (browse, play).
type Network struct {
	Offline  bool     // no network: games against bots on this machine only
	Identity string   // "" means $HOSTFALL_IDENTITY or the user's config dir
	Listen   []string // multiaddrs; none means every interface
	Relay    string   // a Hostfall relay's multiaddr, or ""
	// Internet puts the window's peer on the public libp2p network (nil: LAN only).
	Internet *codes.InternetConfig
}

// Skirmish is a game of the player against bots.
type Skirmish struct {
	Seed  uint64 // 0: a new map each time
	Size  int
	Bots  []ai.Level
	Lobby bool   // stay in the lobby, every free slot open to players on the LAN
	Load  string // resume this save on this machine instead
}

// SoundDemo is what `hostfall sounds` plays, or renders to a WAV file.
type SoundDemo struct {
	Names []string // none: list the sound names on Out
	Times int      // each name's plays
	Seed  uint64   // of the random choice among a group's lines
	WAV   string   // render to this file instead of the speaker
	Out   io.Writer
}

// ErrUnknownSound marks a SoundDemo name that is not one of the game's sounds.
var ErrUnknownSound = errors.New("`hostfall sounds` lists them")
