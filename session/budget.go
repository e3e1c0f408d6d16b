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
	w := 24 + 16*len(m.Hashes) + 16*len(m.Targets)
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
	return w
}

// catchUp sends pi the turns after from that its answer budget holds.
func (n *Node) catchUp(pi *peerInfo, from uint64) {
	turns := pi.answers.take(n.hist.turnsAfter(from, n.hist.last()))
	if len(turns) == 0 {
		return
	}
	n.hostSend(pi, Message{Kind: MsgTurns, Turns: turns, Delay: n.delay})
}

// Waiting is budgeted per player. The host holds turns for a player that
// is silent or lags (waitFor), up to DropTicks in one stretch, from a
// budget (peerInfo.waited) that only time in step refills: one tick for
// every waitEarn ticks the player kept up. Being marked away or back
// leaves the budget as it is, so a player that falls behind and catches up
// again and again is waited for once, and then only for a quarter of the
// time it kept up (the others keep 94 % of their pace under the pattern of
// TestLagAndCatchUpCostsLittleWaiting, and never less than 80 %), and a
// player over its budget is away (nobody waits) until it caught up. A
// slower refill (one in 10, for 90 % at worst) marked honest followers on a
// lossy link away so often that a migration outran its liveness bound
// (TestFalseSuspicionsLengthenTheHostSilence).
const waitEarn = 4

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
