package app

import (
	"hostfall/game"
	"hostfall/game/ai"
)

// BotMatch is an offline match of bots only (sim, play --headless).
type BotMatch struct {
	Players int
	Seed    uint64 // of the map and the bots
	Turns   int    // the turn limit if nobody has won
	Size    int
	Levels  []ai.Level  // by player; the last repeats
	Teams   []game.Team // by player; none puts every player alone
}

// Match sets the match up; an error is a setting it cannot be played with.
func (b BotMatch) Match() (*ai.Match, error) {
	c := game.FreeForAll(b.Seed, b.Players)
	c.Width, c.Height = b.Size, b.Size
	for p, t := range b.Teams {
		c.Players[p].Team = t
	}
	return ai.NewMatch(c, b.Levels, b.Seed)
}
