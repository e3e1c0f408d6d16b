package ui

import (
	"testing"

	"hostfall/game"
	"hostfall/sound"
)

// Every sound the UI asks for exists in the game's sound bank.
func TestCueNamesExist(t *testing.T) {
	_, names, err := sound.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	var cues []Cue
	for _, k := range game.Kinds() {
		u := &Unit{ID: 1, Kind: k}
		cues = append(cues, SelectCue(u))
		if !k.IsBuilding() {
			cues = append(cues, AckCue(u))
		}
		for ek := game.EvTrained; ek <= game.EvResearched; ek++ {
			if (ek == game.EvTrained || ek == game.EvAttack) && k.IsBuilding() {
				continue // buildings are neither trained nor armed
			}
			ev := game.Event{Kind: ek, Player: 0, UnitKind: k, Reason: game.RejNoGold, Pos: f.w.Starts()[0]}
			cues, _ = EventCues(cues, nil, []game.Event{ev}, 0, false, f.w)
			ev.Reason = game.RejCannotBuild
			cues, _ = EventCues(cues, nil, []game.Event{ev}, 0, true, f.w)
		}
	}
	for _, s := range []string{SoundClick, SoundError, SoundChat, SoundNoGold, SoundPlayerLeft, SoundHostChanged, SoundVictory, SoundDefeat} {
		cues = append(cues, Cue{Sound: s})
	}
	seen := map[string]bool{}
	for _, c := range cues {
		if seen[c.Sound] {
			continue
		}
		seen[c.Sound] = true
		if names.ForName(c.Sound) == 0 {
			t.Errorf("the UI asks for sound %q, which the bank does not have", c.Sound)
		}
	}
	if len(seen) < 25 {
		t.Fatalf("only %d distinct sounds checked", len(seen))
	}
}
