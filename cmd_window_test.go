package main

import (
	"errors"
	"testing"

	"hostfall/cli"
	"hostfall/render"
)

// Without --headless, host and join open the window: the flags that go
// with headless peers only are refused in a sentence, and without a
// display they say so before touching the network.
func TestWindowPeerCommandLines(t *testing.T) {
	t.Setenv("DISPLAY", "")
	for _, tt := range []struct {
		name string
		run  func([]string) error
		args []string
		want error
	}{
		{"host --load", func(a []string) error { return runHost(t.Context(), a) }, []string{"--name", "x", "--load", "x.hfsave"}, cli.ErrUsage},
		{"host --save-at", func(a []string) error { return runHost(t.Context(), a) }, []string{"--name", "x", "--save-at", "100"}, cli.ErrUsage},
		{"host --auto", func(a []string) error { return runHost(t.Context(), a) }, []string{"--auto"}, cli.ErrUsage},
		{"play --lobby --offline", func(a []string) error { return runPlay(t.Context(), a) }, []string{"--lobby", "--offline"}, cli.ErrUsage},
		{"join --relay, no display", func(a []string) error { return runJoin(t.Context(), a) }, []string{"--session", "x", "--relay", "/ip4/127.0.0.1/tcp/1/p2p/12D3KooWHkqrU1SD2soZS6D2n8QJjzuaRjnPRXsiJrebpdHS9iZK"}, render.ErrNoDisplay},
		{"host, no display", func(a []string) error { return runHost(t.Context(), a) }, []string{"--name", "x"}, render.ErrNoDisplay},
		{"join, no display", func(a []string) error { return runJoin(t.Context(), a) }, []string{"--addr", "/ip4/127.0.0.1/tcp/1/p2p/12D3KooWHkqrU1SD2soZS6D2n8QJjzuaRjnPRXsiJrebpdHS9iZK"}, render.ErrNoDisplay},
		{"join --rejoin --addr", func(a []string) error { return runJoin(t.Context(), a) }, []string{"--rejoin", "--addr", "/ip4/127.0.0.1/tcp/1/p2p/12D3KooWHkqrU1SD2soZS6D2n8QJjzuaRjnPRXsiJrebpdHS9iZK"}, cli.ErrUsage},
		{"join --rejoin, no display", func(a []string) error { return runJoin(t.Context(), a) }, []string{"--rejoin"}, render.ErrNoDisplay},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.run(tt.args); !errors.Is(err, tt.want) {
				t.Errorf("%v, want %v", err, tt.want)
			}
		})
	}
}

// `hostfall` with only flags is the lobby browser, as `hostfall` alone is
// (here it stops at the missing display, not at an unknown command), and
// -h still lists the commands.
func TestDefaultCommandTakesFlags(t *testing.T) {
	t.Setenv("DISPLAY", "")
	for _, tt := range []struct {
		args []string
		want int
	}{
		{[]string{"--name", "Bob"}, 1}, // the browser, with no display to open
		{[]string{"-h"}, 0},
		{[]string{"--help"}, 0},
		{[]string{"nosuchcommand"}, 2},
	} {
		if got := run(t.Context(), tt.args); got != tt.want {
			t.Errorf("hostfall %v: exit code %d, want %d", tt.args, got, tt.want)
		}
	}
}
