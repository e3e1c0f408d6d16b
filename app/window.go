//go:build cgo

// The window and the speaker need cgo (GLFW, OpenGL, ALSA): this file is
// the full build's; server.go stands in for it in the server build.

package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"hostfall/client"
	"hostfall/client/network"
	"hostfall/client/offline"
	"hostfall/datadir"
	"hostfall/game"
	"hostfall/logging"
	"hostfall/render"
	"hostfall/settings"
	"hostfall/sound"
)

// CheckWindow says why the window cannot open here (no display), or nil.
func CheckWindow() error { return render.CheckDisplay() }

// OpenWindow runs the window on c until it closes, with sound unless muted.
func OpenWindow(ctx context.Context, c client.Client, w Window) error {
	w = w.withSettings()
	o := render.Options{MaxFPS: w.FPS}
	windowSettings(&o, w)
	if !w.Mute {
		if srv, cuer, err := sound.OpenSpeaker(slog.Default()); err != nil {
			slog.Warn("playing without sound", "err", err)
		} else {
			defer srv.Close()
			o.Sound = cuer
			setVolumes(srv, o.Settings.Volume)
			o.OnSettings = func(s settings.Settings) { setVolumes(srv, s.Volume) }
		}
	}
	return render.Open(ctx, c, o)
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
	su := network.Setup{IdentityPath: n.Identity, Listen: n.Listen, Relay: n.Relay, Internet: n.Internet, Browse: true,
		OnInvite: func(code, _ string) { fmt.Printf("Friends join your game with the invite code %s\n", code) }}
	return network.Start(ctx, su, opt)
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
