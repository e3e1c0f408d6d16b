package ui

import (
	"fmt"

	"hostfall/game"
)

// Cue asks for a sound by its name in the sound bank (see package sound).
// Positional cues are placed on the map at Pos (tiles); the others play at
// full volume.
type Cue struct {
	Sound     string
	Origin    game.UnitID // the unit whose voice it is; NoUnit for none
	Pos       Vec
	At        bool // positional
	Selection bool // a selection voice (two-groups sound)
}

// UI sound names.
const (
	SoundClick       = "ui.click"
	SoundError       = "ui.error"
	SoundChat        = "ui.chat"
	SoundNoGold      = "ui.not_enough_resources"
	SoundPlayerLeft  = "ui.player_left"
	SoundHostChanged = "ui.host_changed"
	SoundVictory     = "ui.victory"
	SoundDefeat      = "ui.defeat"
)

// SelectCue is the voice of unit u answering a selection. It plays at full
// volume wherever the camera is: it answers the player who clicked (a
// control group recalled off-screen answers too), so it is not placed on
// the map.
func SelectCue(u *Unit) Cue {
	return Cue{Sound: voice(u.Kind) + ".select", Origin: u.ID, Pos: u.Pos, Selection: true}
}

// AckCue is the voice of unit u acknowledging an order: at full volume, as
// a selection voice.
func AckCue(u *Unit) Cue {
	return Cue{Sound: voice(u.Kind) + ".ack", Origin: u.ID, Pos: u.Pos}
}

// voice names the sound family of kind k: kinds without sounds of their
// own borrow those of the nearest kind that has them.
func voice(k game.Kind) string {
	switch k {
	case game.Catapult:
		return game.Archer.String()
	case game.Tower, game.Workshop:
		return game.Barracks.String()
	}
	return k.String()
}

// maxCombatCues bounds the weapon and death sounds of one batch of events:
// a battle of hundreds makes hundreds of events a turn, and a few sounds say
// it as well as all of them.
const maxCombatCues = 6

// Notice is a line of text for the player that an event calls for.
type Notice struct {
	Text  string
	Error bool
}

// EventCues turns the world's events into sounds and notices for player me:
// fights and deaths it can see (placed on the map), and what concerns it
// (trained, built, under attack, refused).
func EventCues(cues []Cue, notes []Notice, evs []game.Event, me game.PlayerID, observer bool, w World) ([]Cue, []Notice) {
	fog := w.Fog(me)
	combat := 0
	seen := func(p game.Point) bool { return observer || fog.Sees(p) }
	for i := range evs {
		ev := &evs[i]
		pos := WorldPos(ev.Pos)
		mine := ev.Player == me && !observer
		switch ev.Kind {
		case game.EvAttack:
			if combat < maxCombatCues && seen(ev.Pos) {
				combat++
				k := ev.UnitKind
				if k.IsBuilding() {
					k = game.Archer // a tower shoots arrows
				}
				cues = append(cues, Cue{Sound: voice(k) + ".attack", Pos: pos, At: true})
			}
		case game.EvDied:
			if combat < maxCombatCues && seen(ev.Pos) {
				combat++
				s := voice(ev.UnitKind) + ".death"
				if ev.UnitKind.IsBuilding() {
					s = "building.destroyed"
				}
				cues = append(cues, Cue{Sound: s, Pos: pos, At: true})
			}
		case game.EvTrained:
			if mine {
				cues = append(cues, Cue{Sound: voice(ev.UnitKind) + ".ready", Origin: ev.Unit, Pos: pos, At: true})
			}
		case game.EvBuildStarted:
			if mine {
				cues = append(cues, Cue{Sound: "building.construct", Pos: pos, At: true})
			}
		case game.EvBuildingDone:
			if mine {
				cues = append(cues, Cue{Sound: "building.done"})
				notes = append(notes, Notice{Text: capital(ev.UnitKind.String()) + " finished."})
			}
		case game.EvResearched:
			if mine {
				cues = append(cues, Cue{Sound: "building.done"})
				notes = append(notes, Notice{Text: fmt.Sprintf("%s level %d researched.", capital(ev.Upgrade.String()), ev.Level)})
			}
		case game.EvUnderAttack:
			if mine {
				cues = append(cues, Cue{Sound: "building.under_attack"})
				notes = append(notes, Notice{Text: "We are under attack!", Error: true})
			}
		case game.EvRejected:
			if mine {
				s := SoundError
				if ev.Reason == game.RejNoGold {
					s = SoundNoGold
				}
				cues = append(cues, Cue{Sound: s})
				notes = append(notes, Notice{Text: capital(ev.Reason.String()) + ".", Error: true})
			}
		}
	}
	return cues, notes
}

func capital(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
