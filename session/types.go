package session

// PeerID names a peer. It is opaque to the session; the p2p layer uses libp2p
// peer ID strings.
type PeerID string

// ProtocolVersion is the version of this session protocol. Peers with another
// protocol version are refused with a sentence naming both versions.
// 2: password proofs keyed with Argon2id; 3: a departure may be
// DepartMisbehaved (version 2 peers refuse such a turn as malformed), and
// snapshots travel in parts (chunk.go).
const ProtocolVersion = 3

// SlotKind says who plays a lobby slot.
type SlotKind uint8

const (
	SlotOpen   SlotKind = iota // nobody yet; a joiner may take it
	SlotClosed                 // the host closed it
	SlotHuman                  // a peer plays it
	SlotBot                    // the current host's caller drives it
)

var slotKindNames = [...]string{"open", "closed", "human", "bot"}

func (k SlotKind) String() string {
	if int(k) < len(slotKindNames) {
		return slotKindNames[k]
	}
	return "unknown"
}

// Slot is one player place of the lobby. Its index in Lobby.Slots is the game's
// player number.
type Slot struct {
	Kind     SlotKind
	Peer     PeerID // the peer that plays it (SlotHuman only)
	Name     string
	Color    uint8
	Team     uint8 // 0 = no team
	Ready    bool
	BotLevel uint8 // SlotBot only
}

// LobbyState is the phase of the whole session, replicated with the lobby.
type LobbyState uint8

const (
	StateLobby     LobbyState = iota // players gather and set up
	StateCountdown                   // 5..1 before loading
	StateLoading                     // every peer loads the map; turn 1 starts when all have
	StatePlaying                     // turns flow
)

var stateNames = [...]string{"lobby", "countdown", "loading", "playing"}

func (s LobbyState) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "unknown"
}

// Lobby is the session's shared setup. The host owns it; every change bumps
// Revision and is broadcast. It is also the initial state of a replay.
type Lobby struct {
	Revision    uint64
	Name        string
	MapSeed     uint64
	MapSize     uint32
	TurnTicks   uint32 // ticks per turn (the session's turn length)
	Password    bool   // joining needs the password
	MaxPlayers  uint32
	State       LobbyState
	GameVersion string
	TurnLimit   uint64 // the game ends after this turn on every peer (0 = no limit)
	// AwayBot is what happens to an away player's slot: 0, its units hold
	// where they are; L > 0, the host runs a bot of level L−1 for it until
	// the player is back.
	AwayBot uint32
	// Resume is non-zero when the session resumes a saved game: every peer
	// starts from the saved state after turn Resume (sent by the host when
	// loading) instead of the map seed, and turns go on from Resume+1.
	Resume     uint64
	Slots      []Slot
	Spectators []PeerID
}

// Clone returns a deep copy.
func (l Lobby) Clone() Lobby {
	l.Slots = append([]Slot(nil), l.Slots...)
	l.Spectators = append([]PeerID(nil), l.Spectators...)
	return l
}

// SlotOf returns the slot the peer plays, or -1.
func (l *Lobby) SlotOf(p PeerID) int {
	for i, s := range l.Slots {
		if s.Kind == SlotHuman && s.Peer == p {
			return i
		}
	}
	return -1
}

func (l *Lobby) isSpectator(p PeerID) bool {
	for _, s := range l.Spectators {
		if s == p {
			return true
		}
	}
	return false
}

// Settings are the host-chosen parts of the lobby.
type Settings struct {
	Name       string
	MapSeed    uint64
	MapSize    uint32
	TurnTicks  uint32 // 0 = Config.TurnTicks
	MaxPlayers uint32 // 2..MaxSlots; 0 = 8
	Password   string // "" = no password
	TurnLimit  uint64 // the game ends after this turn (0 = when a team wins)
	AwayBot    uint32 // see Lobby.AwayBot
	// Resume, when set, hosts a saved game (see Saved): the lobby's slots,
	// map and turn length are the save's, human slots are reserved for the
	// players who played them, and the game starts from the saved state.
	// Name, Password and TurnLimit above still apply when set.
	Resume *Saved
}

// Saved is what the session needs to resume a game: the lobby it was played
// in and the state after a turn — the caller's state data plus the session's
// own (chain hash, sequence numbers, departed slots). Node.Save makes one.
type Saved struct {
	Lobby Lobby
	State Snapshot
}

// MaxSlots is the most slots a lobby has.
const MaxSlots = 16

// Command is one sequenced player command: the slot it acts for, its sequence
// number within that slot (1, 2, 3, … with no gaps), and the caller's bytes.
type Command struct {
	Slot int
	Seq  uint64
	Data []byte
}

// DepartReason says why a player left the game.
type DepartReason uint8

const (
	DepartLeft       DepartReason = iota // left on purpose
	DepartLost                           // connection lost or timed out
	DepartHostLost                       // was the host and failed; a new host took over
	DepartKicked                         // kicked by the host
	DepartLagging                        // fell too far behind and the wait ran out
	DepartMisbehaved                     // removed by the host: its client kept sending what no honest client sends
)

var departNames = [...]string{"left", "connection lost", "host lost", "kicked", "too far behind", "removed: its client broke the protocol"}

func (r DepartReason) String() string {
	if int(r) < len(departNames) {
		return departNames[r]
	}
	return "unknown"
}

// Departure is a sequenced removal of a player from the game; every peer
// applies it at the same turn (the game turns it into that slot's surrender).
type Departure struct {
	Slot   int
	Reason DepartReason
}

// Presence marks a player away or back at a turn. An away player keeps its
// slot and its units: it stopped answering, nobody waits for it, and it takes
// the slot back (Away false) once it has caught up again.
type Presence struct {
	Slot int
	Away bool
}

// Turn is one committed lockstep turn. Turns are numbered 1, 2, 3, … across
// host changes; Epoch is the host generation that sequenced it.
type Turn struct {
	Epoch      uint64
	Number     uint64
	Commands   []Command
	Departures []Departure
	Presence   []Presence
	// WantHash asks the caller to keep the state hash after applying the
	// turn and ReportHash(Number, hash) after Advance. Not on the wire: every
	// peer derives it from Number.
	WantHash bool
}

// Snapshot is the caller's opaque state after applying turn Turn.
type Snapshot struct {
	Turn uint64
	Data []byte
	// Session state at Turn, filled in by the node (callers leave them zero).
	Chain    uint64
	NextSeq  []uint64
	Departed uint32
	Away     uint32
	// DepartedWhy holds the DepartReason of each slot in Departed, 4 bits a slot
	// (slot i in bits 4i to 4i+3), so a node that comes back by snapshot
	// can say why the players it missed left (see Reason).
	DepartedWhy uint64
	// A snapshot larger than Config.SnapshotChunk travels in Parts parts
	// (Part is this one's index); the receiving node puts them back
	// together before it looks at the snapshot (chunk.go). Callers never
	// see parts.
	Part, Parts uint32
}

// Reason is why slot departed by the snapshot's turn (meaningful for the
// slots in Departed).
func (s *Snapshot) Reason(slot int) DepartReason {
	return DepartReason(s.DepartedWhy >> (4 * slot) & 0xf)
}

// HashReport is a state hash after a turn.
type HashReport struct {
	Turn uint64
	Hash uint64
}

// RefusalCode classifies a refusal; Refusal.Text is the sentence to show.
type RefusalCode uint8

const (
	RefuseVersion RefusalCode = iota + 1
	RefuseFull
	RefusePassword
	RefuseInProgress
	RefuseKicked
	RefuseNotMember
	RefuseBadRequest
)

// Refusal tells a joiner why it may not join, in a sentence a person reads.
type Refusal struct {
	Code RefusalCode
	Text string
}

// Chat is one chat line. Team 0 goes to everyone, otherwise to that team only.
type Chat struct {
	FromSlot int // -1 for a spectator
	FromName string
	Team     uint8
	Text     string
}

// SlotEdit is what a player may change of its own slot.
type SlotEdit struct {
	Name  string
	Color uint8
	Team  uint8
	Ready bool
}

// PeerHash is one peer's hash in a desync report.
type PeerHash struct {
	Peer PeerID
	Hash uint64
}

// DesyncInfo describes a detected divergence: every reported hash at Turn and
// the hash the majority agreed on.
type DesyncInfo struct {
	Turn     uint64
	Hashes   []PeerHash
	Majority uint64
}
