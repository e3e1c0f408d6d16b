package cli

import (
	"errors"
	"flag"
	"io"
	"reflect"
	"testing"

	"hostfall/game/ai"
)

func newFlags() *flag.FlagSet {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// Parse tells help from a command line to correct, and takes flags only.
func TestParse(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want error
	}{
		{nil, nil},
		{[]string{"-h"}, flag.ErrHelp},
		{[]string{"--nosuchflag"}, ErrUsage},
		{[]string{"operand"}, ErrUsage},
	} {
		if err := Parse(newFlags(), tt.args); !errors.Is(err, tt.want) {
			t.Errorf("Parse(%q) = %v, want %v", tt.args, err, tt.want)
		}
	}
	fs := newFlags()
	if err := ParseOperands(fs, []string{"a", "b"}); err != nil || fs.NArg() != 2 {
		t.Errorf("ParseOperands: %v, operands %q", err, fs.Args())
	}
	if err := Usagef("--x %d", 3); err.Error() != "usage: --x 3" || !errors.Is(err, ErrUsage) {
		t.Errorf("Usagef: %v", err)
	}
}

// A repeatable flag collects every value; Has and Drop see a flag before
// parsing, in each of its spellings.
func TestStringsHasDrop(t *testing.T) {
	var l []string
	fs := newFlags()
	fs.Var((*Strings)(&l), "listen", "")
	if err := Parse(fs, []string{"--listen", "a", "-listen=b"}); err != nil || !reflect.DeepEqual(l, []string{"a", "b"}) {
		t.Errorf("--listen twice: %v, %q", err, l)
	}
	args := []string{"--headless", "-seed", "3", "--headless=true", "--headlessly"}
	if !Has(args, "headless") || Has(args, "levels") {
		t.Error("Has")
	}
	if got := Drop(args, "headless"); !reflect.DeepEqual(got, []string{"-seed", "3", "--headlessly"}) {
		t.Errorf("Drop: %q", got)
	}
}

// A peer's --level is a bot level or none (idle); a headless player is
// named after the host unless --player says otherwise, a window's is left
// to the window's settings.
func TestPeerParse(t *testing.T) {
	for _, tt := range []struct {
		args  []string
		level ai.Level
		idle  bool
		err   error
	}{
		{[]string{"--headless"}, ai.Hard, false, nil},
		{[]string{"--headless", "--level", "easy"}, ai.Easy, false, nil},
		{[]string{"--headless", "--level", "none"}, 0, true, nil},
		{[]string{"--headless", "--level", "medium"}, 0, false, ErrUsage},
	} {
		var p HostJoinFlags
		fs := newFlags()
		p.Add(fs)
		err := p.Parse(fs, tt.args)
		if !errors.Is(err, tt.err) || err == nil && (p.Level != tt.level || p.Idle != tt.idle || p.Player == "" || len(p.Player) > 32) {
			t.Errorf("%q: %v, level %v idle %v player %q", tt.args, err, p.Level, p.Idle, p.Player)
		}
	}
	var p HostJoinFlags
	fs := newFlags()
	p.Add(fs)
	if err := p.Parse(fs, []string{"--player", "Ann"}); err != nil || p.Player != "Ann" {
		t.Errorf("--player Ann: %v, %q", err, p.Player)
	}
	p = HostJoinFlags{}
	fs = newFlags()
	p.Add(fs)
	if err := p.Parse(fs, nil); err != nil || p.Player != "" {
		t.Errorf("a window's player without --player: %v, %q; want it left to the settings", err, p.Player)
	}
}
