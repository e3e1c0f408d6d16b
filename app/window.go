//go:build cgo

// The window and the speaker need cgo (GLFW, OpenGL, ALSA): this file is
// the full build's; server.go stands in for it in the server build.

package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"hostfall/client"
	"hostfall/client/library"
	"hostfall/client/network"
	"hostfall/client/offline"
	"hostfall/datadir"
	"hostfall/game"
	"hostfall/logging"
	"hostfall/p2p/codes"
	"hostfall/render"
	"hostfall/settings"
	"hostfall/sound"
)

// CheckWindow says why the window cannot open here (no display), or nil.
func CheckWindow() error { return render.CheckDisplay() }

// OpenWindow runs the window on c until it closes, with sound unless muted.
func OpenWindow(ctx context.Context, c client.Client, w Window) error {
	w = w.withSettings()
	// The browser's Load game and Replays read the data dir's files.
	o := render.Options{MaxFPS: w.FPS, Library: &library.Library{SaveDir: datadir.Saves(), ReplayDir: datadir.Replays()}}
	windowSettings(&o, w)
	if !w.Mute {
		snd := openSound(o.Settings.Volume)
		defer snd.close()
		o.Sound = snd
		o.OnSettings = func(s settings.Settings) { snd.setVolumes(s.Volume) }
	}
	return render.Open(ctx, c, o)
}

// lateSound is the window's sound while the speaker opens and the music is
// composed (a few tenths of a second of a busy core): on a goroutine, so
// the window opens meanwhile. Cues before then are dropped; the music and
// the volumes last asked for apply once it is ready.
type lateSound struct {
	mu    sync.Mutex // guards the fields below; held while forwarding, so a late open cannot reorder calls
	srv   *sound.Server
	cuer  *sound.Cuer
	music []string
	vol   settings.Volumes
	done  chan struct{} // closed when the opening ended, with or without a speaker
}

func openSound(v settings.Volumes) *lateSound {
	l := &lateSound{vol: v, done: make(chan struct{})}
	go l.open()
	return l
}

func (l *lateSound) open() {
	defer close(l.done)
	srv, cuer, err := sound.OpenSpeaker(slog.Default())
	if err != nil {
		slog.Warn("playing without sound", "err", err)
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.srv, l.cuer = srv, cuer
	setVolumes(srv, l.vol)
	if l.music != nil {
		cuer.Music(l.music...)
	}
}

func (l *lateSound) Cue(name string, origin uint64, selection, at bool, x, y float64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cuer != nil {
		l.cuer.Cue(name, origin, selection, at, x, y)
	}
}

func (l *lateSound) SetViewPoint(x, y float64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cuer != nil {
		l.cuer.SetViewPoint(x, y)
	}
}

func (l *lateSound) Music(names ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.music = append([]string{}, names...)
	if l.cuer != nil {
		l.cuer.Music(names...)
	}
}

func (l *lateSound) setVolumes(v settings.Volumes) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.vol = v
	if l.srv != nil {
		setVolumes(l.srv, v)
	}
}

// close waits for the opening to end, then stops the server.
func (l *lateSound) close() {
	<-l.done
	if l.srv != nil {
		l.srv.Close()
	}
}

// Browse opens the window on the lobby browser: the LAN's games to join (a
// created game is hosted on this machine), or with n.Offline none.
func Browse(ctx context.Context, w Window, n Network) error {
	if err := CheckWindow(); err != nil {
		return err
	}
	w = w.withSettings()
	if n.Offline {
		c := offline.New(offline.Options{Name: w.Name})
		defer c.Close()
		return OpenWindow(ctx, c, w)
	}
	c, err := startWindowClient(ctx, n, nil)
	if err != nil {
		return err
	}
	defer c.Close()
	return OpenWindow(ctx, c, w)
}

// Play opens the window on a skirmish under way: hosted on the network, or
// on this machine only with n.Offline or a save to load.
func Play(ctx context.Context, w Window, n Network, s Skirmish) error {
	if err := CheckWindow(); err != nil {
		return err
	}
	w = w.withSettings()
	bots := make([]uint8, len(s.Bots))
	for i, l := range s.Bots {
		bots[i] = uint8(l)
	}
	opt := client.CreateOptions{Name: w.Name + "'s skirmish", PlayerName: w.Name, MapSeed: s.Seed, MapSize: s.Size}
	if n.Offline || s.Load != "" {
		opt.Name = "Skirmish"
		return playOffline(ctx, w, s.Load, opt, bots)
	}
	c, err := startWindowClient(ctx, n, func(o *network.Options) {
		if !s.Lobby {
			o.Session.CountdownTicks = 1 // the game is under way when the window opens
		}
	})
	if err != nil {
		return err
	}
	defer c.Close()
	if s.Lobby {
		opt.MaxPlayers = game.MaxPlayers
	}
	if err := c.Skirmish(opt, bots, s.Lobby); err != nil {
		return err
	}
	return OpenWindow(ctx, c, w)
}

// playOffline plays a skirmish, or resumes the save at load, on this
// machine: bots take over a save's other players.
func playOffline(ctx context.Context, w Window, load string, opt client.CreateOptions, bots []uint8) error {
	c := offline.New(offline.Options{Name: w.Name, Countdown: 1, SaveDir: datadir.Saves()})
	defer c.Close()
	var err error
	if load != "" {
		err = c.Load(load)
	} else {
		err = c.Skirmish(opt, bots)
	}
	if err != nil {
		return err
	}
	return OpenWindow(ctx, c, w)
}

// startWindowClient starts the window's network client: this machine's
// host, the LAN browser and announcements, the relay if named (tweak, if
// set, adjusts the client's options). Close stops it all.
func startWindowClient(ctx context.Context, n Network, tweak func(*network.Options)) (*network.Client, error) {
	opt := network.Options{GameVersion: GameVersion, ReplayDir: datadir.Replays(), ReportDir: datadir.DesyncReports(),
		SaveDir: datadir.Saves(), LastGameDir: datadir.LastGames(), Logger: logging.Window(), WaitScreen: true}
	if tweak != nil {
		tweak(&opt)
	}
	wi := network.Wiring{IdentityPath: n.Identity, Listen: n.Listen, Relay: n.Relay, Internet: n.Internet, Browse: true,
		InternetWhenAsked: &codes.InternetConfig{}, // the public network, once the player asks for it
		OnInvite:          func(code, _ string) { fmt.Printf("Friends join your game with the invite code %s\n", code) }}
	return network.Start(ctx, wi, opt)
}

// Sounds is `hostfall sounds`: it lists the game's sounds, or plays the
// named ones through the speaker or into a WAV file. A name that is no
// sound is refused before anything plays (the error wraps ErrUnknownSound).
func Sounds(ctx context.Context, d SoundDemo) error {
	err := sound.Demo(ctx, sound.DemoOptions{Names: d.Names, Times: d.Times, Seed: d.Seed, WAV: d.WAV, Out: d.Out})
	var unknown *sound.UnknownSoundError
	if errors.As(err, &unknown) {
		return fmt.Errorf("%w; %w", err, ErrUnknownSound)
	}
	return err
}
