package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/client"
	"hostfall/client/network"
	"hostfall/game/ai"
	"hostfall/p2p"
	"hostfall/render"
	"hostfall/session"
	"hostfall/status"
)

// gameVersion is the game version peers must share to play together.
const gameVersion = "0.1.0"

// endLinger is how long a peer keeps serving after its game ended, so the
// others receive the last turns before it leaves.
const endLinger = 1500 * time.Millisecond

// joinTimeout bounds finding and joining the host.
const joinTimeout = 30 * time.Second

// idleLevel is the --level of a peer whose slot gives no orders.
const idleLevel = "none"

// netFlags are the flags host and join share.
type netFlags struct {
	headless bool
	json     bool
	player   string
	identity string
	password string
	level    string
	listen   listFlag
	relay    string // a relay for peers behind NAT
	auto     bool   // host --auto: meet the other --auto peers on the LAN
	// Without --headless: the window's flags.
	window    windowFlags
	exitAtEnd bool
}

// listFlag is a flag that may be given several times.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

func (nf *netFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&nf.headless, "headless", false, "no window: a bot plays this peer's slot")
	fs.BoolVar(&nf.json, "status-json", false, "print one JSON object a line on stdout (the operating contract)")
	addVerbose(fs)
	fs.StringVar(&nf.player, "player", "", "player name (default: the host name)")
	fs.StringVar(&nf.identity, "identity", "", "identity key file (default: $"+p2p.IdentityEnv+" or the user's config dir)")
	fs.StringVar(&nf.password, "password", "", "session password")
	fs.StringVar(&nf.level, "level", "hard", "bot level: easy or hard ("+idleLevel+": this peer's slot gives no orders, for network measurements)")
	fs.Var(&nf.listen, "listen", "multiaddr to listen on (repeatable; default: TCP and QUIC on every interface)")
	fs.StringVar(&nf.relay, "relay", "", "a Hostfall relay's multiaddr (ending in /p2p/<relay ID>): be reachable through it from the internet")
	nf.window.addDisplay(fs)
	fs.BoolVar(&nf.exitAtEnd, "exit-at-end", false, "window: close it when the game ends (a headless peer always exits then)")
}

// parseArgs parses a command's flags; anything but flags is a usage error.
func parseArgs(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	return nil
}

func parseNet(fs *flag.FlagSet, nf *netFlags, args []string) error {
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	if _, err := ai.ParseLevel(nf.level); err != nil && nf.level != idleLevel {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if nf.player == "" {
		nf.player, _ = os.Hostname()
		if nf.player == "" {
			nf.player = "player"
		}
		if len(nf.player) > 32 {
			nf.player = nf.player[:32]
		}
	}
	return nil
}

func (nf *netFlags) botLevel() ai.Level {
	l, _ := ai.ParseLevel(nf.level)
	return l
}

// netPeer is a host or join command's peer: the network client, headless
// or under the window, and the contract's status lines of its events.
type netPeer struct {
	nf    *netFlags
	c     *network.Client
	line  *status.Line
	ended chan struct{} // closed when the end line is out
	peer  atomic.Pointer[network.Peer]
}

// startNetPeer starts the network client for host or join; tweak adjusts
// its options.
func startNetPeer(ctx context.Context, nf *netFlags, tweak func(*network.Options)) (*netPeer, error) {
	if nf.auto && !nf.headless {
		return nil, fmt.Errorf("%w: --auto goes with --headless; the window's lobby browser lists the LAN's sessions", errUsage)
	}
	if !nf.headless {
		if err := render.CheckDisplay(); err != nil {
			return nil, err
		}
	}
	np := &netPeer{nf: nf, ended: make(chan struct{}),
		line: &status.Line{JSON: nf.json, Out: os.Stdout, Human: os.Stderr, Stamp: true}}
	ps := &status.Peer{Line: np.line}
	var once sync.Once
	opt := network.Options{GameVersion: gameVersion, ReplayDir: replayDir(), ReportDir: reportDir(), SaveDir: saveDir(),
		JoinTimeout: 2 * joinTimeout, ReadyOnJoin: true, Logger: slog.Default(),
		OnEvent: func(p *network.Peer, ev network.Event) {
			if ps.Event(p, ev) {
				once.Do(func() { close(np.ended) })
			}
		},
		OnFile:    ps.File,
		OnSession: func(_ context.Context, p *network.Peer) { np.peer.Store(p) },
		OnFound: func(h p2p.AddrInfo, took time.Duration) {
			np.line.Emit("found", "found the host "+h.ID.String(), status.KV("host", h.ID.String()), status.KV("ms", took.Milliseconds()))
		},
	}
	su := network.Setup{IdentityPath: nf.identity, Listen: nf.listen, Relay: nf.relay, Auto: nf.auto, OnInvite: np.invite}
	if nf.headless {
		opt.SelfBot, opt.SelfLevel = nf.level != idleLevel, nf.botLevel()
		su.AwaitRelay, su.OnPath = true, np.path
		if os.Getenv("HOSTFALL_TRACE") != "" && nf.json {
			opt.PeerOptions = np.trace
		}
	} else {
		opt.Logger, opt.WaitScreen = quietWindowLog(), true
	}
	if tweak != nil {
		tweak(&opt)
	}
	c, err := network.Start(ctx, su, opt)
	if errors.Is(err, network.ErrBadRelay) {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	if err != nil {
		return nil, err
	}
	np.c = c
	ps.Listening(c.Addr())
	return np, nil
}

// quietWindowLog is the window's logger: the window is the player's
// interface, so logs stay quiet (warnings on stderr, go-libp2p's own only
// when they are errors).
func quietWindowLog() *slog.Logger {
	p2p.RouteLibp2pLogs(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

func (np *netPeer) invite(code, relay string) {
	if !np.nf.headless {
		fmt.Fprintf(os.Stdout, "Friends join your game with the invite code %s\n", code)
		return
	}
	np.line.Emit("invite", "friends join with: hostfall join --headless --invite "+code,
		status.KV("code", code), status.KV("relay", relay))
}

func (np *netPeer) path(p peer.ID, k p2p.PathKind) {
	np.line.Emit("path", fmt.Sprintf("%s is reached %s", p, k), status.KV("peer", p.String()), status.KV("path", k.String()))
}

// trace prints a line when this peer proposes a command for its own slot,
// one for every command applied, and the session's byte rates every 20
// turns (HOSTFALL_TRACE=1 with --status-json): the network benchmark
// matches them up by slot and seq across processes to measure latency.
func (np *netPeer) trace(po *network.PeerOptions) {
	s := np.line
	po.OnPropose = func(slot int, seq uint64, at time.Time) {
		s.Emit("cmd_proposed", "", status.KV("slot", slot), status.KV("seq", seq), status.KV("us", at.UnixMicro()))
	}
	po.OnTurn = func(t session.Turn, at time.Time) {
		for _, c := range t.Commands {
			s.Emit("cmd_applied", "", status.KV("slot", c.Slot), status.KV("seq", c.Seq), status.KV("turn", t.Number), status.KV("us", at.UnixMicro()))
		}
		if p := np.peer.Load(); p != nil && t.Number%20 == 0 { // session frame bytes a second, in and out, all peers
			st := p.Status()
			s.Emit("traffic", "", status.KV("turn", t.Number), status.KV("in", int64(st.InRate)), status.KV("out", int64(st.OutRate)))
		}
	}
}

// run plays the session the peer created or joined: in the window until
// the player closes it (with --exit-at-end: until the game ended and the
// others had its last turns), headless until the game ends.
func (np *netPeer) run(ctx context.Context) error {
	defer np.c.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if np.nf.headless {
		return np.playOut(ctx)
	}
	if np.nf.exitAtEnd {
		go func() {
			select {
			case <-np.ended:
				time.AfterFunc(endLinger, cancel)
			case <-ctx.Done():
			}
		}()
	}
	w := np.nf.window
	w.name = np.nf.player
	return openWindow(ctx, np.c, w)
}

// playOut waits until the game has ended and lingered, or this peer cannot
// go on (refused, or out of the session: the reason is the error).
func (np *netPeer) playOut(ctx context.Context) error {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	var evs []client.Event
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-np.ended:
			select {
			case <-time.After(endLinger):
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		case <-tick.C:
		}
		if np.over() {
			continue // what the session says after the end is not the game's
		}
		evs = np.c.Events(evs[:0])
		for _, e := range evs {
			if e.Kind == client.EvRefused || e.Kind == client.EvLeft {
				return errors.New(e.Text)
			}
		}
	}
}

func (np *netPeer) over() bool {
	select {
	case <-np.ended:
		return true
	default:
		return false
	}
}
