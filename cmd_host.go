package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/client"
	"hostfall/client/network"
	"hostfall/game"
	"hostfall/match"
	"hostfall/savegame"
	"hostfall/session"
	"hostfall/status"
)

func init() {
	register(command{
		name:    "host",
		summary: "host a network game in the window (it starts when N players joined or on Start; --headless: a bot plays; --load FILE resumes a save)",
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
	saveAt  uint64
	load    string
}

func runHost(ctx context.Context, args []string) error {
	var hf hostFlags
	fs := flag.NewFlagSet("host", flag.ContinueOnError)
	hf.register(fs)
	fs.StringVar(&hf.name, "name", "", "session name (required, unless --auto, or --load names it)")
	fs.BoolVar(&hf.auto, "auto", false, "no session name: the peers started with --auto on the LAN agree on one host, and this one hosts or joins (the host's flags set the game)")
	fs.IntVar(&hf.players, "players", 2, "start when this many players (this one included) have joined")
	fs.IntVar(&hf.bots, "bots", 0, "bot slots besides the players")
	fs.Uint64Var(&hf.turns, "turns", 12000, "end the game at this turn if nobody has won (20 turns a second)")
	fs.Uint64Var(&hf.seed, "seed", 7, "map seed")
	fs.IntVar(&hf.size, "size", game.DefaultMapSize, "map width and height in tiles")
	fs.Uint64Var(&hf.saveAt, "save-at", 0, "save the game after this turn into the data dir's saves/ (0 = never)")
	fs.StringVar(&hf.load, "load", "", "resume a saved game: its players rejoin their slots, and the game starts when all are back")
	if err := parseNet(fs, &hf.netFlags, args); err != nil {
		return err
	}
	if !hf.headless && (hf.load != "" || hf.saveAt != 0) {
		return fmt.Errorf("%w: --load and --save-at go with --headless; in the window, save from the pause menu and load with `hostfall play --load`", errUsage)
	}
	if hf.load != "" {
		return hostSaved(ctx, &hf, setFlags(fs))
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
	np, err := startNetPeer(ctx, &hf.netFlags, func(o *network.Options) {
		o.TurnLimit, o.StartWith, o.SaveAt = hf.turns, hf.players, hf.saveAt
	})
	if err != nil {
		return err
	}
	if hf.auto {
		hosts, err := meetAuto(ctx, np)
		if err != nil || !hosts {
			return err
		}
		hf.name = hf.player + "'s game"
	}
	total := hf.players + hf.bots
	err = np.c.Create(client.CreateOptions{Name: hf.name, PlayerName: hf.player, Password: hf.password,
		MaxPlayers: total, MapSeed: hf.seed, MapSize: hf.size})
	for i := hf.players; i < total && err == nil; i++ {
		err = np.c.SetSlot(i, session.SlotBot, uint8(hf.botLevel()))
	}
	if err != nil {
		np.c.Close()
		return err
	}
	return np.run(ctx)
}

// meetAuto agrees with the other --auto peers on the LAN on a host. It
// reports whether this peer hosts; when another does, it joins that lobby
// and plays the game to its end here.
func meetAuto(ctx context.Context, np *netPeer) (bool, error) {
	hosts, err := np.c.MeetAuto(ctx, client.JoinOptions{PlayerName: np.nf.player, Password: np.nf.password}, func(host bool, id peer.ID) {
		if host {
			np.line.Emit("auto", "no --auto lobby on the LAN: this peer hosts one", status.KV("role", "host"), status.KV("host", id.String()))
		} else {
			np.line.Emit("auto", "joining the --auto lobby of "+id.String(), status.KV("role", "join"), status.KV("host", id.String()))
		}
	})
	if err != nil {
		np.c.Close()
		return false, err
	}
	if hosts {
		return true, nil
	}
	return false, np.run(ctx)
}

// hostSaved hosts a saved game: the save decides the map, the slots and the
// bots; the game starts once every player of the save is back and ready.
func hostSaved(ctx context.Context, hf *hostFlags, set map[string]bool) error {
	for _, f := range []string{"players", "bots", "seed", "size"} {
		if set[f] {
			return fmt.Errorf("%w: --%s cannot go with --load: the saved game decides it", errUsage, f)
		}
	}
	sv, err := savegame.ReadFile(hf.load)
	if err != nil {
		return err
	}
	hash, err := match.CheckSaved(sv.Saved)
	if err != nil {
		return fmt.Errorf("%s cannot be resumed: %w", hf.load, err)
	}
	var limit uint64
	if set["turns"] {
		limit = hf.turns
	}
	// The session refuses to start until every player of the save is back and ready.
	np, err := startNetPeer(ctx, &hf.netFlags, func(o *network.Options) { o.StartWith, o.SaveAt = 1, hf.saveAt })
	if err != nil {
		return err
	}
	if err := np.c.Resume(&sv.Saved, client.CreateOptions{Name: hf.name, PlayerName: hf.player, Password: hf.password}, limit); err != nil {
		np.c.Close()
		return fmt.Errorf("%s cannot be resumed here: %w", hf.load, err)
	}
	np.line.Emit("resume", fmt.Sprintf("resuming %s after turn %d; waiting for %s", hf.load, sv.Turn(), savedPlayers(sv.Lobby)),
		status.KV("path", hf.load), status.KV("turn", sv.Turn()), status.KV("hash", status.Hex64(hash)), status.KV("players", savedPlayers(sv.Lobby)))
	return np.run(ctx)
}

// setFlags lists the flags given on the command line.
func setFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

func savedPlayers(l session.Lobby) string {
	var names []string
	for _, s := range l.Slots {
		if s.Kind == session.SlotHuman {
			names = append(names, s.Name)
		}
	}
	return strings.Join(names, ", ")
}
