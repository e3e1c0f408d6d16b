package sound

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// DemoOptions say what Demo plays.
type DemoOptions struct {
	// Names are the sounds to play, one after another; with none, Demo
	// lists every sound name on Out instead.
	Names []string
	Times int    // how many times each name is played (at least once)
	Seed  uint64 // the seed of the random choice among a group's lines
	// WAV, when set, is the file the sounds are rendered to instead of
	// playing them through the speaker.
	WAV string
	Out io.Writer // where the names are listed
}

// demoGap is the pause between two sounds of a demo.
const demoGap = 250 * time.Millisecond

// UnknownSoundError is Demo's answer to a name that is not one of the
// game's sounds.
type UnknownSoundError struct{ Name string }

func (e *UnknownSoundError) Error() string { return fmt.Sprintf("there is no sound named %q", e.Name) }

// Demo is `hostfall sounds`: it lists the game's embedded sounds, or plays
// the named ones in turn, each as a selection of one unit (so UNIT.select
// runs its selected/annoyed sequence), through the speaker or into a WAV
// file. Every name is checked before anything plays.
func Demo(ctx context.Context, opt DemoOptions) error {
	bank, names, err := Embedded()
	if err != nil {
		return err
	}
	return demo(ctx, opt, bank, names)
}

// demo is Demo on a bank of the embedded sounds and its names (the tests
// decode them once: under -race that takes seconds of CPU each time).
func demo(ctx context.Context, opt DemoOptions, bank *Bank, names Names) error {
	if len(opt.Names) == 0 {
		fmt.Fprintln(opt.Out, strings.Join(names.Sorted(), "\n"))
		return nil
	}
	var reqs []Request
	for _, name := range opt.Names {
		id := names.ForName(name)
		if id == 0 {
			return &UnknownSoundError{Name: name}
		}
		for range max(opt.Times, 1) {
			reqs = append(reqs, Request{Sound: id, Origin: 1, Selection: true})
		}
	}
	if opt.WAV != "" {
		return renderDemo(bank, opt.WAV, opt.Seed, reqs)
	}
	srv, err := New(bank, Options{Sink: Speaker(), Seed: opt.Seed})
	if err != nil {
		return err
	}
	defer srv.Close()
	return PlayInTurn(ctx, srv, reqs, demoGap)
}

// renderDemo mixes reqs offline into the WAV file at path.
func renderDemo(bank *Bank, path string, seed uint64, reqs []Request) error {
	srv, err := New(bank, Options{Sink: Pull(), Seed: seed})
	if err != nil {
		return err
	}
	defer srv.Close()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := RenderWAV(f, srv, reqs, demoGap); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
