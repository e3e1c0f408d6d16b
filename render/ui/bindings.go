package ui

import (
	"fmt"
	"slices"
)

// Bind is a command card command a key is bound to. Which key is the
// player's (Bindings, saved in the settings); the card shows it.
type Bind uint8

const (
	BindAttack Bind = iota
	BindStop
	BindBuildBase
	BindBuildBarracks
	BindBuildTower
	BindBuildWorkshop
	BindTrainWorker
	BindTrainSoldier
	BindTrainArcher
	BindTrainCatapult
	BindResearchWeapons
	BindResearchArmor
	NumBinds
)

// cardGroup is the command card a command shows on. Commands of one card
// need keys of their own; commands of different cards may share a key (S
// stops units and trains soldiers at the barracks).
type cardGroup uint8

const (
	cardUnits cardGroup = iota
	cardBase
	cardBarracks
	cardWorkshop
)

var cardGroupNames = [...]string{cardUnits: "units'", cardBase: "base's", cardBarracks: "barracks'", cardWorkshop: "workshop's"}

// bindInfo describes a Bind: its name in the settings file, its name for
// the player, its default key and its card.
type bindInfo struct {
	name  string
	label string
	key   Key
	card  cardGroup
}

var binds = [NumBinds]bindInfo{
	BindAttack:          {"attack", "Attack-move", KeyA, cardUnits},
	BindStop:            {"stop", "Stop", KeyS, cardUnits},
	BindBuildBase:       {"build.base", "Build a base", KeyB, cardUnits},
	BindBuildBarracks:   {"build.barracks", "Build barracks", KeyR, cardUnits},
	BindBuildTower:      {"build.tower", "Build a tower", KeyT, cardUnits},
	BindBuildWorkshop:   {"build.workshop", "Build a workshop", KeyK, cardUnits},
	BindTrainWorker:     {"train.worker", "Train a worker", KeyW, cardBase},
	BindTrainSoldier:    {"train.soldier", "Train a soldier", KeyS, cardBarracks},
	BindTrainArcher:     {"train.archer", "Train an archer", KeyA, cardBarracks},
	BindTrainCatapult:   {"train.catapult", "Build a catapult", KeyC, cardWorkshop},
	BindResearchWeapons: {"research.weapons", "Research weapons", KeyW, cardWorkshop},
	BindResearchArmor:   {"research.armor", "Research armor", KeyE, cardWorkshop},
}

// Name is the command's name in the settings file ("train.worker").
func (b Bind) Name() string { return binds[b].name }

// Label is the command's name for the player ("Train a worker").
func (b Bind) Label() string { return binds[b].label }

// Bindings are the keys of the commands. The zero value has no keys: start
// from DefaultBindings.
type Bindings [NumBinds]Key

// DefaultBindings are the keys of a first start.
func DefaultBindings() Bindings {
	var k Bindings
	for b := range NumBinds {
		k[b] = binds[b].key
	}
	return k
}

// Bindable reports whether a command may take key k: the letters. Digits
// are the control groups, and the other keys have jobs of their own.
func Bindable(k Key) bool { return k >= KeyA && k <= KeyZ }

// Conflict returns a command of b's card that k already has, other than b.
func (ks *Bindings) Conflict(b Bind, k Key) (Bind, bool) {
	for o := range NumBinds {
		if o != b && binds[o].card == binds[b].card && ks[o] == k {
			return o, true
		}
	}
	return 0, false
}

// Set binds key k to command b, unless k is not a key a command may have
// or another command of the same card has it: then it says so in a
// sentence and changes nothing.
func (ks *Bindings) Set(b Bind, k Key) error {
	if b >= NumBinds {
		return fmt.Errorf("there is no command %d", b)
	}
	if !Bindable(k) {
		return fmt.Errorf("%s cannot take that key: commands take the letters A to Z", b.Label())
	}
	if o, ok := ks.Conflict(b, k); ok {
		return fmt.Errorf("%s is already %s on the %s card: give that one another key first", KeyName(k), o.Label(), cardGroupNames[binds[b].card])
	}
	ks[b] = k
	return nil
}

// Map returns the bindings that differ from the defaults, by command name
// and key name, as the settings file keeps them.
func (ks *Bindings) Map() map[string]string {
	var m map[string]string
	def := DefaultBindings()
	for b := range NumBinds {
		if ks[b] != def[b] {
			if m == nil {
				m = map[string]string{}
			}
			m[b.Name()] = KeyName(ks[b])
		}
	}
	return m
}

// ParseBindings reads the settings file's bindings: commands it does not
// name keep their default keys. Unknown commands, keys a command cannot
// take and keys two commands of one card would share are left out, each
// named in problems, and those commands keep their defaults.
func ParseBindings(m map[string]string) (ks Bindings, problems []string) {
	ks = DefaultBindings()
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	slices.Sort(names) // the problems in the same order every time
	var mine []Bind    // the commands the file set
	for _, name := range names {
		b, ok := bindByName(name)
		if !ok {
			problems = append(problems, fmt.Sprintf("no command is called %q", name))
			continue
		}
		k, ok := KeyByName(m[name])
		if !ok || !Bindable(k) {
			problems = append(problems, fmt.Sprintf("%s cannot take the key %q", name, m[name]))
			continue
		}
		ks[b] = k
		mine = append(mine, b)
	}
	// A clash sends the file's command back to its default key; that may
	// clash in turn, so go on until none does (defaults never clash).
	for changed := true; changed; {
		changed = false
		for _, b := range mine {
			if o, ok := ks.Conflict(b, ks[b]); ok && ks[b] != binds[b].key {
				problems = append(problems, fmt.Sprintf("%s and %s would share the key %s", b.Name(), o.Name(), KeyName(ks[b])))
				ks[b], changed = binds[b].key, true
			}
		}
	}
	return ks, problems
}

func bindByName(name string) (Bind, bool) {
	for b := range NumBinds {
		if binds[b].name == name {
			return b, true
		}
	}
	return 0, false
}

// KeyByName is the key KeyName names: a letter or a digit.
func KeyByName(s string) (Key, bool) {
	if len(s) != 1 {
		return KeyNone, false
	}
	switch c := s[0]; {
	case c >= 'A' && c <= 'Z':
		return Letter(c), true
	case c >= 'a' && c <= 'z':
		return Letter(c - 'a' + 'A'), true
	case c >= '0' && c <= '9':
		return Digit(int(c - '0')), true
	}
	return KeyNone, false
}
