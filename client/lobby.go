package client

import (
	"fmt"

	"hostfall/game"
	"hostfall/session"
)

// LobbyHost is implemented by clients whose host sets the lobby up from
// the window (the network and the offline client): the map, the game
// speed, what happens to a player who drops, the bots' colours and teams,
// and who stays. Each method is the host's only and refused otherwise.
type LobbyHost interface {
	// Configure changes the settings the host chooses in the lobby; the
	// session's name, password and turn limit stay.
	Configure(Setup) error
	// EditBot sets the colour and team of the bot in slot (the rest of e
	// is ignored).
	EditBot(slot int, e session.SlotEdit) error
	// Kick removes the player of slot from the session; it may not come back.
	Kick(slot int) error
}

// Setup is what the host chooses in the lobby.
type Setup struct {
	MapSeed   uint64
	MapSize   uint32 // tiles a side; 0 means the game's default
	TurnTicks uint32 // the turn length, the game's speed (see Speeds)
	AwayBot   uint32 // see session.Lobby.AwayBot
}

// SetupOf is the setup lobby l has.
func SetupOf(l *session.Lobby) Setup {
	return Setup{MapSeed: l.MapSeed, MapSize: l.MapSize, TurnTicks: l.TurnTicks, AwayBot: l.AwayBot}
}

// Settings are the session settings of lobby l changed to s; password is
// the session's (the lobby holds only whether there is one).
func (s Setup) Settings(l *session.Lobby, password string) session.Settings {
	return session.Settings{Name: l.Name, MapSeed: s.MapSeed, MapSize: s.MapSize, TurnTicks: s.TurnTicks,
		MaxPlayers: l.MaxPlayers, Password: password, TurnLimit: l.TurnLimit, AwayBot: s.AwayBot}
}

// Speed is a game speed the lobby offers: a turn length. The world steps
// once a turn, so a longer turn is a slower game; every peer runs the
// host's turns, so the speed is the same on all of them.
type Speed struct {
	Name      string
	TurnTicks uint32
}

// Speeds are the lobby's game speeds, in the order a click cycles them;
// Normal is the session's default turn (5 ticks of 10 ms).
var Speeds = []Speed{{"Normal", 5}, {"Fast", 3}, {"Slow", 8}}

// SpeedName names the game speed of a turn of ticks ticks.
func SpeedName(ticks uint32) string {
	for _, s := range Speeds {
		if s.TurnTicks == ticks {
			return s.Name
		}
	}
	return fmt.Sprintf("%d ms turns", ticks*session.DefaultTickMillis)
}

// NextSpeed is the speed after the one of ticks (Normal after any other).
func NextSpeed(ticks uint32) uint32 {
	for i, s := range Speeds {
		if s.TurnTicks == ticks {
			return Speeds[(i+1)%len(Speeds)].TurnTicks
		}
	}
	return Speeds[0].TurnTicks
}

// NewSeed returns a new map seed: six digits at most, easy to read out
// and to type into another lobby.
func NewSeed() uint64 { return 1 + CryptoRand{}.Uint64()%999_999 }

// StartProblem says why the host cannot start the game of lobby l yet, as
// a sentence the lobby shows instead of a Start button that can be
// clicked; "" when it can start. me is the host's slot.
func StartProblem(l *session.Lobby, me int) string {
	players := 0
	for _, s := range l.Slots {
		if s.HoldsPlayer() {
			players++
		}
	}
	if players > game.MaxPlayers {
		return fmt.Sprintf("A game takes at most %d players: close a slot.", game.MaxPlayers)
	}
	return l.StartProblem(me) // the session's rule: two sides, everyone ready
}
