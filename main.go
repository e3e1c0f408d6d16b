// Command hostfall is a peer-to-peer, LAN-first real-time strategy game.
//
// main wires the packages together and owns the command line; it has no game or
// network logic of its own. Each subcommand lives in a cmd_*.go file of its own
// and registers itself, so the commands grow without touching this file.
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
)

// command is one `hostfall NAME …` subcommand.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string) error
}

var commands = map[string]command{}

// register adds a subcommand; called from the init of each cmd_*.go file.
func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("hostfall: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

// defaultCommand runs when hostfall is started with no arguments.
const defaultCommand = "browse"

// errUsage marks a command line the user must correct; it exits with code 2.
var errUsage = errors.New("usage")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:]))
}

func run(ctx context.Context, args []string) int {
	// `hostfall` alone, or with only its flags (`hostfall --name Bob`), is
	// the default command; -h and --help list the commands.
	name := defaultCommand
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
	setupLogging(os.Stderr)
	err := c.run(ctx, args)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(os.Stderr, "hostfall %s: %v\n", name, err)
		return 2
	default:
		fmt.Fprintf(os.Stderr, "hostfall %s: %v\n", name, err)
		return 1
	}
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
		fmt.Fprintf(os.Stderr, "  %-8s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(os.Stderr, "\n`hostfall COMMAND -h` describes a command's flags.")
}
