package game

import "fmt"

// Config describes a game. The same Config always makes the same world.
type Config struct {
	Seed          uint64         // map seed; also seeds the world's PRNG
	Width, Height int            // map size in tiles; 0 means DefaultMapSize
	Players       []PlayerConfig // 2 to 8, in slot order (PlayerID = index)
}

// PlayerConfig is one player's slot.
type PlayerConfig struct {
	Team Team // 0..7; players with the same team are allies
	Bot  bool // a bot's slot: it may not pause
}

// FreeForAll returns a config of n players, each on a team of their own.
func FreeForAll(seed uint64, n int) Config {
	c := Config{Seed: seed}
	for i := range n {
		c.Players = append(c.Players, PlayerConfig{Team: Team(i)})
	}
	return c
}

// normalize fills defaults and checks limits.
func (c Config) normalize() (Config, error) {
	if c.Width == 0 {
		c.Width = DefaultMapSize
	}
	if c.Height == 0 {
		c.Height = DefaultMapSize
	}
	if c.Width < MinMapSize || c.Width > MaxMapSize || c.Height < MinMapSize || c.Height > MaxMapSize {
		return c, fmt.Errorf("game: map size %d×%d is out of range; width and height must be %d to %d tiles",
			c.Width, c.Height, MinMapSize, MaxMapSize)
	}
	if n := len(c.Players); n < MinPlayers || n > MaxPlayers {
		return c, fmt.Errorf("game: a game needs %d to %d players, not %d", MinPlayers, MaxPlayers, n)
	}
	teams := 0
	for i, p := range c.Players {
		if p.Team >= MaxPlayers {
			return c, fmt.Errorf("game: player %d is on team %d; teams are 0 to %d", i, p.Team, MaxPlayers-1)
		}
		if p.Team != c.Players[0].Team {
			teams++
		}
	}
	if teams == 0 {
		return c, fmt.Errorf("game: every player is on team %d; a game needs at least two teams", c.Players[0].Team)
	}
	c.Players = append([]PlayerConfig(nil), c.Players...)
	return c, nil
}
