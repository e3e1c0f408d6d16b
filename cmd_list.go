package main

import (
	"context"
	"flag"
	"os"
	"time"

	"hostfall/app"
	"hostfall/cli"
)

func runList(ctx context.Context, args []string) error {
	var l app.Listing
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	fs.BoolVar(&l.JSON, "json", false, "print JSON (one array; with --watch one event a line)")
	fs.DurationVar(&l.Timeout, "timeout", 1500*time.Millisecond, "how long to listen before printing")
	fs.BoolVar(&l.Watch, "watch", false, "keep listening and print each session that appears, changes or goes")
	fs.BoolVar(&l.All, "all", false, "also list peers looking for an --auto game")
	fs.Var((*cli.Strings)(&l.Interfaces), "iface", "browse only this interface (repeatable; default: every multicast interface)")
	cli.AddVerbose(fs)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if l.Timeout <= 0 {
		return cli.Usagef("--timeout must be positive")
	}
	return app.List(ctx, l, os.Stdout)
}
