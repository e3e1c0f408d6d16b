package ui

import (
	"reflect"
	"strings"
	"testing"

	"hostfall/game"
)

var defaultKeys = DefaultBindings()

// The defaults give every command a key, and no two commands of one card
// share one.
func TestDefaultBindings(t *testing.T) {
	ks := DefaultBindings()
	for b := range NumBinds {
		if !Bindable(ks[b]) {
			t.Errorf("%s has no key", b.Name())
		}
		if o, ok := ks.Conflict(b, ks[b]); ok {
			t.Errorf("%s and %s share %s", b.Name(), o.Name(), KeyName(ks[b]))
		}
		if got, ok := bindByName(b.Name()); !ok || got != b {
			t.Errorf("%s is not found by its name", b.Name())
		}
	}
	if m := ks.Map(); m != nil {
		t.Errorf("the defaults save as %v, want nothing", m)
	}
}

// Set refuses a key another command of the same card has, and keys that
// are not letters; commands of different cards may share a key.
func TestBindingsSet(t *testing.T) {
	for _, tt := range []struct {
		name string
		b    Bind
		k    Key
		err  string // "" when the key is taken
	}{
		{"a free letter", BindAttack, KeyQ, ""},
		{"its own key again", BindStop, KeyS, ""},
		{"Stop's key on the units' card", BindAttack, KeyS, "S is already Stop on the units' card"},
		{"a building's key", BindStop, KeyB, "B is already Build a base"},
		{"another card's key", BindTrainWorker, KeyS, ""},
		{"the workshop's card", BindResearchArmor, KeyW, "W is already Research weapons on the workshop's card"},
		{"a digit", BindAttack, Key1, "letters A to Z"},
		{"Escape", BindStop, KeyEscape, "letters A to Z"},
		{"no key", BindStop, KeyNone, "letters A to Z"},
		{"no such command", NumBinds, KeyQ, "no command"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ks := DefaultBindings()
			err := ks.Set(tt.b, tt.k)
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.err == "" && ks[tt.b] != tt.k:
				t.Fatalf("the key is %s, want %s", KeyName(ks[tt.b]), KeyName(tt.k))
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("error %v, want one saying %q", err, tt.err)
			case tt.err != "" && ks != DefaultBindings():
				t.Fatalf("a refused key changed the bindings: %v", ks)
			}
		})
	}
}

// What Map saves, ParseBindings reads back; a file's mistakes fall back to
// the defaults of the commands they touch and are named.
func TestParseBindings(t *testing.T) {
	swapped := DefaultBindings()
	swapped[BindAttack], swapped[BindStop] = KeyS, KeyA
	for _, tt := range []struct {
		name     string
		m        map[string]string
		want     func(*Bindings)
		problems int
	}{
		{name: "none"},
		{name: "one", m: map[string]string{"attack": "Q"}, want: func(k *Bindings) { k[BindAttack] = KeyQ }},
		{name: "lower case", m: map[string]string{"stop": "x"}, want: func(k *Bindings) { k[BindStop] = KeyX }},
		{name: "swapped", m: swapped.Map(), want: func(k *Bindings) { *k = swapped }},
		{name: "unknown command", m: map[string]string{"dance": "D"}, problems: 1},
		{name: "not a letter", m: map[string]string{"attack": "7", "stop": "Esc", "build.base": ""}, problems: 3},
		{name: "two on one key", m: map[string]string{"attack": "Q", "stop": "Q"}, want: func(k *Bindings) { k[BindStop] = KeyQ }, problems: 1},
		{name: "onto a default", m: map[string]string{"build.tower": "B"}, problems: 1},
		{name: "a chain of clashes", m: map[string]string{"attack": "S", "stop": "B", "build.base": "B"}, problems: 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, problems := ParseBindings(tt.m)
			want := DefaultBindings()
			if tt.want != nil {
				tt.want(&want)
			}
			if got != want {
				t.Errorf("got %v, want %v", got, want)
			}
			if len(problems) != tt.problems {
				t.Errorf("problems %q, want %d", problems, tt.problems)
			}
			for b := range NumBinds {
				if o, ok := got.Conflict(b, got[b]); ok {
					t.Errorf("%s and %s share a key", b.Name(), o.Name())
				}
			}
			if again, _ := ParseBindings(got.Map()); again != got {
				t.Errorf("round trip: %v, want %v", again, got)
			}
		})
	}
}

// The card shows the player's keys, and the game screen acts on them.
func TestCardUsesBindings(t *testing.T) {
	ks := DefaultBindings()
	if err := ks.Set(BindAttack, KeyQ); err != nil {
		t.Fatal(err)
	}
	card := Card([]*Unit{{ID: 1, Kind: game.Soldier, Own: true, Ally: true}}, &ks)
	if card[0].Bind != BindAttack || card[0].Key != KeyQ {
		t.Errorf("attack button %+v, want key Q", card[0])
	}
	if !reflect.DeepEqual(card[1].Key, KeyS) {
		t.Errorf("stop button %+v, want key S", card[1])
	}
}

func FuzzParseBindings(f *testing.F) {
	f.Add("attack", "Q", "stop", "Q")
	f.Add("build.base", "b", "dance", "?")
	f.Fuzz(func(t *testing.T, n1, k1, n2, k2 string) {
		got, _ := ParseBindings(map[string]string{n1: k1, n2: k2})
		for b := range NumBinds {
			if !Bindable(got[b]) {
				t.Fatalf("%s has key %d", b.Name(), got[b])
			}
			if o, ok := got.Conflict(b, got[b]); ok {
				t.Fatalf("%s and %s share a key", b.Name(), o.Name())
			}
		}
	})
}
