package main

import (
	"context"
	"flag"

	"hostfall/app"
	"hostfall/cli"
)

// runBrowse is what `hostfall` alone runs: the window on the lobby browser
// of the network client (games on the LAN to join; a created game is hosted
// on this machine). --offline browses nothing and plays on this machine only.
func runBrowse(ctx context.Context, args []string) error {
	var w app.Window
	var n app.Network
	fs := flag.NewFlagSet("browse", flag.ContinueOnError)
	cli.AddWindow(fs, &w)
	cli.AddNetwork(fs, &n, "no network: create games against bots on this machine only")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	return app.Browse(ctx, w, n)
}
