package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"strings"

	"hostfall/client"
	"hostfall/client/network"
	"hostfall/game"
	"hostfall/match"
	"hostfall/savegame"
	"hostfall/session"
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
	if !hf.headless {
		return hostWindow(ctx, &hf)
	}
	g, err := newHostGame(ctx, &hf, func(l session.Lobby) bool { return humans(l) >= hf.players })
	if err != nil {
		return err
	}
	if hf.auto {
		g.isHost = false // until the peers agree
		hosts, err := g.meetAuto(ctx)
		if err != nil || !hosts {
			return err
		}
		g.isHost = true
		hf.name = autoSessionName(hf.player)
	}
	g.offerInvite(ctx)
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

// hostWindow hosts the lobby in the window: the game starts when the
// player presses Start or, as headless, when --players have joined.
func hostWindow(ctx context.Context, hf *hostFlags) error {
	started := false // the client's pump calls onEvent, one event at a time
	return windowPeer{nf: &hf.netFlags,
		tweak: func(o *network.Options) { o.TurnLimit = hf.turns },
		begin: func(c *network.Client) error {
			total := hf.players + hf.bots
			err := c.Create(client.CreateOptions{Name: hf.name, PlayerName: hf.player, Password: hf.password,
				MaxPlayers: total, MapSeed: hf.seed, MapSize: hf.size})
			for i := hf.players; i < total && err == nil; i++ {
				err = c.SetSlot(i, session.SlotBot, uint8(hf.botLevel()))
			}
			return err
		},
		onEvent: func(p *network.Peer, ev network.Event) {
			if ev.Kind != network.EvLobby || ev.Lobby == nil || started || ev.Lobby.State != session.StateLobby || humans(*ev.Lobby) < hf.players {
				return
			}
			err := p.Start()
			started = err == nil
			if err != nil && !errors.Is(err, session.ErrNotReady) {
				slog.Warn("cannot start", "err", err)
			}
		},
	}.run(ctx)
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
	s := session.Settings{Name: hf.name, Password: hf.password, Resume: &sv.Saved}
	if set["turns"] {
		s.TurnLimit = hf.turns
	}
	// The session refuses to start until every player of the save is back and ready.
	g, err := newHostGame(ctx, hf, func(session.Lobby) bool { return true })
	if err != nil {
		return err
	}
	if err := g.peer.Host(s); err != nil {
		g.close()
		return fmt.Errorf("%s cannot be resumed here: %w", hf.load, err)
	}
	g.status.emit("resume", fmt.Sprintf("resuming %s after turn %d; waiting for %s", hf.load, sv.Turn(), savedPlayers(sv.Lobby)),
		kv("path", hf.load), kv("turn", sv.Turn()), kv("hash", hex64(hash)), kv("players", savedPlayers(sv.Lobby)))
	return g.run(ctx)
}

// newHostGame starts a hosting peer whose game starts once ready says the
// lobby is (the session has the last word: it refuses while someone is not).
func newHostGame(ctx context.Context, hf *hostFlags, ready func(session.Lobby) bool) (*netGame, error) {
	g, err := newNetGame(ctx, &hf.netFlags, hf.saveAt)
	if err != nil {
		return nil, err
	}
	g.isHost = true
	started := false
	g.onLobby = func(l session.Lobby) {
		if started || l.State != session.StateLobby || !ready(l) {
			return
		}
		err := g.peer.Start()
		started = err == nil
		if err != nil && !errors.Is(err, session.ErrNotReady) {
			g.log.Warn("cannot start", "err", err)
		}
	}
	return g, nil
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
