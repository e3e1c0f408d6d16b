package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os/user"

	"hostfall/client/network"
	"hostfall/client/offline"
	"hostfall/p2p"
	"hostfall/render"
	"hostfall/sound"
)

// browse is what `hostfall` alone runs: the window on the lobby browser of
// the network client (games on the LAN to join; a created game is hosted on
// this machine). --offline browses nothing and plays on this machine only.
func init() {
	register(command{
		name:    "browse",
		summary: "open the game window on the lobby browser (what hostfall alone does)",
		run:     runBrowse,
	})
}

// windowFlags are the flags of every command that opens the window.
type windowFlags struct {
	name          string
	width, height int
	fps           int
	mute          bool
}

func (w *windowFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&w.name, "name", defaultPlayerName(), "your player name")
	w.addDisplay(fs)
	addVerbose(fs)
}

// addDisplay adds the flags of the window itself.
func (w *windowFlags) addDisplay(fs *flag.FlagSet) {
	fs.IntVar(&w.width, "width", 1024, "window width in pixels")
	fs.IntVar(&w.height, "height", 768, "window height in pixels")
	fs.IntVar(&w.fps, "fps", 60, "frame rate cap")
	fs.BoolVar(&w.mute, "mute", false, "play no sound")
}

func defaultPlayerName() string {
	if u, err := user.Current(); err == nil && u.Username != "" && u.Username != "root" {
		return u.Username
	}
	return "Player"
}

func runBrowse(ctx context.Context, args []string) error {
	var w windowFlags
	var nf netWindowFlags
	fs := flag.NewFlagSet("browse", flag.ContinueOnError)
	w.add(fs)
	nf.add(fs, "no network: create games against bots on this machine only")
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	if err := render.CheckDisplay(); err != nil {
		return err
	}
	if nf.offline {
		c := offline.New(offline.Options{Name: w.name})
		defer c.Close()
		return openWindow(ctx, c, w)
	}
	c, err := startNetClient(ctx, nf, nil)
	if err != nil {
		return err
	}
	defer c.Close()
	return openWindow(ctx, c, w)
}

// netWindowFlags are the network flags of the commands that open the window
// on a network session (play, browse).
type netWindowFlags struct {
	identity string
	listen   listFlag
	offline  bool
	relay    string
}

func (nf *netWindowFlags) add(fs *flag.FlagSet, offline string) {
	fs.StringVar(&nf.identity, "identity", "", "identity key file (default: $"+p2p.IdentityEnv+" or the user's config dir)")
	fs.Var(&nf.listen, "listen", "multiaddr to listen on (repeatable; default: TCP and QUIC on every interface)")
	fs.BoolVar(&nf.offline, "offline", false, offline)
	fs.StringVar(&nf.relay, "relay", "", "a Hostfall relay's multiaddr (ending in /p2p/<relay ID>): list its directory, be reachable through it, offer invite codes")
}

// startNetClient starts the window's network client: this machine's host,
// the LAN browser and announcements, the relay if named (tweak, if set,
// adjusts the client's options). Close stops it all.
func startNetClient(ctx context.Context, nf netWindowFlags, tweak func(*network.Options)) (*network.Client, error) {
	opt := network.Options{GameVersion: gameVersion, ReplayDir: replayDir(), ReportDir: reportDir(), SaveDir: saveDir(),
		Logger: quietWindowLog(), WaitScreen: true}
	if tweak != nil {
		tweak(&opt)
	}
	su := network.Setup{IdentityPath: nf.identity, Listen: nf.listen, Relay: nf.relay, Browse: true,
		OnInvite: func(code, _ string) { fmt.Printf("Friends join your game with the invite code %s\n", code) }}
	return startClient(ctx, su, opt)
}

// openWindow runs the window until it closes, with sound unless muted.
func openWindow(ctx context.Context, c render.Client, w windowFlags) error {
	o := render.Options{Width: w.width, Height: w.height, MaxFPS: w.fps, PlayerName: w.name}
	if !w.mute {
		if srv, cuer, err := sound.OpenSpeaker(slog.Default()); err != nil {
			slog.Warn("playing without sound", "err", err)
		} else {
			defer srv.Close()
			o.Sound = cuer
		}
	}
	return render.Open(ctx, c, o)
}
