package session

// MsgKind is the type of a Message.
type MsgKind uint8

// Message kinds. Local kinds never cross the wire: the caller steps them to
// report connection changes.
const (
	MsgNone MsgKind = iota

	// Join handshake.
	MsgHello     // joiner → host: Hello; Targets: the players it heard say Bye (a seeker after a lost merge)
	MsgChallenge // host → joiner: Nonce to prove the password with
	MsgProof     // joiner → host: Proof = HMAC of the nonce
	MsgWelcome   // host → joiner: Slot, Lobby, NextSeq, Epoch
	MsgRefuse    // host → joiner: Refusal

	// Lobby.
	MsgLobby     // host → all: Lobby (a new revision)
	MsgEdit      // player → host: Edit of its own slot
	MsgChat      // player → host → recipients: Chat
	MsgCountdown // host → all: Count (5..1)
	MsgLoaded    // peer → host: this peer's caller has loaded the game

	// Lockstep.
	MsgCommands // peer → host: Commands to sequence (slot decided by the host)
	MsgTurns    // host → peer: Turns in order; Delay = input delay in turns
	MsgAck      // peer → host: Have (last contiguous turn), Need, Hashes; also the heartbeat
	MsgPing     // host → peer: heartbeat while no turn flows

	// Desync repair and catch-up.
	MsgDesync      // host → minority peer: Desync report (the peer will be repaired)
	MsgSnapshotReq // host → majority peer: send a snapshot to Targets
	MsgSnapshot    // majority peer → target: Snapshot plus the Turns after it

	// Host migration.
	MsgClaim  // candidate → peers: Epoch (new), Turn + Chain (its history)
	MsgFollow // peer → candidate: Epoch, Turn + Chain, Turns it has beyond the claim, Lobby, Commands pending
	MsgReject // peer → candidate: the host of Epoch is alive (or the histories differ)

	MsgWaiting // host → all: waiting for Slot, Count ticks left (0 = the wait is over)
	MsgBye     // peer → host, or host → all: leaving the session on purpose
	MsgMerge   // host → rival host or its own peers: Targets[0] hosts the game that goes on; rejoin it

	msgLocal // kinds below are local: never encoded

	// MsgConnected reports that the transport connected to From.
	MsgConnected
	// MsgDisconnected reports that the connection to From was lost; with
	// Closed set, the remote closed or reset it (its process is gone, or it
	// hung up) rather than the link going silent until a timeout.
	MsgDisconnected
	// MsgRenewing reports that the transport is replacing the relay circuit
	// to From: allow its silence for Count ticks (renewal.go).
	MsgRenewing

	// Timeouts: the node steps these to itself (From = itself) from Tick
	// when a duration runs out, as etcd's raft steps MsgHup, so every
	// change of role goes through Step.

	// MsgHostSilent: the host has said nothing for longer than FailTicks.
	MsgHostSilent
	// MsgClaimOverdue: the candidate a follower waits for has not claimed in time.
	MsgClaimOverdue
	// MsgGatherOver: a candidate's time to gather followers has run out.
	MsgGatherOver
)

var msgNames = map[MsgKind]string{
	MsgNone: "none", MsgHello: "hello", MsgChallenge: "challenge", MsgProof: "proof",
	MsgWelcome: "welcome", MsgRefuse: "refuse", MsgLobby: "lobby", MsgEdit: "edit",
	MsgChat: "chat", MsgCountdown: "countdown", MsgLoaded: "loaded", MsgCommands: "commands",
	MsgTurns: "turns", MsgAck: "ack", MsgPing: "ping", MsgDesync: "desync",
	MsgSnapshotReq: "snapshot-req", MsgSnapshot: "snapshot", MsgClaim: "claim",
	MsgFollow: "follow", MsgReject: "reject", MsgWaiting: "waiting", MsgBye: "bye", MsgMerge: "merge", MsgConnected: "connected",
	MsgDisconnected: "disconnected", MsgRenewing: "renewing", MsgHostSilent: "host-silent", MsgClaimOverdue: "claim-overdue",
	MsgGatherOver: "gather-over",
}

func (k MsgKind) String() string {
	if s, ok := msgNames[k]; ok {
		return s
	}
	return "unknown"
}

// IsLocal reports whether k is a local kind (connection reports) that is never
// sent or encoded.
func (k MsgKind) IsLocal() bool { return k > msgLocal }

// isTimeout reports whether k is a timeout the node steps to itself.
func (k MsgKind) isTimeout() bool { return k >= MsgHostSilent }

// What a kind may cost its receiver, for the transport to ask before a
// message reaches the node (the way raft's util.go classifies its kinds),
// so the rule of who may send what lives with the messages it names.

// IsKnock reports whether a stranger, a peer not admitted to the session
// (not in the lobby, not a host this peer asked), may send k: a join
// (MsgHello) and its password proof (MsgProof). A transport reads a
// stranger's message only as far as its kind (PeekKind) and drops it
// unless it is a knock.
func (k MsgKind) IsKnock() bool { return k == MsgHello || k == MsgProof }

// IsGuess reports whether k guesses the session's password (MsgProof): a
// transport takes each one out of a budget per address of its sender, so
// fresh peer IDs on one machine guess no faster than one peer.
func (k MsgKind) IsGuess() bool { return k == MsgProof }

// Hello opens the join handshake.
type Hello struct {
	Protocol    uint32
	GameVersion string
	Name        string
	Spectate    bool
}

// Message is every session message, one flat struct in the style of raftpb;
// each kind uses the fields named in its comment above. From and To are not
// encoded: the receiver's transport sets From to the remote peer.
type Message struct {
	Kind     MsgKind
	From, To PeerID

	Epoch    uint64
	Turn     uint64
	Turns    []Turn
	Commands []Command
	Lobby    *Lobby
	Hello    *Hello
	Nonce    []byte
	Proof    []byte
	Refusal  *Refusal
	Chat     *Chat
	Count    uint32
	Have     uint64
	Need     bool
	Hashes   []HashReport
	Snapshot *Snapshot
	Slot     int
	Chain    uint64
	NextSeq  uint64
	Delay    uint32
	Edit     *SlotEdit
	Targets  []PeerID
	Desync   *DesyncInfo
	Loaded   bool

	// Closed (MsgDisconnected only, never encoded): the remote end closed
	// or reset the connection, so nothing waits for it to speak again.
	Closed bool
}
