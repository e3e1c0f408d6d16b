package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/user"

	"github.com/gopxl/pixel/v2/backends/opengl"

	"hostfall/client/offline"
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
	if err := parseFlags(fs, args); err != nil {
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
	c, stop, err := startNetClient(ctx, nf, nil)
	if err != nil {
		return err
	}
	defer stop()
	return openWindow(ctx, c, w)
}

// parseFlags parses a command line that takes flags only.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	return nil
}

// openWindow runs the window on the main thread until it closes.
func openWindow(ctx context.Context, c render.Client, w windowFlags) error {
	if err := render.CheckDisplay(); err != nil {
		return err
	}
	o := render.Options{Width: w.width, Height: w.height, MaxFPS: w.fps, PlayerName: w.name}
	if !w.mute {
		if srv, names, err := startSound(); err != nil {
			slog.Warn("playing without sound", "err", err)
		} else {
			defer srv.Close()
			o.Sound = sound.NewCuer(srv, names)
		}
	}
	return runOnMainThread(func() error { return render.Run(ctx, c, o) })
}

// runOnMainThread runs fn inside opengl.Run (GLFW wants the main thread).
// opengl.Run panics when GLFW cannot start (a DISPLAY that does not answer):
// that becomes an error a person can read.
func runOnMainThread(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cannot open the game window (is the X display %q reachable?): %v", os.Getenv("DISPLAY"), r)
		}
	}()
	opengl.Run(func() { err = fn() })
	return err
}

// startSound opens the speaker (the silent sink when there is no sound card).
func startSound() (*sound.Server, sound.Names, error) {
	bank, names, err := sound.Embedded()
	if err != nil {
		return nil, nil, err
	}
	srv, err := sound.New(bank, sound.Options{Sink: sound.Speaker(), Logger: slog.Default()})
	if err != nil {
		return nil, nil, err
	}
	return srv, names, nil
}
