// Command hostfall is a peer-to-peer, LAN-first real-time strategy game.
//
// main owns the command line and nothing more: each subcommand's cmd_*.go
// file parses its flags and refuses what the user must correct (exit code
// 2), then hands the work to the package that does it: app for a network
// peer, the window, the LAN list, the relay, the sound demo, the bot
// matches of sim and play --headless and the check of replay --verify. Built without cgo
// (make server), app has no window and no speaker and says so.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"

	"hostfall/app"
	"hostfall/cli"
	"hostfall/client/network"
	"hostfall/logging"
)

// command is one `hostfall NAME …` subcommand.
type command struct {
	summary string
	run     func(ctx context.Context, args []string) error
}

// commands are the subcommands by name; usage lists them in name order.
var commands = map[string]command{
	"browse":  {"open the game window on the lobby browser (what hostfall alone does)", runBrowse},
	"host":    {"host a network game in the window (it starts when N players joined or on Start; --headless: a bot plays; --load FILE resumes a save)", runHost},
	"join":    {"join a network game in the window (--addr MULTIADDR; --headless: a bot plays instead)", runJoin},
	"list":    {"list the sessions on the LAN (mDNS); --watch follows them", runList},
	"play":    {"play against three bots in the game window, on the network (--offline: without it; --headless: four bots in text)", runPlay},
	"relay":   {"run a circuit relay and session directory for players behind NAT", runRelay},
	"replay":  {"play back a replay file in the window, or check it with --headless --verify", runReplay},
	"sim":     {"play bots against each other offline and print the result", runSim},
	"sounds":  {"list the game's sounds, play them, or render them to a WAV file", runSounds},
	"version": {"print the version, commit, Go version, and the game, protocol and rules versions peers must share (also --version)", runVersion},
}

// defaultCommand runs when hostfall is started with no arguments.
const defaultCommand = "browse"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	endProfile := startProfile()
	code := run(ctx, os.Args[1:])
	endProfile()
	os.Exit(code)
}

func run(ctx context.Context, args []string) int {
	// `hostfall` alone, or with only its flags (`hostfall --name Bob`), is
	// the default command; -h and --help list the commands.
	name := defaultCommand
	if len(args) > 0 && (args[0] == "--version" || args[0] == "-version") {
		args[0] = "version"
	}
	if len(args) > 0 && (!strings.HasPrefix(args[0], "-") || isHelp(args[0])) {
		name, args = args[0], args[1:]
	}
	if name == "help" || isHelp(name) {
		usage()
		return 0
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "hostfall: unknown command %q\n\n", name)
		usage()
		return 2
	}
	logging.Setup(os.Stderr)
	err := c.run(ctx, args)
	if errors.Is(err, network.ErrBadRelay) || errors.Is(err, network.ErrNoLastGame) { // a --relay that does not parse; --rejoin with no game
		err = cli.Usagef("%v", err)
	}
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	fmt.Fprintf(os.Stderr, "hostfall %s: %v\n", name, err)
	if errors.Is(err, cli.ErrUsage) || errors.Is(err, app.ErrServerBuild) {
		return 2
	}
	return 1
}

func isHelp(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }

func usage() {
	fmt.Fprintln(os.Stderr, "usage: hostfall [command] [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(os.Stderr, "  %-9s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(os.Stderr, "\n`hostfall COMMAND -h` describes a command's flags.")
	if app.CheckWindow() == app.ErrServerBuild {
		fmt.Fprintf(os.Stderr, "\n%v\n", app.ErrServerBuild)
	}
}
