// Package session is Hostfall's lobby, lockstep and host migration as a pure
// state machine, in the style of etcd's raft: no I/O, no goroutines, no clock,
// no floats and no randomness of its own. Commands, snapshots and state hashes
// are opaque to it (it never imports the game).
//
// # The loop the caller runs
//
// One goroutine owns a Node (it is not safe for concurrent use) and does:
//
//	n, _ := session.NewNode(session.Config{Self: myID, Name: "Ann", GameVersion: v, Rand: seeded})
//	n.Host(settings)          // or n.Join(hostID)
//	for {
//		select {
//		case <-ticker.C:        n.Tick()              // every Config tick (10 ms for the defaults)
//		case m := <-inbound:    m.From = sender; n.Step(m)
//		case p := <-connected:  n.Step(session.Message{Kind: session.MsgConnected, From: p})
//		case p := <-lost:       n.Step(session.Message{Kind: session.MsgDisconnected, From: p})
//		case c := <-input:      n.Propose(slot, c)
//		}
//		if n.HasReady() {
//			rd := n.Ready()
//			if rd.Restore != nil { game.Restore(rd.Restore.Data) }       // state after rd.Restore.Turn
//			var hashes []session.HashReport
//			for _, t := range rd.Committed {                             // consecutive turns, in order
//				game.Step(t)                                             // t.Departures: surrender those slots
//				if t.WantHash { hashes = append(hashes, session.HashReport{Turn: t.Number, Hash: game.Hash()}) }
//			}
//			var snap []byte
//			if rd.SnapshotAt != 0 { snap = game.Snapshot() }
//			for _, m := range rd.Messages { transport.Send(m.To, m.Marshal()) }
//			show(rd.Events)
//			n.Advance()
//			for _, h := range hashes { n.ReportHash(h.Turn, h.Hash) } // what the game produced, after Advance
//			if snap != nil { n.Snapshot(rd.SnapshotAt, snap) }
//		}
//	}
//
// Tick is the only clock: every duration in Config counts ticks. When one
// runs out, Tick steps a timeout to the node itself through Step
// (MsgHostSilent, MsgClaimOverdue, MsgGatherOver; etcd's raft does the same
// with MsgHup), so a change of role always follows a message. Each role has
// one step function (stepJoining, stepFollower, stepCandidate, stepHost), and
// roles change only through one become… function per role (role.go:
// becomeJoining, becomeFollower, becomeCandidate, becomeHost, becomeLeft),
// which takes what the role needs, checks the move against a table of the
// moves the protocol makes and ends the old role in one reset. The
// replicated history is a type of its own (history.go), and votes are
// counted in one place (quorum.go). The defaults
// fit a 10 ms tick (DefaultTickMillis): 50 ms turns (TurnTicks 5), heartbeats
// every 100 ms, a silent host suspected after 300 ms (FailTicks 30; up to
// 1.2 s on a link whose stalls made a follower suspect a live host, see
// suspect.go), a lagging
// or disconnected player dropped after a visible 3 s wait (DropTicks 300), a
// 1 s countdown step, state hashes every 10 turns.
//
// # Connections
//
// The transport reports connection changes by stepping the local kinds
// MsgConnected and MsgDisconnected with From set to the peer; Closed on a
// MsgDisconnected says the remote end closed or reset the connection (its
// process died, or it hung up) rather than the link timing out. A lost
// connection to the host starts a migration at once; a host that goes silent
// without a report is suspected after FailTicks. Local kinds are never encoded.
//
// # Wire
//
// Message.Marshal and UnmarshalMessage are the codec the real network and
// session/simnet share (protobuf, session/internal/wirepb; `make proto`
// regenerates it). From and To are not encoded: the receiver sets From to
// the remote peer. A frame is at most MaxMessageSize bytes; decoding anything
// larger or malformed fails with an error wrapping ErrMalformed.
//
// # Lobby and handshake
//
// The host owns the Lobby (settings, slots, spectators) and broadcasts every
// revision; EvLobbyChanged carries it. Slot index = game player number. A
// joiner's Hello names protocol and game version; with a password the host
// sends its salt and a nonce and the joiner answers HMAC-SHA256(key =
// Argon2id of the password and the salt, nonce ‖ host ID ‖ joiner ID), so
// the password never crosses the wire and a fake host that captures a proof
// pays the KDF for every guess (see password.go for why not a PAKE). Every member that joined with the password keeps it, so whoever
// hosts after a migration checks proofs as the first host did (a host that
// does not know it admits nobody). From the third wrong proof in a row on,
// a peer waits a second longer for each before it is challenged again,
// and at most 64 challenges are open at once (10 s each). Refusals (EvRefused) are sentences: version mismatch naming both
// versions, full, wrong password, game in progress (join as a spectator),
// kicked. Start runs the countdown 5..1 (EvCountdown) once the lobby has
// two sides and its humans are ready (Lobby.StartProblem says what is
// missing, in a sentence), then EvLoad: the caller
// loads and calls Loaded; turn 1 follows when every player has loaded
// (EvGameStarted).
//
// # Turns and commands
//
// The host closes a turn every TurnTicks with the commands that reached it;
// a late command goes into the next turn. Propose(slot, data) is allowed for
// the slots in Status.Drives: a player's own slot, and bot slots while this
// node hosts (after a migration the new host drives them). The host
// attributes a player's commands to the sender's slot, so nobody can forge
// another slot's command. Each command carries (slot, seq); a proposer keeps
// it until it is committed and resends it (also to a new host), and the host
// takes seq numbers only in order, so a command executes exactly once — or
// never, if its author left. Bot commands the failed host had not sequenced
// are lost with it. Turns are numbered from 1 across host changes; Epoch is
// generation×16 + the sequencing host's slot, so two hosts never share one.
//
// The host measures round trips from acknowledgements and sets an input delay
// (Status.Delay, in turns): followers hold that many turns back before
// handing them over, to hide jitter. On a LAN it is 0. When a player is more
// than MaxLagTurns behind, silent, or disconnected, the host holds turns
// back, everyone sees EvWaiting with the ticks left, and after DropTicks the
// player is away: Turn.Presence marks it at a turn (EvPlayerAway on every
// peer at the same turn). A player whose connection its end closed (a dead
// process) is away at the next turn, with no wait. The DropTicks of waiting are a budget per player
// that only time in step refills (a tick per 4), not away and back: a
// player that lags and catches up again and again is waited for once, then
// little, and never more than 5 s in a minute (budget.go). Its slot and units stay; nobody waits for it
// (with Lobby.AwayBot the host drives the slot, a bot plays it). Once
// it follows the host again and has caught up to within MaxLagTurns/2, a
// later turn marks it back (EvPlayerBack). Only a player's own Leave (or a
// kick) sequences a departure: no timeout makes anyone leave. A node that
// comes back by snapshot shows the departures it missed (EvPlayerLeft, with
// the reason the snapshot carries), each once.
//
// # Host migration
//
// When the host fails, every peer turns to the first player in slot order
// that is not away and not known to have failed. That candidate claims a new
// epoch; a peer that still hears the host answers only once the host either
// speaks again (then it rejects the claim) or is suspected too. Followers
// send what they hold: their history (checked by a chain hash), the lobby,
// and their unsequenced commands. With followers making a strict majority of
// the players present (the failed host counted: it may only be slow; not
// one that said Bye or whose connection its end closed, which is gone) the
// candidate adopts the longest history and the newest lobby, marks away
// everyone who did not follow, and closes a turn at once. Without that
// majority it goes back to the old host if that answers, and otherwise waits
// ("waiting for the other players", EvWaiting with Slot -1) until DropTicks
// after the loss; then it hosts whoever followed, alone if need be — the
// last survivor of a game plays on. A host follows a newer claim only when a
// strict majority of the players present has moved to it; the players that
// moved count as present even when the host marked them away, so a host left
// alone never steps down for one claim that may be seconds old.
//
// # Authority: no member's word alone
//
// Every member may be hostile, so the session checks what it can rather
// than trust a message:
//   - An epoch names its host (generation×16 + slot): a claim, a rival
//     host's ping or a merge order counts only from the player of that
//     slot. A generation more than 2^16 ahead of any this node knows is
//     refused, and only players of the game move the node's own, by at
//     most 64 a message (maxGenStep): an honest game moves it by one a
//     migration.
//   - A peer whose connection was closed by its end (MsgDisconnected with
//     Closed) does not count among the players present when a candidate
//     counts its majority. Only the peer itself can close its connection,
//     so a member that does so on purpose is taken as gone by those it hung
//     up on and gains nothing more than leaving: the others play on without
//     it and it finds the game again as any absent player does. A close
//     from a host that lives (a reset on the way) makes a split, which the
//     split rule below merges.
//   - A follower in a migration follows a claim only from the candidate
//     its own rule names (or a player listed before it, which the claim
//     proves alive); a claim from further down waits until the rule comes
//     to its claimer. A candidate outbids a later claimer once, and only
//     answers it after that.
//   - A host steps down for a claim only when a strict majority of the
//     players present has moved to a newer generation. In a split, a host
//     counts a rival's side from what the players say of themselves: a
//     follower pinged by another host of its game answers whose side it is
//     on (a Reject naming its host), and a rival's side is the rival plus
//     the players that said they follow it and are not heard following this
//     host; what the rival claims of its side counts for nothing. A member
//     that still follows this host cannot be a rival at all. A junior host
//     checks a merge order the same way and answers one the rule does not
//     support with a merge order of its own, which makes the senior
//     reconsider. With equal sides, a lead counts only as far as a player
//     of the leading side, other than its host, acknowledged it (rivalTurn,
//     sideTurn): in a game of two, the other player cannot win a tie by
//     saying it is ahead.
//   - A repair snapshot is taken only from the majority peer the host
//     named, and only if it continues the repaired peer's history; the
//     next hash vote checks the state, and a snapshot that does not
//     restore makes the caller take the game back from its host. A
//     snapshot travels in parts of at most SnapshotChunk bytes (1 MiB),
//     kept only from the peers this node could take one from (chunk.go);
//     a catch-up of turns goes in messages of at most 4 MiB of commands.
//   - What a host answers a member (catch-ups) comes from a budget: room
//     for one catch-up, refilled by 4 bytes for each byte the member sends,
//     so acks that ask again and again cost the host at most 4× what they
//     cost the member (budget.go).
//   - A member whose client sends what no honest client does (hash reports
//     of turns nobody played, command batches larger than any resend,
//     commands for another slot) has each such message ignored and
//     counted: the host warns it privately at 3, and removes it at 10 as a
//     sequenced departure every peer shows (DepartMisbehaved), refused from
//     rejoining like a kicked player. A minute without one forgives the
//     count (offence.go). This is the one way a player leaves without its
//     own action, and only a modified or broken client earns it.
//
// # Nobody is forced out; one game after any split
//
// A peer that lost its game (its host went on without it, or its side lost
// a merge) seeks it: Hello to the host it was pointed to, then to every
// player in turn (a member answers with its host's name, also to a process
// restarted with the player's identity; a host's pings also point the way). The host admits it back into its own slot with a
// snapshot plus the turns since, and marks it back once it has caught up.
// A seeker that finds nobody for DropTicks+1 s runs for host itself.
// A seeker takes a Welcome or a refusal only from a host something vouches
// for (seektrust.go): the one it was sent to, one another player named
// when asked, or the first player of the list it has not found silent (the
// one an election would pick). A member that answers for a game of its own
// is ignored, and its pings no longer draw the seeker's questions.
// A joiner welcomed into a game under way (late join or rejoin) asks again
// when 20 messages of its host have come since the Welcome without the
// snapshot: on the one ordered stream they would have waited behind it, so
// a slow snapshot is never asked for twice, and a lost one is.
//
// When the network splits, both sides play on. Every host keeps pinging the
// players it misses, so the two hosts meet when the network heals, and the
// players of the other side answer whose side they are on. The senior
// host (lowest slot; on a tie, the newer epoch) alone decides, so they
// never both win: the side with more players goes on; with equal sides the
// one more than 40 turns (2 s) ahead, as a player of that side other than
// its host says (a host's own word counts for nothing: a member posing as
// a host far ahead would take the game); else the senior. It decides FailTicks
// after it first heard the rival, so each side counts only players heard
// since (a host that was stopped cannot count its side from the messages
// that waited for it), and its decision is final unless the junior, which
// checks it, refuses it with the sides as it counts them and the rule then
// favours the junior. The losing host tells its peers to merge (MsgMerge)
// and they all rejoin the winner by snapshot; what they played since the
// split is lost, and commands they sequenced only there never execute.
// Only their Byes survive: each names the players its history holds as
// having left on purpose in its Hello (Targets), and the winner, which may
// have them only away, sequences their departure, believed for a player it
// has lost too (so a lie costs no player present its seat).
// Every turns message carries the chain it extends: a follower never
// commits turns onto a history the host does not hold, it rejoins instead.
// Generations are never reused by a node (it remembers the newest it saw),
// so two histories never share an epoch.
//
// Liveness bound (tested by simnet): after the host fails with every other
// player alive and connected, a turn of the new epoch is applied within
// FailTicks + TurnTicks + 3 × link latency + 5 ticks (46 ticks at the
// defaults on 1–2 tick links); a reported connection loss cuts this to a few
// ticks.
//
// # Desync, late join, rejoin, spectators
//
// Each peer reports its state hash for every turn with WantHash (every
// HashEvery turns). When the reports of a turn differ, the majority wins (ties:
// the host's hash); every peer emits EvDesync with all hashes (what a report
// file needs); a majority peer is asked for a snapshot (Ready.SnapshotAt ->
// Snapshot) and the minority peers restore it (Ready.Restore) and replay the
// turns since (EvDesyncRepaired), at most 10 times a minute per member;
// simnet checks that a divergence is
// repaired within 6×HashEvery turns (60 at the default). A joiner during play — a spectator, or a
// known player (same peer ID) whose slot has not departed — gets the same
// snapshot plus the turns since, while the others play on. Spectators receive
// turns and never propose.
//
// # Save and resume
//
// Save(turn, state) captures the game after a turn: the lobby and a Snapshot
// with the session's chain hash, sequence numbers and departed slots
// (session.Saved). Host(Settings{Resume: &saved}) opens a lobby for the same
// players (Lobby.Resume = the saved turn): bots stay bots, departed players
// stay out, each other human slot is reserved for its player — matched by
// peer ID, else by name; strangers are refused; the game cannot start until
// every reserved player is back and ready (or a bot takes the slot). When
// loading, the host restores the saved state itself and sends it to every
// peer as a MsgSnapshot; followers emit EvLoad together with that Restore,
// and the first turn is Resume+1. From there the game is like any other.
//
// # --auto
//
// ElectHost is the rule peers that meet with no session apply to what they
// see announced, so they all pick the same host.
package session
