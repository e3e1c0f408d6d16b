package logging

import (
	"io"
	"log/slog"
	"os"
	"strconv"

	"hostfall/p2p/transport"
)

// go-libp2p logs one level quieter than the program (errors only; warnings
// with -v), because its warnings are mostly about the network around us
// rather than about the game.
var (
	level       = new(slog.LevelVar) // the program's level
	libp2pLevel = new(slog.LevelVar) // go-libp2p's level
)

// Setup installs the quiet default logger writing to w; package main calls
// it before every command, and -v (Verbose) turns detail on.
func Setup(w io.Writer) {
	SetVerbose(false)
	slog.SetDefault(slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})))
	if os.Getenv("GOLOG_LOG_LEVEL") != "" {
		return // go-libp2p's own per-subsystem levels (e.g. "error,p2p-holepunch=debug") to stderr
	}
	transport.RouteLibp2pLogs(slog.NewTextHandler(w, &slog.HandlerOptions{Level: libp2pLevel}))
}

// SetVerbose turns detail (debug) on or off.
func SetVerbose(on bool) {
	if on {
		level.Set(slog.LevelDebug)
		libp2pLevel.Set(slog.LevelWarn)
		return
	}
	level.Set(slog.LevelWarn)
	libp2pLevel.Set(slog.LevelError)
}

// Verbose is the -v flag's value: setting it changes the level at once, so
// commands need no code of their own after parsing.
type Verbose struct{ on bool }

func (v *Verbose) IsBoolFlag() bool { return true }
func (v *Verbose) String() string   { return strconv.FormatBool(v != nil && v.on) }

func (v *Verbose) Set(s string) error {
	on, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	v.on = on
	SetVerbose(on)
	return nil
}

// Window is the game window's logger: the window is the player's
// interface, so logs stay quiet (warnings on stderr, go-libp2p's own only
// when they are errors).
func Window() *slog.Logger {
	transport.RouteLibp2pLogs(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}
