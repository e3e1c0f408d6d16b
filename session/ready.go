package session

// EventKind is the type of an Event.
type EventKind uint8

const (
	EvNone           EventKind = iota
	EvJoined                   // this node joined a session: Slot (-1 = spectator)
	EvRefused                  // this node's join was refused: Refusal
	EvLobbyChanged             // Lobby (at Revision) changed
	EvChat                     // Chat
	EvCountdown                // Count: 5, 4, 3, 2, 1
	EvLoad                     // load the game from Lobby now, then call Loaded()
	EvGameStarted              // the first turn is coming: Turn (1, or Resume+1 for a saved game)
	EvHostChanged              // OldHost → NewHost at Epoch; Ticks = ticks since the old host was lost
	EvWaiting                  // waiting for Name (Slot; -1: OtherPlayers); TicksLeft before it is away
	EvWaitOver                 // the wait for Slot ended (it caught up or was dropped)
	EvPlayerLeft               // Slot left at Turn for Reason (also in that turn's Departures)
	EvDesync                   // Desync: divergence detected (write the report from it)
	EvDesyncRepaired           // this node restored a snapshot of Turn and replays from there
	EvLeft                     // this node left the session cleanly: Text says why; stop using it
	EvPlayerAway               // Slot (Name) is away from Turn: silent, its slot and units stay
	EvPlayerBack               // Slot (Name) is back from Turn
)

// OtherPlayers is the Name of an EvWaiting with Slot -1: a candidate without
// a majority waits for the players it misses before it plays on with those
// that followed it.
const OtherPlayers = "the other players"

var eventNames = [...]string{"none", "joined", "refused", "lobby", "chat", "countdown", "load",
	"game-started", "host-changed", "waiting", "wait-over", "player-left", "desync",
	"desync-repaired", "left", "player-away", "player-back"}

func (k EventKind) String() string {
	if int(k) < len(eventNames) {
		return eventNames[k]
	}
	return "unknown"
}

// Event tells the caller something happened. Kind says which fields are set.
type Event struct {
	Kind      EventKind
	Slot      int
	Name      string
	Turn      uint64
	Epoch     uint64
	Revision  uint64
	Count     int
	TicksLeft int
	Ticks     int
	OldHost   PeerID
	NewHost   PeerID
	Reason    DepartReason
	Text      string
	Chat      *Chat
	Refusal   *Refusal
	Desync    *DesyncInfo
	Lobby     *Lobby
}

// Status is the node's volatile state, returned with every Ready.
type Status struct {
	Self     PeerID
	Host     PeerID
	IsHost   bool
	Epoch    uint64
	Slot     int   // this node's slot; -1 for a spectator or before joining
	Drives   []int // slots this node proposes for: its own, plus the bots when it hosts
	Turn     uint64
	State    LobbyState
	Delay    uint32 // input delay in turns
	Joined   bool
	Left     bool
	Revision uint64
	// Generation is the newest host generation this node has seen or
	// claimed. Keep it with the identity and pass it back as
	// Config.Generation when the process restarts.
	Generation uint64
	// HostSilence is how many ticks of silence this node allows its host
	// before it suspects it: FailTicks, more after a lossy link made it
	// suspect a live host.
	HostSilence int
}

// Ready is everything the node wants the caller to do. Handle it in this order:
//  1. Restore, if set: replace the game state by Restore.Data (the state after
//     turn Restore.Turn).
//  2. Committed: apply these turns in order (numbers are consecutive). After a
//     Restore they start at Restore.Turn+1 and may repeat turns applied before;
//     apply them again. Keep the state hash of each turn with WantHash.
//  3. SnapshotAt: if non-zero, keep the state after that turn (after
//     applying Committed).
//  4. Messages: send each to its To peer (in order per peer). Sending may
//     happen before or after applying turns.
//  5. Events: show them.
//
// Then call Advance, and then hand the node what the game produced, as
// inputs like any other: ReportHash for each kept hash, Snapshot for the
// kept state, Loaded once the game has loaded (EvLoad). match.Driver does
// all of this for a game; simnet for its toy state.
type Ready struct {
	Messages   []Message
	Committed  []Turn
	Restore    *Snapshot
	SnapshotAt uint64
	Events     []Event
	Status     Status
}
