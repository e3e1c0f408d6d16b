package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/client"
	"hostfall/client/network"
	"hostfall/datadir"
	"hostfall/game/ai"
	"hostfall/logging"
	"hostfall/match"
	"hostfall/p2p/codes"
	"hostfall/p2p/transport"
	"hostfall/savegame"
	"hostfall/session"
	"hostfall/status"
)

// GameVersion is the game version peers must share to play together. Bump
// it with game.RulesVersion: peers of other rules would desync.
const GameVersion = "0.2.0"

// endLinger is how long a peer keeps serving after its game ended, so the
// others receive the last turns before it leaves.
const endLinger = 1500 * time.Millisecond

// joinTimeout bounds finding and joining the host.
const joinTimeout = 30 * time.Second

// HostJoin is what host and join ask of this network peer: how it plays
// (headless or in the window), whom it plays as, and how it is reached.
type HostJoin struct {
	Headless bool // no window: a bot plays this peer's slot
	JSON     bool // status lines as JSON on stdout (the operating contract)
	Player   string
	Identity string // identity key file; "" means $HOSTFALL_IDENTITY or the user's config dir
	Password string
	Level    ai.Level // the level of the bots this peer adds or plays with
	Idle     bool     // headless, this peer's slot gives no orders (network measurements)
	Listen   []string // multiaddrs; none means every interface
	Relay    string   // a relay for peers behind NAT
	// Internet puts the peer on the public libp2p network (nil: LAN only).
	Internet *codes.InternetConfig
	Auto     bool // meet the other Auto peers on the LAN (headless only)
	// Without Headless: the window, and whether it closes at the game's end.
	Window    Window
	ExitAtEnd bool
}

// Game is the session a host creates.
type Game struct {
	Name          string // with HostJoin.Auto, "PLAYER's game" replaces it
	Players, Bots int    // the game starts when Players have joined; Bots fill the other slots
	Turns         uint64 // the turn limit
	Seed          uint64
	Size          int
	SaveAt        uint64 // save after this turn (0 = never)
	AwayBot       uint32 // an away player's slot: 0 its units hold, L a bot of level L−1 plays it
}

// Host creates the session g and plays it. With p.Auto it first agrees
// with the other Auto peers on the LAN on a host, and joins that one's
// lobby unless it is this peer.
func Host(ctx context.Context, p HostJoin, g Game) error {
	// Alone with bots, the host starts the game itself once the bots are
	// in: StartWith 1 would start it the moment the lobby is created,
	// before there is anyone to play against.
	startWith := g.Players
	if startWith == 1 && !p.Auto {
		startWith = 0
	}
	r, err := start(ctx, p, func(o *network.Options) {
		o.TurnLimit, o.StartWith, o.SaveAt, o.AwayBot = g.Turns, startWith, g.SaveAt, g.AwayBot
	})
	if err != nil {
		return err
	}
	if p.Auto {
		hosts, err := r.meetAuto(ctx)
		if err != nil || !hosts {
			return err
		}
		g.Name = p.Player + "'s game"
	}
	if err := r.create(g); err != nil {
		r.c.Close()
		return err
	}
	if startWith == 0 {
		if err := r.c.Start(); err != nil {
			r.c.Close()
			return fmt.Errorf("the game with %s cannot start: %w", plural(g.Bots, "bot", "bots"), err)
		}
	}
	return r.run(ctx)
}

// plural is n and the word for one or many.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Resume hosts the saved game at path: the save decides the map, the slots
// and the bots; of g only Name, Turns (0: the save's limit), SaveAt and
// AwayBot count. The game starts once every player of the save is back and ready.
func Resume(ctx context.Context, p HostJoin, path string, g Game) error {
	sv, err := savegame.ReadFile(path)
	if err != nil {
		return err
	}
	hash, err := match.CheckSaved(sv.Saved)
	if err != nil {
		return fmt.Errorf("%s cannot be resumed: %w", path, err)
	}
	// The session refuses to start until every player of the save is back and ready.
	r, err := start(ctx, p, func(o *network.Options) { o.StartWith, o.SaveAt, o.AwayBot = 1, g.SaveAt, g.AwayBot })
	if err != nil {
		return err
	}
	if err := r.c.Resume(&sv.Saved, client.CreateOptions{Name: g.Name, PlayerName: r.p.Player, Password: p.Password}, g.Turns); err != nil {
		r.c.Close()
		return fmt.Errorf("%s cannot be resumed here: %w", path, err)
	}
	status.Resuming(r.line, path, sv.Turn(), hash, sv.Lobby)
	return r.run(ctx)
}

// Join joins the session res finds and plays it.
func Join(ctx context.Context, p HostJoin, res transport.Resolver) error {
	return joinWith(ctx, p, func(c *network.Client, o client.JoinOptions) error { return c.JoinVia(res, o) })
}

// Rejoin takes the player back to its slot in the game this identity was
// playing when its process stopped (the record in the data dir) and plays
// it on. Without a record the error wraps network.ErrNoLastGame.
func Rejoin(ctx context.Context, p HostJoin) error {
	if !p.Headless {
		if err := CheckWindow(); err != nil {
			return err // no window, whatever the record says
		}
	}
	if err := hasLastGame(p); err != nil {
		return err // before the network starts: nothing to rejoin, nothing to listen for
	}
	return joinWith(ctx, p, (*network.Client).Rejoin)
}

// hasLastGame reads the record of the game p's identity was playing; its
// error says there is none, or what is wrong with it.
func hasLastGame(p HostJoin) error {
	path := p.Identity
	if path == "" {
		var err error
		if path, err = transport.DefaultIdentityPath(); err != nil {
			return err
		}
	}
	key, err := transport.LoadIdentity(path)
	if err != nil {
		return err
	}
	self, err := peer.IDFromPrivateKey(key)
	if err != nil {
		return fmt.Errorf("identity %s: %w", path, err)
	}
	_, err = network.ReadLastGame(datadir.LastGames(), self)
	return err
}

// joinWith starts the peer, joins with join and plays the game.
func joinWith(ctx context.Context, p HostJoin, join func(*network.Client, client.JoinOptions) error) error {
	r, err := start(ctx, p, nil)
	if err != nil {
		return err
	}
	if err := join(r.c, client.JoinOptions{PlayerName: r.p.Player, Password: p.Password}); err != nil {
		r.c.Close()
		return err
	}
	return r.run(ctx)
}

// running is a started peer: its network client and its status lines.
type running struct {
	p    HostJoin
	c    *network.Client
	line *status.Line
}

// start starts the network client of p, headless or for the window; tweak
// adjusts its options.
func start(ctx context.Context, p HostJoin, tweak func(*network.Options)) (*running, error) {
	r := &running{p: p, line: &status.Line{JSON: p.JSON, Out: os.Stdout, Human: os.Stderr, Stamp: true}}
	opt := network.Options{GameVersion: GameVersion, ReplayDir: datadir.Replays(), ReportDir: datadir.DesyncReports(),
		SaveDir: datadir.Saves(), LastGameDir: datadir.LastGames(), JoinTimeout: 2 * joinTimeout, ReadyOnJoin: true, Logger: slog.Default()}
	wi := network.Wiring{IdentityPath: p.Identity, Listen: p.Listen, Relay: p.Relay, Auto: p.Auto, AwaitRelay: p.Headless,
		Internet: p.Internet}
	hookLines(&status.PeerLines{Line: r.line}, &opt, &wi, p.Headless && p.JSON && os.Getenv("HOSTFALL_TRACE") != "")
	if p.Headless {
		opt.SelfBot, opt.SelfLevel = !p.Idle, p.Level
	} else {
		if err := CheckWindow(); err != nil {
			return nil, err
		}
		if r.p.Player == "" {
			r.p.Player = windowPlayer(p.Window)
		}
		opt.Logger, opt.WaitScreen = logging.Window(), true
	}
	if tweak != nil {
		tweak(&opt)
	}
	c, err := network.Start(ctx, wi, opt)
	if err != nil {
		return nil, err
	}
	r.c = c
	status.Listening(r.line, c.Addr())
	return r, nil
}

// create creates the session g, with its bots.
func (r *running) create(g Game) error {
	total := g.Players + g.Bots
	err := r.c.Create(client.CreateOptions{Name: g.Name, PlayerName: r.p.Player, Password: r.p.Password,
		MaxPlayers: total, MapSeed: g.Seed, MapSize: g.Size})
	for i := g.Players; i < total && err == nil; i++ {
		err = r.c.SetSlot(i, session.SlotBot, uint8(r.p.Level))
	}
	return err
}

// meetAuto agrees with the other Auto peers on the LAN on a host. It
// reports whether this peer hosts; when another does, it joins that lobby
// and plays the game to its end here.
func (r *running) meetAuto(ctx context.Context) (bool, error) {
	hosts, err := r.c.MeetAuto(ctx, client.JoinOptions{PlayerName: r.p.Player, Password: r.p.Password}, func(host bool, id peer.ID) {
		status.Auto(r.line, host, id)
	})
	if err != nil {
		r.c.Close()
		return false, err
	}
	if hosts {
		return true, nil
	}
	return false, r.run(ctx)
}

// run plays the session the peer created or joined: headless until the
// game ends, in the window until the player closes it (with ExitAtEnd:
// until the game ended and the others had its last turns).
func (r *running) run(ctx context.Context) error {
	defer r.c.Close()
	if r.p.Headless {
		err := r.c.PlayOut(ctx, endLinger)
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return nil // Ctrl+C or SIGTERM: the player left (Close says goodbye)
		}
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if r.p.ExitAtEnd {
		ended := r.c.Ended()
		go func() {
			select {
			case <-ended:
				time.AfterFunc(endLinger, cancel)
			case <-ctx.Done():
			}
		}()
	}
	w := r.p.Window
	w.Name = r.p.Player
	return OpenWindow(ctx, r.c, w)
}
