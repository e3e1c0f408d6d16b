package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"hostfall/client/network"
	"hostfall/game/ai"
	"hostfall/match"
	"hostfall/p2p"
	"hostfall/savegame"
	"hostfall/session"
)

// gameVersion is the game version peers must share to play together.
const gameVersion = "0.1.0"

// endLinger is how long a peer keeps serving after its game ended, so the
// others receive the last turns before it leaves.
const endLinger = 1500 * time.Millisecond

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
	relay    string // a relay for peers behind NAT (lan.go)
	auto     bool   // host --auto: meet the other --auto peers on the LAN (lan.go)
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

// logger is the shared one (logging.go): quiet by default, detailed with -v.
func (nf *netFlags) logger() *slog.Logger {
	return slog.Default()
}

// netGame is one headless peer: its host, its peer loop and what it writes.
type netGame struct {
	nf     *netFlags
	log    *slog.Logger
	status *statusLine
	ps     *peerStatus // the contract's lines of the peer's events
	host   *p2p.Host
	peer   *network.Peer
	replay *network.ReplayFile
	isHost bool
	stop   context.CancelFunc // ends the peer loop
	relay  *p2p.RelayClient   // nil without --relay (lan.go)
	unlan  func()             // stops the LAN announcement and relay work (lan.go)

	// onLobby is called with every lobby revision (the host starts the game from it).
	onLobby func(session.Lobby)
}

// newNetGame starts a headless peer; a host with saveAt > 0 saves the game
// after that turn.
func newNetGame(ctx context.Context, nf *netFlags, saveAt uint64) (*netGame, error) {
	g := &netGame{nf: nf, log: nf.logger()}
	g.status = &statusLine{json: nf.json, out: os.Stdout, human: os.Stderr, stamp: true}
	g.ps = &peerStatus{line: g.status}
	opt, err := g.hostOptions()
	if err != nil {
		return nil, err
	}
	h, err := p2p.NewHost(ctx, opt)
	if err != nil {
		return nil, err
	}
	g.host = h
	g.replay = network.NewReplayFile(replayDir(), h.ID().String(), func() string { return g.peer.Lobby().Name })
	po := network.PeerOptions{
		Name: nf.player, GameVersion: gameVersion, Password: nf.password,
		Match: match.Options{
			SelfBot: nf.level != idleLevel, SelfLevel: nf.botLevel(), Replay: g.replay,
			OnReplayError: func(err error) { g.log.Error("replay not saved", "err", err) },
		},
		Logger: g.log, SaveAt: saveAt,
	}
	if os.Getenv("HOSTFALL_TRACE") != "" && nf.json {
		g.traceCommands(&po)
	}
	peer, err := network.NewPeer(h, po)
	if err != nil {
		h.Close()
		return nil, err
	}
	g.peer = peer
	loopCtx, stop := context.WithCancel(context.Background())
	g.stop = stop
	go peer.Run(loopCtx)
	g.announceOnLAN()
	emitListening(g.status, p2p.AddrInfo{ID: h.ID(), Addrs: h.Addrs()})
	return g, nil
}

// traceCommands prints a line when this peer proposes a command for its own
// slot, one for every command applied, and the session's byte rates every
// 20 turns (HOSTFALL_TRACE=1 with
// --status-json): the network benchmark matches them up by slot and seq
// across processes to measure command latency.
func (g *netGame) traceCommands(po *network.PeerOptions) {
	po.OnPropose = func(slot int, seq uint64, at time.Time) {
		g.status.emit("cmd_proposed", "", kv("slot", slot), kv("seq", seq), kv("us", at.UnixMicro()))
	}
	po.OnTurn = func(t session.Turn, at time.Time) {
		for _, c := range t.Commands {
			g.status.emit("cmd_applied", "", kv("slot", c.Slot), kv("seq", c.Seq), kv("turn", t.Number), kv("us", at.UnixMicro()))
		}
		if t.Number%20 == 0 && g.peer != nil { // session frame bytes a second, in and out, all peers
			st := g.peer.Status()
			g.status.emit("traffic", "", kv("turn", t.Number), kv("in", int64(st.InRate)), kv("out", int64(st.OutRate)))
		}
	}
}

// run plays until the game ends (then lingers and leaves), the session is
// left, or ctx is done.
func (g *netGame) run(ctx context.Context) error {
	defer g.close()
	stop := g.stop
	var lingerC <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			stop()
			<-g.peer.Done()
			return ctx.Err()
		case <-lingerC:
			stop()
			<-g.peer.Done()
			return nil
		case <-g.peer.Done():
			if g.ps.ended {
				return nil
			}
			return errors.New("the peer stopped before the game ended")
		case ev := <-g.peer.Events():
			if g.ps.ended {
				// The session runs on while peers linger and leave; what it
				// reports then (another host leaving first) is not the game's,
				// and must not turn a game that ended into an error.
				g.log.Debug("event after the end", "event", ev.Kind.String())
				continue
			}
			done, err := g.event(ev)
			if err != nil {
				stop()
				<-g.peer.Done()
				return err
			}
			if done {
				lingerC = time.After(endLinger)
			}
		}
	}
}

// event shows one event (the status lines are peerStatus's); it reports
// whether the game has ended, and an error when this peer cannot go on.
func (g *netGame) event(ev network.Event) (bool, error) {
	done := g.ps.event(g.peer, ev)
	switch ev.Kind {
	case network.EvJoined:
		if !g.isHost {
			if err := g.peer.EditSlot(session.SlotEdit{Name: g.nf.player, Ready: true}); err != nil {
				g.log.Warn("cannot say ready", "err", err)
			}
		}
	case network.EvRefused, network.EvLeft:
		return false, errors.New(ev.Text)
	case network.EvLobby:
		if ev.Lobby != nil && g.onLobby != nil {
			g.onLobby(*ev.Lobby)
		}
	case network.EvDesyncReport:
		g.report(ev)
	case network.EvSaved:
		g.saved(ev)
	}
	return done, nil
}

// report writes a desync report and says where it is.
func (g *netGame) report(ev network.Event) {
	path, err := network.WriteReport(reportDir(), ev.Report)
	if err != nil {
		g.log.Error("desync report not written", "err", err)
		return
	}
	g.status.emit("desync_report", "desync report written to "+path, kv("turn", ev.Turn), kv("path", path))
	if g.nf.json {
		fmt.Fprintln(os.Stderr, "desync report written to "+path)
	}
}

// saved writes the save the peer made and says where it is.
func (g *netGame) saved(ev network.Event) {
	if ev.Saved == nil {
		g.log.Error("game not saved", "turn", ev.Turn, "why", ev.Text)
		g.status.emit("save_failed", ev.Text, kv("turn", ev.Turn), kv("error", ev.Text))
		return
	}
	path, err := savegame.WriteFile(saveDir(), &savegame.Save{Saved: *ev.Saved, At: time.Now()})
	if err != nil {
		g.log.Error("game not saved", "err", err)
		g.status.emit("save_failed", "the game was not saved: "+err.Error(), kv("turn", ev.Turn), kv("error", err.Error()))
		return
	}
	g.status.emit("saved", fmt.Sprintf("game saved after turn %d to %s", ev.Turn, path),
		kv("turn", ev.Turn), kv("hash", hex64(ev.Hash)), kv("path", path))
}

// close stops the loop, saves the replay and closes the host.
func (g *netGame) close() {
	g.unlan()
	g.stop()
	<-g.peer.Done()
	g.closeReplay()
	g.host.Close()
}

func (g *netGame) closeReplay() {
	path, err := g.replay.Close()
	switch {
	case err != nil:
		g.log.Error("replay not saved", "err", err)
	case path != "":
		g.ps.replay(path)
	}
}
