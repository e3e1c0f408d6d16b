package network

import (
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/game"
	"hostfall/match"
	"hostfall/session"
)

// EventKind is the type of an Event.
type EventKind uint8

const (
	EvJoined         EventKind = iota + 1 // joined a session: Slot (-1 = spectator), Lobby as the host welcomed it
	EvRefused                             // the host refused this peer: Text is the sentence to show
	EvLobby                               // the lobby changed: Lobby
	EvChat                                // Chat
	EvCountdown                           // Count: 5, 4, 3, 2, 1
	EvGameStarted                         // turn 1 is coming
	EvTurn                                // every PeerOptions.TurnEvery turns: Turn, Epoch, Host, Hash
	EvHostChanged                         // OldHost → Host at Epoch; Turn = first turn of the new host; Took = loss → that turn; OldEpoch = the epoch of the turns played before
	EvWaiting                             // waiting for Name (Slot); Left before it is dropped
	EvWaitOver                            // the wait for Slot is over
	EvPlayerLeft                          // Slot (Name) left at Turn for Reason
	EvDesync                              // Desync: the peers' states differed at Turn
	EvDesyncRepaired                      // this peer restored the majority's state of Turn
	EvDesyncReport                        // Report: what the report file says (write it and show the path)
	EvEnd                                 // the game ended at Turn with Hash; Winner is the team (-1 = none)
	EvLeft                                // this peer left the session: Text says why
	EvSaved                               // PeerOptions.SaveAt: Saved is the game after Turn with Hash (write it); or Text says why not
	EvPlayerAway                          // Slot (Name) is away from Turn: silent; its slot and units stay
	EvPlayerBack                          // Slot (Name) is back from Turn
	EvPaused                              // Slot (Name) paused the game at Turn; Count pauses left (-1: no limit)
	EvResuming                            // Slot (Name) resumed at Turn; the world moves in Count turns
	EvResumed                             // the world moves again from Turn; Slot (Name) resumed it
)

var eventKindNames = [...]string{"?", "joined", "refused", "lobby", "chat", "countdown", "game-started",
	"turn", "host-changed", "waiting", "wait-over", "player-left", "desync", "desync-repaired",
	"desync-report", "end", "left", "saved", "player-away", "player-back", "paused", "resuming", "resumed"}

func (k EventKind) String() string {
	if int(k) < len(eventKindNames) {
		return eventKindNames[k]
	}
	return "unknown"
}

// Event tells the UI (or the headless command) what happened. Kind says
// which fields are set.
type Event struct {
	Kind     EventKind
	At       time.Time
	Slot     int
	Name     string
	Turn     uint64
	Epoch    uint64
	OldEpoch uint64 // EvHostChanged: the epoch of the last turn played before it (0: none)
	Host     peer.ID
	OldHost  peer.ID
	Hash     uint64
	Time     int // EvEnd: the game time in ticks (game.World.Time)
	Took     time.Duration
	Left     time.Duration
	Count    int
	Winner   int
	Winners  []game.PlayerID // EvEnd: the players of the winning team
	Players  []EndPlayer     // EvEnd: every player of the game at the end, in game player order
	Reason   session.DepartReason
	Text     string
	Chat     *session.Chat
	Lobby    *session.Lobby
	Desync   *session.DesyncInfo
	Report   *match.Report
	Saved    *session.Saved
}

// EndPlayer is what is left of one player at the game's end: the lobby
// slot it plays, its units and buildings, and whether it is out (beaten,
// surrendered or departed). A player that was never out still has its army.
type EndPlayer struct {
	Slot      int
	Units     int
	Buildings int
	Out       bool
}
