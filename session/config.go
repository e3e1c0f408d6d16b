package session

import "errors"

// Rand is the only source of randomness a Node uses (challenge nonces). Inject
// a seeded one in tests (math/rand/v2's *rand.Rand satisfies it) and a
// crypto-backed one in production.
type Rand interface {
	Uint64() uint64
}

// Config sets up a Node. Durations count ticks; the defaults fit a caller that
// ticks every 10 ms (DefaultTickMillis).
type Config struct {
	Self        PeerID
	Name        string // the player name shown in the lobby
	GameVersion string // peers with another game version are refused
	Password    string // joiner: the password to prove; host: see Settings.Password
	Spectate    bool   // join as a spectator
	Rand        Rand   // required

	TurnTicks      int // ticks per turn when hosting (default 5 = 50 ms)
	HeartbeatTicks int // a peer sends at least this often to its host and back (default 10)
	FailTicks      int // silence after which the host is suspected (default 30 = 300 ms)
	ClaimWaitTicks int // how long to wait for the expected candidate's claim (default FailTicks+20)
	GatherTicks    int // how long a candidate gathers followers (default 2×FailTicks+20)
	ResendTicks    int // resend unsequenced commands / unacked turns after this (default 20)
	MaxLagTurns    int // the host holds back when a peer is this many turns behind (default 10)
	DropTicks      int // how long the host waits for a stalled player before dropping it (default 300 = 3 s)
	LoadTicks      int // how long the host waits for a player that answers but has not loaded the game (default 2000 = 20 s)
	CountdownTicks int // ticks per countdown step 5..1 (default 100 = 1 s)
	HashEvery      int // peers report their state hash every this many turns (default 10)
	MaxDelayTurns  int // cap of the adaptive input delay (default 4)
	KeepTurns      int // committed turns kept in memory for catch-up and migration (default 8192)
	KeepBytes      int // and at most about this many bytes of them (default 64 MiB; budget.go)
	SnapshotChunk  int // a snapshot's state travels in parts of at most this many bytes (default 1 MiB)

	// Generation is Status.Generation as an earlier run of this identity
	// last reported it: a restarted process never claims a generation it
	// (or anyone it heard) already used, so two histories never share an
	// epoch. Zero for a first run.
	Generation uint64
}

// DefaultTickMillis is the tick interval the defaults are chosen for.
const DefaultTickMillis = 10

var errNoRand = errors.New("session: Config.Rand is required (inject a seeded source in tests)")

func (c *Config) fill() {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&c.TurnTicks, 5)
	def(&c.HeartbeatTicks, 10)
	def(&c.FailTicks, 30)
	// The expected candidate may learn of the host's loss only from silence,
	// FailTicks after the others saw the connection reset; its claim then
	// still travels. A follower answers a claim once it suspects the host
	// itself, up to FailTicks after the claim was sent, and its answer
	// travels back: the gather window covers both with margin for a
	// retransmitted packet, so a slow survivor is gathered, not dropped.
	// The common case (every survivor answers at once) decides as soon as
	// all have answered and never waits for the window.
	def(&c.ClaimWaitTicks, c.FailTicks+20)
	def(&c.GatherTicks, 2*c.FailTicks+20)
	def(&c.ResendTicks, 20)
	def(&c.MaxLagTurns, 10)
	def(&c.DropTicks, 300)
	def(&c.LoadTicks, 2000)
	def(&c.CountdownTicks, 100)
	def(&c.HashEvery, 10)
	def(&c.MaxDelayTurns, 4)
	def(&c.KeepTurns, 8192)
	def(&c.KeepBytes, 64<<20)
	def(&c.SnapshotChunk, 1<<20)
}
