package client

import "time"

// What the browser lists of this machine's files: the saved games and the
// replays (app reads them from the data dir; the screens only show them).

// SaveInfo is one saved game in the browser's Load game list.
type SaveInfo struct {
	Path    string
	Name    string    // the session's name
	At      time.Time // when it was saved
	Players []string  // the players' names in slot order, bots included
	Turn    uint64    // the turn it was saved after
	// Time is the game time it was saved at, in ticks (game.World.Time:
	// the clock the player saw, which stood still while the game was
	// paused); -1 when unknown.
	Time int
	// Solo: no other human player is waited for, so it plays at once.
	Solo bool
	// Problem says why the file cannot be loaded ("" when it can).
	Problem string
}

// ReplayInfo is one replay file in the browser's Replays list.
type ReplayInfo struct {
	Path    string
	Name    string    // the session's name
	At      time.Time // when the file was last written (the game's end)
	Players []string  // the players' names in slot order, bots included
	Turns   uint64
	// Length is the game clock at the end (game.World.Time): the clock
	// the players saw, which stood still while the game was paused.
	Length time.Duration
	// Problem says why the file cannot be played back ("" when it can).
	Problem string
}

// GameLoader is implemented by clients that resume a saved game from the
// browser: the network client hosts its lobby, where the save's other
// players rejoin their slots (and starts it at once when the save has no
// other human player); the offline client plays it with bots in their
// slots. The lobby or the game shows next, as after Create.
type GameLoader interface {
	LoadGame(path string, o CreateOptions) error
}
