package main

import (
	"context"
	"errors"
	"flag"
	"os"

	"hostfall/app"
	"hostfall/cli"
	"hostfall/game"
	"hostfall/game/ai"
)

// runPlay is what `make play` starts: the window on a new network session
// hosted on this machine, three bots in the other slots, the game under way
// (--lobby: the lobby stays open for players on the LAN to join). --offline
// plays the same without the network; --headless watches four bots in text.
func runPlay(ctx context.Context, args []string) error {
	if cli.Has(args, "headless") {
		return runPlayText(ctx, cli.Drop(args, "headless"))
	}
	var w app.Window
	var n app.Network
	var s app.Skirmish
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	cli.AddWindow(fs, &w)
	cli.AddNetwork(fs, &n, "play on this machine only, without the network")
	fs.Uint64Var(&s.Seed, "seed", 0, "map seed (0: a new map each time)")
	fs.IntVar(&s.Size, "size", game.DefaultMapSize, "map width and height in tiles")
	levels := fs.String("levels", ai.FormatLevels(ai.Quick()), "levels of the bots, comma separated (easy, normal, hard); their number is the number of bots")
	fs.BoolVar(&s.Lobby, "lobby", false, "stay in the lobby, with every free slot open, so players on the LAN can join")
	fs.Bool("headless", false, "no window: watch four bots play in text (takes the flags of sim)")
	fs.StringVar(&s.Load, "load", "", "resume a saved game (bots take over the other players)")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	var err error
	if s.Bots, err = ai.ParseLevels(*levels); err != nil {
		return cli.Usagef("%v", err)
	}
	if len(s.Bots) < 1 || len(s.Bots) > game.MaxPlayers-1 {
		return cli.Usagef("--levels names %d bots; a game takes 1 to %d", len(s.Bots), game.MaxPlayers-1)
	}
	if s.Lobby && (n.Offline || s.Load != "") {
		return cli.Usagef("--lobby waits for players on the LAN; it does not go with --offline or --load")
	}
	return app.Play(ctx, w, n, s)
}

// runPlayText is `play --headless`: four bots play an offline match and the
// result is printed.
func runPlayText(ctx context.Context, args []string) error {
	if !cli.Has(args, "levels") {
		args = append([]string{"--levels", "hard,easy,hard,easy"}, args...)
	}
	m, b, _, err := parseSim("play", args)
	if err != nil {
		return err
	}
	done, err := b.RecordFile(m)
	if err != nil {
		return err
	}
	return errors.Join(b.Watch(ctx, m, os.Stdout), done(false))
}
