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
	"hostfall/p2p"
	"hostfall/render"
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
// or under the window, printing the contract's status lines.
type netPeer struct {
	nf   *netFlags
	c    *network.Client
	line *status.Line
}

// startNetPeer starts the network client for host or join; tweak adjusts
// its options.
func startNetPeer(ctx context.Context, nf *netFlags, tweak func(*network.Options)) (*netPeer, error) {
	if nf.auto && !nf.headless {
		return nil, fmt.Errorf("%w: --auto goes with --headless; the window's lobby browser lists the LAN's sessions", errUsage)
	}
	np := &netPeer{nf: nf, line: &status.Line{JSON: nf.json, Out: os.Stdout, Human: os.Stderr, Stamp: true}}
	opt := network.Options{GameVersion: gameVersion, ReplayDir: replayDir(), ReportDir: reportDir(), SaveDir: saveDir(),
		JoinTimeout: 2 * joinTimeout, ReadyOnJoin: true, Logger: slog.Default()}
	su := network.Setup{IdentityPath: nf.identity, Listen: nf.listen, Relay: nf.relay, Auto: nf.auto, AwaitRelay: nf.headless}
	(&status.Peer{Line: np.line}).Hook(&opt, &su, nf.headless && nf.json && os.Getenv("HOSTFALL_TRACE") != "")
	if nf.headless {
		opt.SelfBot, opt.SelfLevel = nf.level != idleLevel, nf.botLevel()
	} else {
		if err := render.CheckDisplay(); err != nil {
			return nil, err
		}
		opt.Logger, opt.WaitScreen = quietWindowLog(), true
	}
	if tweak != nil {
		tweak(&opt)
	}
	c, err := startClient(ctx, su, opt)
	if err != nil {
		return nil, err
	}
	np.c = c
	status.Listening(np.line, c.Addr())
	return np, nil
}

// startClient starts the network client; a relay address that does not
// parse is a command line to correct.
func startClient(ctx context.Context, su network.Setup, opt network.Options) (*network.Client, error) {
	c, err := network.Start(ctx, su, opt)
	if errors.Is(err, network.ErrBadRelay) {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	return c, err
}

// quietWindowLog is the window's logger: the window is the player's
// interface, so logs stay quiet (warnings on stderr, go-libp2p's own only
// when they are errors).
func quietWindowLog() *slog.Logger {
	p2p.RouteLibp2pLogs(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// run plays the session the peer created or joined: headless until the
// game ends, in the window until the player closes it (with --exit-at-end:
// until the game ended and the others had its last turns).
func (np *netPeer) run(ctx context.Context) error {
	defer np.c.Close()
	if np.nf.headless {
		return np.c.PlayOut(ctx, endLinger)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if np.nf.exitAtEnd {
		ended := np.c.Ended()
		go func() {
			select {
			case <-ended:
				time.AfterFunc(endLinger, cancel)
			case <-ctx.Done():
			}
		}()
	}
	w := np.nf.window
	w.name = np.nf.player
	return openWindow(ctx, np.c, w)
}
