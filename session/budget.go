package session

// Answers are budgeted. A host answers what a member asks for: the turns
// after the one it says it has (a catch-up), a repair when its hash
// differs. What a member says costs it a few bytes; an answer can cost the
// host megabytes. So each member has an answer budget in bytes: it starts
// with room for one whole catch-up (maxTurnBytesInMsg) and gains answerRatio
// bytes for every byte the member sends (by the estimate of weight), up to
// that room. A catch-up that does not fit is cut to what does (the member
// asks again for the rest as its budget refills); so over any stretch of
// time after the first catch-up, the host answers a member at most
// answerRatio times what that member sent it, whatever its acks claim.
//
// Snapshots (a welcome back into a running game, a resumed game's state),
// lobbies sent again and the catch-up of a follower after a migration are
// answers too, charged to the same budget; a snapshot or a lobby goes
// whole or waits until the budget holds it. The budget outlives a member's
// Hellos: a member that rejoins again and again starts from what it had
// left (addPeer), as do its wait and bulk budgets.
//
// Repairs are counted apart: a member whose hash differed is repaired (a
// desync event, a report file, a snapshot) at most maxRepairs times in
// repairWindow; differing reports past that are left unanswered until the
// window has moved on. An honest peer's state differs once in a long while;
// one that differs every hash turn is broken or lying, and another
// snapshot would not help it.
const (
	answerRatio  = 4
	answerRoom   = maxTurnBytesInMsg
	maxRepairs   = 10
	repairWindow = 6000 // ticks: a minute at DefaultTickMillis
)

// answerBudget is what a host may still answer one member, in bytes.
type answerBudget struct {
	bytes   int
	started bool // the member's room was given
	repairs []int
}

// fill gives a new member its room for one catch-up.
func (b *answerBudget) fill() {
	if !b.started {
		b.started, b.bytes = true, answerRoom
	}
}

// credit adds what the member sent (w bytes) times answerRatio.
func (b *answerBudget) credit(w int) {
	b.fill()
	b.bytes = min(answerRoom, b.bytes+answerRatio*w)
}

// take cuts turns to what the budget holds (at least none) and charges it.
func (b *answerBudget) take(turns []Turn) []Turn {
	b.fill()
	for i, t := range turns {
		w := turnWeight(t)
		if w > b.bytes {
			return turns[:i]
		}
		b.bytes -= w
	}
	return turns
}

// spend charges an answer that goes whole or not at all (a snapshot, a
// lobby): it reports whether the budget held w bytes.
func (b *answerBudget) spend(w int) bool {
	b.fill()
	if w > b.bytes {
		return false
	}
	b.bytes -= w
	return true
}

// repairAllowed reports whether the member may be repaired at tick now,
// and counts the repair if so.
func (b *answerBudget) repairAllowed(now int) bool {
	i := 0
	for i < len(b.repairs) && now-b.repairs[i] >= repairWindow {
		i++
	}
	b.repairs = b.repairs[i:]
	if len(b.repairs) >= maxRepairs {
		return false
	}
	b.repairs = append(b.repairs, now)
	return true
}

// turnWeight estimates a turn's bytes on the wire.
func turnWeight(t Turn) int {
	w := 16 + 8*(len(t.Departures)+len(t.Presence))
	for _, c := range t.Commands {
		w += 16 + len(c.Data)
	}
	return w
}

// weight estimates a message's bytes on the wire, from its parts that can
// be large; it needs no encoding, so the host can count every message.
func weight(m *Message) int {
	// 8: below what an ack takes on the wire (its encoding, 8 bytes and
	// more, and the frame's length and type), so a member's credit does
	// not run ahead of what it really sent.
	w := 8 + 16*len(m.Hashes) + 16*len(m.Targets)
	for _, t := range m.Turns {
		w += turnWeight(t)
	}
	for _, c := range m.Commands {
		w += 16 + len(c.Data)
	}
	if m.Snapshot != nil {
		w += len(m.Snapshot.Data)
	}
	if m.Chat != nil {
		w += len(m.Chat.Text)
	}
	if l := m.Lobby; l != nil {
		w += 64 + len(l.Name) + 16*len(l.Spectators)
		for _, s := range l.Slots {
			w += 32 + len(s.Name) + len(s.Peer)
		}
	}
	return w
}

// answer sends pi a snapshot or a lobby if its answer budget holds it
// whole, and reports whether it did; one that does not fit is not sent
// (the member asks again, as after a lost message, once its own messages
// have refilled the budget).
func (n *Node) answer(pi *peerInfo, m Message) bool {
	if !pi.answers.spend(weight(&m)) {
		return false
	}
	n.hostSend(pi, m)
	return true
}

// catchUp sends pi the turns after from that its answer budget holds.
func (n *Node) catchUp(pi *peerInfo, from uint64) {
	turns := pi.answers.take(n.hist.turnsAfter(from, n.hist.last()))
	if len(turns) == 0 {
		return
	}
	n.hostSend(pi, Message{Kind: MsgTurns, Turns: turns, Delay: n.delay})
}

// Waiting is budgeted per player, twice. The host holds turns for a player
// that is silent or lags (waitFor) from a budget of DropTicks
// (peerInfo.waited) that only time in step refills: one tick for every
// waitEarn ticks the player kept up. And in any minute it waits for one
// player at most waitShare (a twelfth: 5 s; peerInfo.waitedMin). Being
// marked away or back refills neither, so a player that falls behind and
// catches up again and again is waited for once, then for a quarter of the
// time it kept up until it made the game wait 5 s in a minute, and is then
// away at once whenever it falls behind (nobody waits) until the minute has
// moved on: however it times its lags, the others keep 11/12 of their pace
// (TestBestTimedLaggerCostsLittleWaiting). One stall of a flaky link, up to
// DropTicks (3 s), is always waited for in full. (A refill of one in 10
// instead of the minute's share marked honest followers on a lossy link
// away so often that a migration outran its liveness bound,
// TestFalseSuspicionsLengthenTheHostSilence.)
const waitEarn = 4

const (
	waitWindow  = 6000 // ticks: a minute at DefaultTickMillis
	waitBucket  = 100  // ticks counted together in waitLog
	waitBuckets = waitWindow / waitBucket
)

// waitShare is the most a player may make the game wait in waitWindow: a
// twelfth of it, and never less than one full DropTicks stall.
func waitShare(cfg Config) int { return max(cfg.DropTicks, waitWindow/12) }

// waitLog counts the ticks the game waited for a player, by bucket of
// waitBucket ticks, over the last waitWindow.
type waitLog struct {
	ticks [waitBuckets]int32
	at    [waitBuckets]int32 // the bucket number (tick / waitBucket) each count is for
}

// add counts one tick of waiting at now.
func (w *waitLog) add(now int) {
	b := int32(now / waitBucket)
	i := b % waitBuckets
	if w.at[i] != b {
		w.at[i], w.ticks[i] = b, 0
	}
	w.ticks[i]++
}

// total is the ticks waited in the window that ends at now.
func (w *waitLog) total(now int) int {
	b, sum := int32(now/waitBucket), 0
	for i, at := range w.at {
		if b-at < waitBuckets {
			sum += int(w.ticks[i])
		}
	}
	return sum
}

// History is bounded in bytes as well as in turns: a member may send one
// command of 64 KiB a turn within its slot's budget, and 8,192 such turns
// would hold half a gigabyte. Past Config.KeepBytes the oldest turns the
// caller has had go, down to three quarters of it (the turns it holds back
// stay); a peer that needs older turns rejoins by snapshot, as after a
// long absence.
func (h *history) bytesCut(released uint64, keepBytes int) int {
	target, w, cut := keepBytes*3/4, h.bytes, 0
	for cut < len(h.turns) && h.base+uint64(cut) < released && w > target {
		w -= turnWeight(h.turns[cut])
		cut++
	}
	return cut
}

// Bulk is budgeted per slot: a player's commands may hold bulkBytes in
// bulkWindow (1 MiB a minute; orders are tens of bytes, a busy player
// sends a few KiB a second). Commands past it wait with their sender, and
// each batch that brings them is an offence (offence.go): a member that
// keeps sending bulk is warned, then removed. So the history, the replay
// and every peer's memory grow by what honest play makes.
const (
	bulkBytes  = 1 << 20
	bulkWindow = 6000 // ticks: a minute at DefaultTickMillis
)

// bulkUse is a slot's command bytes taken in the current window.
type bulkUse struct {
	bytes, since int
}

// room reports how many more command bytes the slot may have at now.
func (b *bulkUse) room(now int) int {
	if now-b.since >= bulkWindow {
		b.bytes, b.since = 0, now
	}
	return bulkBytes - b.bytes
}
