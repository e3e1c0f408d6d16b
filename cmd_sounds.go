package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"

	"hostfall/app"
	"hostfall/cli"
)

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
	cli.AddVerbose(fs)
	if err := cli.ParseOperands(fs, args); err != nil {
		return err
	}
	err := app.Sounds(ctx, app.SoundDemo{Names: fs.Args(), Times: *times, Seed: *seed, WAV: *wavPath, Out: os.Stdout})
	if errors.Is(err, app.ErrUnknownSound) {
		return cli.Usagef("%v", err)
	}
	return err
}
