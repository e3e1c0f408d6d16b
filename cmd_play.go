package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"hostfall/client"
	"hostfall/client/network"
	"hostfall/client/offline"
	"hostfall/game"
	"hostfall/game/ai"
	"hostfall/render"
	"hostfall/status"
)

// play is what `make play` starts: the window on a new network session
// hosted on this machine, three bots in the other slots, the game under way
// (--lobby: the lobby stays open for players on the LAN to join). --offline
// plays the same without the network; --headless watches four bots in text.
func init() {
	register(command{
		name:    "play",
		summary: "play against three bots in the game window, on the network (--offline: without it; --headless: four bots in text)",
		run:     runPlay,
	})
}

func runPlay(ctx context.Context, args []string) error {
	if hasFlag(args, "headless") {
		return runPlayText(ctx, dropFlag(args, "headless"))
	}
	var w windowFlags
	var nf netWindowFlags
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	w.add(fs)
	nf.add(fs, "play on this machine only, without the network")
	seed := fs.Uint64("seed", 0, "map seed (0: a new map each time)")
	size := fs.Int("size", game.DefaultMapSize, "map width and height in tiles")
	levels := fs.String("levels", "easy,easy,easy", "levels of the bots, comma separated (easy, hard); their number is the number of bots")
	lobby := fs.Bool("lobby", false, "stay in the lobby, with every free slot open, so players on the LAN can join")
	fs.Bool("headless", false, "no window: watch four bots play in text (takes the flags of sim)")
	load := fs.String("load", "", "resume a saved game (bots take over the other players)")
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	var bots []uint8
	for _, s := range strings.Split(*levels, ",") {
		l, err := ai.ParseLevel(strings.TrimSpace(s))
		if err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		bots = append(bots, uint8(l))
	}
	if len(bots) < 1 || len(bots) > game.MaxPlayers-1 {
		return fmt.Errorf("%w: --levels names %d bots; a game takes 1 to %d", errUsage, len(bots), game.MaxPlayers-1)
	}
	if *lobby && (nf.offline || *load != "") {
		return fmt.Errorf("%w: --lobby waits for players on the LAN; it does not go with --offline or --load", errUsage)
	}
	if err := render.CheckDisplay(); err != nil {
		return err
	}
	opt := client.CreateOptions{Name: w.name + "'s skirmish", PlayerName: w.name, MapSeed: *seed, MapSize: *size}
	if nf.offline || *load != "" {
		// A save resumes on this machine: bots take over the other players.
		c := offline.New(offline.Options{Name: w.name, Countdown: 1, SaveDir: saveDir()})
		defer c.Close()
		opt.Name = "Skirmish"
		var err error
		if *load != "" {
			err = c.Load(*load)
		} else {
			err = c.Skirmish(opt, bots)
		}
		if err != nil {
			return err
		}
		return openWindow(ctx, c, w)
	}
	c, err := startNetClient(ctx, nf, func(o *network.Options) {
		if !*lobby {
			o.Session.CountdownTicks = 1 // the game is under way when the window opens
		}
	})
	if err != nil {
		return err
	}
	defer c.Close()
	if *lobby {
		opt.MaxPlayers = game.MaxPlayers
	}
	if err := c.Skirmish(opt, bots, *lobby); err != nil {
		return err
	}
	return openWindow(ctx, c, w)
}

// dropFlag removes every --name and --name=… from args.
func dropFlag(args []string, name string) []string {
	var out []string
	for _, a := range args {
		t := strings.TrimLeft(a, "-")
		if t == name || strings.HasPrefix(t, name+"=") {
			continue
		}
		out = append(out, a)
	}
	return out
}

// runPlayText is `play --headless`: four bots play an offline match and the
// result is printed.
func runPlayText(ctx context.Context, args []string) error {
	if !hasFlag(args, "levels") {
		args = append([]string{"--levels", "hard,easy,hard,easy"}, args...)
	}
	o, err := parseSim("play", args)
	if err != nil {
		return err
	}
	m, err := ai.NewMatch(o.config(), o.levels, o.seed)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	return status.Watch(ctx, m, o.turns, o.seed, os.Stdout)
}

func hasFlag(args []string, name string) bool {
	for _, a := range args {
		a = strings.TrimLeft(a, "-")
		if a == name || strings.HasPrefix(a, name+"=") {
			return true
		}
	}
	return false
}
