package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"time"

	"hostfall/p2p"
	"hostfall/status"
)

func init() {
	register(command{
		name:    "list",
		summary: "list the sessions on the LAN (mDNS); --watch follows them",
		run:     runList,
	})
}

func runList(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON (one array; with --watch one event a line)")
	timeout := fs.Duration("timeout", 1500*time.Millisecond, "how long to listen before printing")
	watch := fs.Bool("watch", false, "keep listening and print each session that appears, changes or goes")
	all := fs.Bool("all", false, "also list peers looking for an --auto game")
	var ifaces listFlag
	fs.Var(&ifaces, "iface", "browse only this interface (repeatable; default: every multicast interface)")
	addVerbose(fs)
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	if *timeout <= 0 {
		return fmt.Errorf("%w: --timeout must be positive", errUsage)
	}
	b := p2p.Browse(ctx, p2p.BrowseOptions{Interfaces: ifaces, Logger: slog.Default()})
	defer b.Close()
	keep := func(s *p2p.Seen) bool { return *all || s.State != p2p.AnnLooking }
	if *watch {
		return status.WatchSessions(ctx, b, keep, gameVersion, *asJSON, os.Stdout)
	}
	select {
	case <-ctx.Done():
	case <-time.After(*timeout):
	}
	seen := slices.DeleteFunc(b.Sessions(), func(s p2p.Seen) bool { return !keep(&s) })
	return status.Sessions(os.Stdout, seen, gameVersion, *asJSON)
}
