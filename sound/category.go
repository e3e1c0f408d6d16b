package sound

import (
	"fmt"
	"strings"
)

// Category is what kind of sound a sound is, for the player's volume
// sliders: each category has a volume of its own under the global one
// (Server.SetCategoryVolume). A sound's category is fixed when it is
// registered (Bank.SetCategory; RegisterAssets uses CategoryOf), so
// requests stay as they are.
type Category uint8

const (
	Effects Category = iota // battle, buildings, clicks: the default
	Voices                  // what units and the announcer say
	Music                   // music and ambience
	NumCategories
)

var categoryNames = [NumCategories]string{Effects: "effects", Voices: "voices", Music: "music"}

func (c Category) String() string {
	if c < NumCategories {
		return categoryNames[c]
	}
	return fmt.Sprintf("Category(%d)", uint8(c))
}

// voiceSuffixes and voiceNames name the spoken sounds of assets/sounds.
var (
	voiceSuffixes = []string{firstGroupSuffix, secondGroupSuffix, twoGroupsSuffix, ".ack", ".ready"}
	voiceNames    = []string{"building.done", "building.under_attack", "ui.not_enough_resources",
		"ui.player_left", "ui.host_changed", "ui.victory", "ui.defeat"}
	musicPrefixes = []string{"music.", "ambience."}
)

// CategoryOf is the category of a sound name of assets/sounds: music.* and
// ambience.* are music; selection lines, acknowledgements, "ready" and the
// announcer's lines are voices (a building's .select is a horn or drums:
// an effect); everything else is an effect.
func CategoryOf(name string) Category {
	for _, p := range musicPrefixes {
		if strings.HasPrefix(name, p) {
			return Music
		}
	}
	for _, n := range voiceNames {
		if name == n {
			return Voices
		}
	}
	if strings.HasPrefix(name, "base.") || strings.HasPrefix(name, "barracks.") {
		return Effects
	}
	for _, s := range voiceSuffixes {
		if strings.HasSuffix(name, s) {
			return Voices
		}
	}
	return Effects
}
