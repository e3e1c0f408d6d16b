package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"hostfall/game"
	"hostfall/game/ai"
	"hostfall/status"
)

func init() {
	register(command{
		name:    "sim",
		summary: "play bots against each other offline and print the result",
		run:     runSim,
	})
}

// simOptions is the command line of sim (and play).
type simOptions struct {
	players int
	seed    uint64
	turns   int
	size    int
	levels  []ai.Level
	teams   []game.Team
	json    bool
}

func parseSim(name string, args []string) (simOptions, error) {
	o := simOptions{}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.IntVar(&o.players, "players", 4, "number of bots, 2 to 8")
	fs.Uint64Var(&o.seed, "seed", 7, "map and bot seed")
	fs.IntVar(&o.turns, "turns", 12000, "stop after this many turns (20 a second) if nobody has won")
	fs.IntVar(&o.size, "size", game.DefaultMapSize, "map width and height in tiles")
	levels := fs.String("levels", "hard", "bot levels by player, comma separated (easy, hard); the last repeats")
	teams := fs.String("teams", "", "team of each player, comma separated (default: every player alone)")
	fs.BoolVar(&o.json, "status-json", false, "print one JSON object a line (the operating contract)")
	addVerbose(fs)
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return o, err
		}
		return o, fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	if o.turns < 1 {
		return o, fmt.Errorf("%w: --turns must be at least 1", errUsage)
	}
	for _, s := range strings.Split(*levels, ",") {
		l, err := ai.ParseLevel(strings.TrimSpace(s))
		if err != nil {
			return o, fmt.Errorf("%w: %v", errUsage, err)
		}
		o.levels = append(o.levels, l)
	}
	if *teams != "" {
		for _, s := range strings.Split(*teams, ",") {
			t, err := strconv.ParseUint(strings.TrimSpace(s), 10, 8)
			if err != nil {
				return o, fmt.Errorf("%w: --teams wants numbers 0 to 7, got %q", errUsage, s)
			}
			o.teams = append(o.teams, game.Team(t))
		}
		if len(o.teams) != o.players {
			return o, fmt.Errorf("%w: --teams names %d teams for %d players", errUsage, len(o.teams), o.players)
		}
	}
	return o, nil
}

func (o simOptions) config() game.Config {
	c := game.FreeForAll(o.seed, o.players)
	c.Width, c.Height = o.size, o.size
	for p, t := range o.teams {
		c.Players[p].Team = t
	}
	return c
}

func runSim(ctx context.Context, args []string) error {
	o, err := parseSim("sim", args)
	if err != nil {
		return err
	}
	m, err := ai.NewMatch(o.config(), o.levels, o.seed)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	return status.Sim(ctx, m, o.turns, o.json, os.Stdout, os.Stderr)
}
