package main

import (
	"context"
	"flag"
	"fmt"

	"hostfall/game"
	"hostfall/session"
)

func init() {
	register(command{
		name:    "host",
		summary: "host a network game (--headless: a bot plays, the game starts when N players joined)",
		run:     runHost,
	})
}

type hostFlags struct {
	netFlags
	name    string
	players int
	bots    int
	turns   uint64
	seed    uint64
	size    int
}

func runHost(ctx context.Context, args []string) error {
	var hf hostFlags
	fs := flag.NewFlagSet("host", flag.ContinueOnError)
	hf.register(fs)
	fs.StringVar(&hf.name, "name", "", "session name (required unless --auto)")
	fs.BoolVar(&hf.auto, "auto", false, "no session name: the peers started with --auto on the LAN agree on one host, and this one hosts or joins (the host's flags set the game)")
	fs.IntVar(&hf.players, "players", 2, "start when this many players (this one included) have joined")
	fs.IntVar(&hf.bots, "bots", 0, "bot slots besides the players")
	fs.Uint64Var(&hf.turns, "turns", 12000, "end the game at this turn if nobody has won (20 turns a second)")
	fs.Uint64Var(&hf.seed, "seed", 7, "map seed")
	fs.IntVar(&hf.size, "size", game.DefaultMapSize, "map width and height in tiles")
	if err := parseNet(fs, &hf.netFlags, args); err != nil {
		return err
	}
	switch {
	case hf.name == "" && !hf.auto:
		return fmt.Errorf("%w: name the session with --name, or meet the other peers on the LAN with --auto", errUsage)
	case hf.name != "" && hf.auto:
		return fmt.Errorf("%w: --auto sessions have no name chosen in advance; drop --name or --auto", errUsage)
	case hf.players < 1 || hf.bots < 0 || hf.players+hf.bots < 2 || hf.players+hf.bots > game.MaxPlayers:
		return fmt.Errorf("%w: a game takes 2 to %d players and bots; --players %d --bots %d", errUsage, game.MaxPlayers, hf.players, hf.bots)
	case hf.size < game.MinMapSize || hf.size > game.MaxMapSize:
		return fmt.Errorf("%w: --size must be %d to %d", errUsage, game.MinMapSize, game.MaxMapSize)
	case hf.turns < 1:
		return fmt.Errorf("%w: --turns must be at least 1", errUsage)
	}
	g, err := newNetGame(ctx, &hf.netFlags)
	if err != nil {
		return err
	}
	if hf.auto {
		hosts, err := g.meetAuto(ctx)
		if err != nil || !hosts {
			return err
		}
		hf.name = autoSessionName(hf.player)
	}
	g.isHost = true
	g.offerInvite(ctx)
	started := false
	g.onLobby = func(l session.Lobby) {
		if started || l.State != session.StateLobby || humans(l) < hf.players {
			return
		}
		if err := g.peer.Start(); err == nil {
			started = true
		}
	}
	total := hf.players + hf.bots
	err = g.peer.Host(session.Settings{Name: hf.name, MapSeed: hf.seed, MapSize: uint32(hf.size),
		MaxPlayers: uint32(total), Password: hf.password, TurnLimit: hf.turns})
	for i := hf.players; i < total && err == nil; i++ {
		err = g.peer.SetSlot(i, session.SlotBot, uint8(hf.botLevel()))
	}
	if err != nil {
		g.close()
		return err
	}
	return g.run(ctx)
}

// humans counts the ready human players of a lobby (the host is always ready).
func humans(l session.Lobby) int {
	n := 0
	for i, s := range l.Slots {
		if s.Kind == session.SlotHuman && (s.Ready || i == 0) {
			n++
		}
	}
	return n
}
