package main

import (
	"context"
	"flag"

	"hostfall/app"
	"hostfall/cli"
	"hostfall/game"
	"hostfall/game/ai"
)

func runHost(ctx context.Context, args []string) error {
	var p cli.HostJoinFlags
	var g app.Game
	fs := flag.NewFlagSet("host", flag.ContinueOnError)
	p.Add(fs)
	fs.StringVar(&g.Name, "name", "", "session name (required, unless --auto, or --load names it)")
	fs.BoolVar(&p.Auto, "auto", false, "no session name: the peers started with --auto on the LAN agree on one host, and this one hosts or joins (the host's flags set the game)")
	fs.IntVar(&g.Players, "players", 2, "start when this many players (this one included) have joined")
	fs.IntVar(&g.Bots, "bots", 0, "bot slots besides the players")
	fs.Uint64Var(&g.Turns, "turns", 12000, "end the game at this turn if nobody has won (20 turns a second)")
	fs.Uint64Var(&g.Seed, "seed", 7, "map seed")
	fs.IntVar(&g.Size, "size", game.DefaultMapSize, "map width and height in tiles")
	fs.Uint64Var(&g.SaveAt, "save-at", 0, "save the game after this turn into the data dir's saves/ (0 = never)")
	load := fs.String("load", "", "resume a saved game: its players rejoin their slots, and the game starts when all are back")
	away := fs.String("away", "hold", "what an away player's slot does until the player is back: hold (its units stay where they are), or a bot level (easy, normal, hard) that plays it")
	if err := p.Parse(fs, args); err != nil {
		return err
	}
	if *away != "hold" {
		l, err := ai.ParseLevel(*away)
		if err != nil {
			return cli.Usagef("--away: %v, or hold", err)
		}
		g.AwayBot = uint32(l) + 1
	}
	if !p.Headless && (*load != "" || g.SaveAt != 0) {
		return cli.Usagef("--load and --save-at go with --headless; in the window, save from the pause menu and load with `hostfall play --load`")
	}
	if *load != "" {
		return hostSaved(ctx, p.HostJoin, g, *load, cli.Given(fs))
	}
	if err := checkGame(p.HostJoin, g); err != nil {
		return err
	}
	return app.Host(ctx, p.HostJoin, g)
}

// checkGame refuses a new game's flags that do not go together.
func checkGame(p app.HostJoin, g app.Game) error {
	switch {
	case g.Name == "" && !p.Auto:
		return cli.Usagef("name the session with --name, or meet the other peers on the LAN with --auto")
	case g.Name != "" && p.Auto:
		return cli.Usagef("--auto sessions have no name chosen in advance; drop --name or --auto")
	case g.Players < 1 || g.Bots < 0 || g.Players+g.Bots < 2 || g.Players+g.Bots > game.MaxPlayers:
		return cli.Usagef("a game takes 2 to %d players and bots; --players %d --bots %d", game.MaxPlayers, g.Players, g.Bots)
	case g.Size < game.MinMapSize || g.Size > game.MaxMapSize:
		return cli.Usagef("--size must be %d to %d", game.MinMapSize, game.MaxMapSize)
	case g.Turns < 1:
		return cli.Usagef("--turns must be at least 1")
	case p.Auto && !p.Headless:
		return cli.Usagef("--auto goes with --headless; the window's lobby browser lists the LAN's sessions")
	}
	return nil
}

// hostSaved hosts the saved game at path (headless: runHost checked it):
// the save decides the map, the slots and the bots, and its turn limit
// unless --turns is given.
func hostSaved(ctx context.Context, p app.HostJoin, g app.Game, path string, given map[string]bool) error {
	for _, f := range []string{"players", "bots", "seed", "size"} {
		if given[f] {
			return cli.Usagef("--%s cannot go with --load: the saved game decides it", f)
		}
	}
	if !given["turns"] {
		g.Turns = 0
	}
	return app.Resume(ctx, p, path, g)
}
