package main

import (
	"flag"
	"io"
	"log/slog"
	"os"
	"strconv"

	"hostfall/p2p"
)

// Logging is one way for every command: text lines on stderr through
// log/slog's default logger, warnings and errors only unless -v asks for
// detail (debug). go-libp2p's own logs go through the same writer one level
// quieter (errors only; warnings with -v), because its warnings are mostly
// about the network around us rather than about the game.
var (
	logLevel    = new(slog.LevelVar) // the program's level
	libp2pLevel = new(slog.LevelVar) // go-libp2p's level
)

// setupLogging installs the quiet default logger writing to w; run calls it
// before every command, and -v (addVerbose) turns detail on.
func setupLogging(w io.Writer) {
	setVerbose(false)
	slog.SetDefault(slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: logLevel})))
	if os.Getenv("GOLOG_LOG_LEVEL") != "" {
		return // go-libp2p's own per-subsystem levels (e.g. "error,p2p-holepunch=debug") to stderr
	}
	p2p.RouteLibp2pLogs(slog.NewTextHandler(w, &slog.HandlerOptions{Level: libp2pLevel}))
}

func setVerbose(on bool) {
	if on {
		logLevel.Set(slog.LevelDebug)
		libp2pLevel.Set(slog.LevelWarn)
		return
	}
	logLevel.Set(slog.LevelWarn)
	libp2pLevel.Set(slog.LevelError)
}

// addVerbose registers -v on a command's flags: every command takes it.
func addVerbose(fs *flag.FlagSet) {
	fs.Var(&verboseFlag{}, "v", "log details (debug) to stderr; without it only warnings and errors")
}

// verboseFlag is -v: setting it changes the level of the logger at once,
// so commands need no code of their own after parsing.
type verboseFlag struct{ on bool }

func (v *verboseFlag) IsBoolFlag() bool { return true }
func (v *verboseFlag) String() string   { return strconv.FormatBool(v != nil && v.on) }

func (v *verboseFlag) Set(s string) error {
	on, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	v.on = on
	setVerbose(on)
	return nil
}
