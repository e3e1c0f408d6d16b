package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"hostfall/sound"
)

func init() {
	register(command{
		name:    "sounds",
		summary: "list the game's sounds, play them, or render them to a WAV file",
		run:     runSounds,
	})
}

func runSounds(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("sounds", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: hostfall sounds [-wav FILE] [-n N] [-seed S] [NAME …]\n\n"+
			"With no NAME, lists the sound names. Otherwise plays each NAME N times, one after\n"+
			"another, as selections of one unit (so UNIT.select runs its selected/annoyed sequence),\n"+
			"through the speaker, or renders them to FILE.")
		fs.PrintDefaults()
	}
	wavPath := fs.String("wav", "", "render to this WAV file instead of playing")
	times := fs.Int("n", 1, "how many times to play each sound")
	seed := fs.Uint64("seed", 1, "seed of the random choice among a group's lines")
	addVerbose(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	bank, names, err := sound.Embedded()
	if err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fmt.Println(strings.Join(names.Sorted(), "\n"))
		return nil
	}
	var reqs []sound.Request
	for _, name := range fs.Args() {
		id := names.ForName(name)
		if id == 0 {
			return fmt.Errorf("%w: there is no sound named %q; `hostfall sounds` lists them", errUsage, name)
		}
		for range max(*times, 1) {
			reqs = append(reqs, sound.Request{Sound: id, Origin: 1, Selection: true})
		}
	}
	const gap = 250 * time.Millisecond
	if *wavPath != "" {
		return renderSounds(bank, *wavPath, *seed, reqs, gap)
	}
	srv, err := sound.New(bank, sound.Options{Sink: sound.Speaker(), Seed: *seed})
	if err != nil {
		return err
	}
	defer srv.Close()
	return sound.PlayInTurn(ctx, srv, reqs, gap)
}

func renderSounds(bank *sound.Bank, path string, seed uint64, reqs []sound.Request, gap time.Duration) error {
	srv, err := sound.New(bank, sound.Options{Sink: sound.Pull(), Seed: seed})
	if err != nil {
		return err
	}
	defer srv.Close()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := sound.RenderWAV(f, srv, reqs, gap); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
