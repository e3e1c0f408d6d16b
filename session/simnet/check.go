package simnet

import (
	"cmp"
	"fmt"
	"slices"

	"hostfall/session"
)

// Checker holds the invariants of the session and the violations found.
type Checker struct {
	Violations []string
	// DesyncBoundTurns: an injected divergence must be repaired (some peer
	// restores a snapshot) within this many turns of the lineage: the next
	// hash turn (≤ HashEvery), the wait for late reporters (≤ 3×HashEvery),
	// a repair of the same peer still cooling down (≤ HashEvery turns), and
	// the snapshot's trip — 6×HashEvery = 60 turns at the default.
	DesyncBoundTurns uint64

	turns   map[[2]uint64]uint64 // (turn, epoch) → chain of the history up to it
	props   map[string]propRec   // command data → who proposed it
	hist    map[uint64]histRec   // toy chain after a turn → that turn, and the chain before it
	desyncs []desyncWatch

	WorstDesyncTurns uint64

	// Hostile are the slots whose players a test made hostile: only they
	// may be removed for misbehaving (session.DepartMisbehaved). An honest
	// player removed so was forced out.
	Hostile map[int]bool

	// ForkBoundTicks: two live peers that can reach each other and whose
	// histories fork (both sides of a split played on) must be one game
	// again — one side restores the other's snapshot — within this many
	// ticks of the link coming back. WorstForkTicks is the longest seen.
	ForkBoundTicks int
	WorstForkTicks int
	forks          map[[2]forkEnd]int // pair of peer incarnations → tick the fork was first seen
}

type forkEnd struct {
	id  session.PeerID
	inc int
}

type propRec struct {
	peer     session.PeerID
	inc      int
	slot     int
	restores int // the proposer's restores when it proposed
}

// histRec is one turn of some history: every history any peer applied is
// kept, so a peer that restores a snapshot takes on the history before it.
type histRec struct {
	prev   uint64
	number uint64
	cmds   []session.Command
}

// history rebuilds, from the turns recorded up to chain, which (slot, seq)
// and which command data that history executed, at which turn.
func (c *Checker) history(chain uint64) (map[[2]uint64]uint64, map[string]uint64) {
	seen, data := map[[2]uint64]uint64{}, map[string]uint64{}
	for range 1 << 20 {
		r, ok := c.hist[chain]
		if !ok {
			break
		}
		for _, cmd := range r.cmds {
			seen[[2]uint64{uint64(cmd.Slot), cmd.Seq}] = r.number
			data[string(cmd.Data)] = r.number
		}
		chain = r.prev
	}
	return seen, data
}

type desyncWatch struct {
	peer   *Peer
	inc    int
	atTurn uint64
}

func newChecker() *Checker {
	return &Checker{
		DesyncBoundTurns: 60,
		ForkBoundTicks:   1000,
		forks:            map[[2]forkEnd]int{},
		turns:            map[[2]uint64]uint64{},
		props:            map[string]propRec{},
		hist:             map[uint64]histRec{},
	}
}

func (c *Checker) violate(now int, format string, args ...any) {
	if len(c.Violations) < 20 {
		c.Violations = append(c.Violations, fmt.Sprintf("tick %d: ", now)+fmt.Sprintf(format, args...))
	}
}

func (c *Checker) proposed(p *Peer, slot int, data []byte) {
	c.props[string(data)] = propRec{peer: p.ID, inc: p.Incarnation, slot: slot, restores: p.Restores}
}

// restored checks a repair (cleanRepair: a desync repair of a player whose
// state was right): it may be restored onto a diverged state only when the
// right state was not held by a strict majority of the players in its game
// (then no vote could tell). A rejoin by snapshot takes the state of the
// game as it is; a later vote repairs it with the others.
func (c *Checker) restored(n *Net, p *Peer, turn uint64, cleanRepair bool) {
	if !cleanRepair || !p.Tainted || p.Status.Slot < 0 {
		return
	}
	clean, all := 0, 0
	host := n.Peer(p.Status.Host)
	for _, q := range n.Peers {
		// Voters: players of p's game that run, reach the host and hold
		// the turn the vote was about.
		if sameGame(p, q) && q.Status.Slot >= 0 && host != nil && (q == host || n.Connected(q, host)) &&
			(q == p || q.Last() >= turn) {
			all++
			if !q.Tainted || q == p {
				clean++
			}
		}
	}
	if 2*clean > all {
		c.violate(n.Now, "desync: %s was repaired onto a diverged state although %d of %d players held the right one", p.ID, clean, all)
	}
}

// allTainted reports whether every running player in p's game holds a state
// descending from the divergence: the game agreed on it (a tie went its way).
func allTainted(n *Net, p *Peer) bool {
	for _, q := range n.Peers {
		if runningPlayerOf(p, q) && !q.Tainted {
			return false
		}
	}
	return true
}

func (c *Checker) crashed(p *Peer) {}

func (c *Checker) desynced(n *Net, p *Peer) {
	c.desyncs = append(c.desyncs, desyncWatch{peer: p, inc: p.Incarnation, atTurn: maxTurn(n)})
}

// sameGame reports whether q is live and follows the same host in the same
// epoch as p.
func sameGame(p, q *Peer) bool {
	return q.Live() && q.Status.Host == p.Status.Host && q.Status.Epoch == p.Status.Epoch
}

// runningPlayerOf reports whether q is a player of p's game whose process
// runs: a stopped one reports no hashes.
func runningPlayerOf(p, q *Peer) bool {
	return sameGame(p, q) && !q.Paused && q.Status.Slot >= 0
}

// lineageSize counts the live peers that follow the same host in the same epoch as p.
func lineageSize(n *Net, p *Peer) int {
	k := 0
	for _, q := range n.Peers {
		if sameGame(p, q) {
			k++
		}
	}
	return k
}

// runningPlayers counts the players of p's game (same host and epoch)
// that run: a stopped one reports no hashes.
func runningPlayers(n *Net, p *Peer) int {
	k := 0
	for _, q := range n.Peers {
		if runningPlayerOf(p, q) {
			k++
		}
	}
	return k
}

func maxTurn(n *Net) uint64 {
	var m uint64
	for _, p := range n.Peers {
		if p.Live() {
			m = max(m, p.Last())
		}
	}
	return m
}

// applied checks one turn as a peer applies it: agreement (every peer that
// holds turn N of epoch E holds the same history up to it), exactly once, no
// command of a departed slot, no slot departing twice, nothing unproposed.
func (c *Checker) applied(n *Net, p *Peer, t session.Turn) {
	a := p.Applied[len(p.Applied)-1]
	prev, prevChain := p.base, p.baseChain
	if len(p.Applied) > 1 {
		b := p.Applied[len(p.Applied)-2]
		prev, prevChain = max(prev, b.Number), b.Chain
	}
	if _, ok := c.hist[a.Chain]; !ok {
		c.hist[a.Chain] = histRec{prev: prevChain, number: t.Number, cmds: t.Commands}
	}
	if (len(p.Applied) > 1 || p.base > 0) && prev+1 != t.Number {
		c.violate(n.Now, "%s applied turn %d after turn %d", p.ID, t.Number, prev)
	}
	k := [2]uint64{t.Number, t.Epoch}
	if prev, ok := c.turns[k]; ok && prev != a.Chain {
		c.violate(n.Now, "agreement: %s holds another history at turn %d (epoch %d)", p.ID, t.Number, t.Epoch)
	} else if !ok {
		c.turns[k] = a.Chain
	}
	departed := p.departedBefore // the slots departed in the turns before t
	for _, cmd := range t.Commands {
		key := [2]uint64{uint64(cmd.Slot), cmd.Seq}
		if at, dup := p.seen[key]; dup {
			c.violate(n.Now, "exactly once: %s executed slot %d seq %d at turns %d and %d", p.ID, cmd.Slot, cmd.Seq, at, t.Number)
		}
		p.seen[key] = t.Number
		pr, ok := c.props[string(cmd.Data)]
		if !ok || pr.slot != cmd.Slot {
			c.violate(n.Now, "%s executed a command for slot %d that nobody proposed", p.ID, cmd.Slot)
		}
		if at, dup := p.execData[string(cmd.Data)]; dup {
			c.violate(n.Now, "exactly once: %s executed one command (slot %d) at turns %d and %d", p.ID, cmd.Slot, at, t.Number)
		}
		p.execData[string(cmd.Data)] = t.Number
		if departed&(1<<cmd.Slot) != 0 {
			c.violate(n.Now, "%s executed a command of departed slot %d at turn %d", p.ID, cmd.Slot, t.Number)
		}
	}
	for _, d := range t.Departures {
		if departed&(1<<d.Slot) != 0 {
			c.violate(n.Now, "departures: %s saw slot %d depart twice (again at turn %d)", p.ID, d.Slot, t.Number)
		}
		if d.Reason == session.DepartMisbehaved && !c.Hostile[d.Slot] {
			c.violate(n.Now, "forced out: %s saw honest slot %d removed for misbehaving at turn %d", p.ID, d.Slot, t.Number)
		}
	}
}

// chainAt is the chain of p's history up to turn t, if p holds it.
func chainAt(p *Peer, t uint64) (uint64, bool) {
	i, ok := appliedAt(p, t)
	if !ok {
		return 0, false // before a restored snapshot, or never held
	}
	return p.Applied[i].Chain, true
}

// appliedAt finds turn t in p.Applied. The turns are consecutive (applied
// checks it), so t's index is its distance from the first; a history that
// broke that rule is searched.
func appliedAt(p *Peer, t uint64) (int, bool) {
	if len(p.Applied) == 0 || t < p.Applied[0].Number {
		return 0, false
	}
	if i := t - p.Applied[0].Number; i < uint64(len(p.Applied)) && p.Applied[i].Number == t {
		return int(i), true
	}
	return slices.BinarySearchFunc(p.Applied, t, func(a AppliedTurn, t uint64) int { return cmp.Compare(a.Number, t) })
}

// stateAt is p's toy state after turn t, if p applied it since its last
// restore.
func stateAt(p *Peer, t uint64) *uint64 {
	i, ok := appliedAt(p, t)
	if !ok || p.Applied[i].Number <= p.base {
		return nil
	}
	return &p.Applied[i].State
}

// forkAt returns the first turn where the histories of p and q differ, if
// they do. Chains cover the whole history before them, epochs included, so
// once they differ they differ for good.
func forkAt(p, q *Peer) (uint64, bool) {
	lo := max(p.base, q.base)
	if len(p.Applied) > 0 && len(q.Applied) > 0 {
		lo = max(lo, p.Applied[0].Number, q.Applied[0].Number)
	}
	hi := min(p.Last(), q.Last())
	differ := func(t uint64) bool {
		a, okA := chainAt(p, t)
		b, okB := chainAt(q, t)
		return okA && okB && a != b
	}
	if hi < lo || !differ(hi) {
		return 0, false
	}
	for lo < hi { // first differing turn in [lo, hi]
		mid := lo + (hi-lo)/2
		if differ(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo, true
}

// checkOutcome checks the one-game invariant while the network is faulty:
// two live peers whose histories fork (a split, each side playing on) may
// stay apart only while they cannot reach each other. Once both run and the
// link between them works, the fork must end — one side rejoins the other
// by snapshot — within ForkBoundTicks (bound < 0: report every fork).
func (c *Checker) checkOutcome(n *Net, bound int) {
	for i, p := range n.Peers {
		if !p.Live() {
			continue
		}
		for _, q := range n.Peers[i+1:] {
			if !q.Live() {
				continue
			}
			k := [2]forkEnd{{p.ID, p.Incarnation}, {q.ID, q.Incarnation}}
			since, tracked := c.forks[k]
			if !n.Connected(p, q) {
				delete(c.forks, k)
				continue
			}
			f, forked := forkAt(p, q)
			if !forked {
				if tracked {
					c.WorstForkTicks = max(c.WorstForkTicks, n.Now-since)
				}
				delete(c.forks, k)
				continue
			}
			if !tracked {
				c.forks[k] = n.Now
				since = n.Now
			}
			if bound >= 0 && n.Now-since <= bound {
				continue
			}
			c.forks[k] = n.Now // report a lasting fork once per bound
			c.violate(n.Now, "one game: %s (epoch %d, turn %d) and %s (epoch %d, turn %d) can reach each other and hold histories that fork at turn %d (for %d ticks)",
				p.ID, p.LastEpoch(), p.Last(), q.ID, q.LastEpoch(), q.Last(), f, n.Now-since)
		}
	}
}

// check runs after every tick.
func (c *Checker) check(n *Net) {
	c.checkOutcome(n, c.ForkBoundTicks)
	if len(c.desyncs) == 0 {
		return
	}
	now := maxTurn(n)
	keep := c.desyncs[:0]
	for _, w := range c.desyncs {
		switch {
		case !w.peer.Live() || w.peer.Incarnation != w.inc || lineageSize(n, w.peer) < 2:
			// The victim left, or nobody is left to compare it with.
		case w.peer.Paused || runningPlayers(n, w.peer) < 2:
			// A stopped process is repaired once it runs again, and only
			// a running player can vote against it.
			w.atTurn = now
			keep = append(keep, w)
		case !w.peer.Tainted || allTainted(n, w.peer):
			// Repaired, or the game agreed on the diverged state where no
			// majority could tell (see restored; Final compares states).
			if now > w.atTurn {
				c.WorstDesyncTurns = max(c.WorstDesyncTurns, now-w.atTurn)
			}
		case now > w.atTurn+c.DesyncBoundTurns:
			c.violate(n.Now, "desync: %s diverged at turn %d and was not repaired by turn %d", w.peer.ID, w.atTurn, now)
		default:
			keep = append(keep, w)
		}
	}
	c.desyncs = keep
}

// Final checks, after the network healed and a quiet period: one game —
// every peer still running is in it (nobody was forced out, see handle),
// following one host in one epoch, on one history, caught up — and every command
// proposed by a peer that stayed in the game executed exactly once there.
// A command may be lost only with a branch the game discarded: when its
// proposer rejoined by snapshot after proposing it.
func (c *Checker) Final(n *Net) {
	const finalLagTurns = 10 // a turn in flight, a few of input delay
	var ref *Peer
	for _, p := range n.Peers {
		if !p.Live() || p.Status.Slot < 0 {
			continue
		}
		if !p.Status.Joined {
			c.violate(n.Now, "one game: %s is not in the game after the heal (%+v)", p.ID, p.Status)
			continue
		}
		if ref == nil {
			ref = p
			continue
		}
		if p.Status.Host != ref.Status.Host || p.Status.Epoch != ref.Status.Epoch {
			c.violate(n.Now, "one game: %s follows %s (epoch %d) and %s follows %s (epoch %d) after the heal",
				ref.ID, ref.Status.Host, ref.Status.Epoch, p.ID, p.Status.Host, p.Status.Epoch)
		}
		if f, forked := forkAt(ref, p); forked {
			c.violate(n.Now, "one game: %s and %s hold histories that fork at turn %d after the heal", ref.ID, p.ID, f)
		}
		t := min(ref.Last(), p.Last())
		if a, b := stateAt(ref, t), stateAt(p, t); a != nil && b != nil && *a != *b {
			c.violate(n.Now, "one game: %s and %s hold different states at turn %d after the heal (a desync left unrepaired)", ref.ID, p.ID, t)
		}
	}
	top := maxTurn(n)
	for _, p := range n.Peers {
		if p.Live() && p.Status.Slot >= 0 && p.Status.Joined && p.Last()+finalLagTurns < top {
			c.violate(n.Now, "one game: %s is at turn %d, %d turns behind the game, after the heal", p.ID, p.Last(), top-p.Last())
		}
	}
	for data, pr := range c.props {
		p := n.Peer(pr.peer)
		if p == nil || !p.Live() || p.Incarnation != pr.inc || p.Status.Slot < 0 {
			continue
		}
		stays := pr.slot < 0 || p.departed&(1<<pr.slot) == 0
		_, count := p.execData[data]
		if !stays || !c.isOwn(p, pr.slot) || !count && p.Restores > pr.restores {
			continue
		}
		if !count {
			c.violate(n.Now, "exactly once: command %q of %s (slot %d) never executed", data, p.ID, pr.slot)
		}
	}
}

// isOwn: bot commands die with the host that drove them, so only a peer's own
// slot is held to exactly once.
func (c *Checker) isOwn(p *Peer, slot int) bool { return p.Status.Slot == slot }
