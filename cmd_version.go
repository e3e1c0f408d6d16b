package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"hostfall/app"
	"hostfall/cli"
)

func runVersion(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print one JSON object")
	cli.AddVerbose(fs)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	v := app.Version()
	if *asJSON {
		return json.NewEncoder(os.Stdout).Encode(v)
	}
	_, err := fmt.Print(v)
	return err
}
