package match

import (
	"fmt"

	"hostfall/session"
)

// Driver is the state machine of one peer's loop: a session.Node and the
// Match that follows it, stepped together. The loop around it (the network
// peer, the offline client, tests on a simulated network) feeds the node
// its inputs through Node and then calls Handle; the Driver does the rest
// in one order for all of them, the way etcd's raft leaves the loop to the
// application and keeps the state machine pure:
//
//  1. the node's Ready;
//  2. the game side of it (Match.Apply: load, restore, turns, snapshot, bots);
//  3. the loop's side (fn: send the messages, show the events);
//  4. Advance;
//  5. what the game side has for the node: Loaded, the hashes, the snapshot,
//     the bots' commands. The node sees them as inputs after Advance, never
//     between Ready and Advance.
//
// A Driver belongs to one goroutine, like the node and the match.
type Driver struct {
	node *session.Node
	m    *Match

	// What Apply handed over, fed to the node after Advance.
	loaded bool
	hashes []session.HashReport
	snap   *session.Snapshot
	props  []session.Command

	// OnPropose, when set, is told of each command the node accepted from
	// Propose or from a bot: the slot and the sequence it will carry.
	OnPropose func(slot int, seq uint64)
	seqs      [session.MaxSlots]uint64
}

// NewDriver drives node and m together.
func NewDriver(node *session.Node, m *Match) *Driver {
	return &Driver{node: node, m: m}
}

// Node is the session node, for its inputs (Step, Tick, Host, Join, …).
func (d *Driver) Node() *session.Node { return d.node }

// Match is the game side.
func (d *Driver) Match() *Match { return d.m }

// Propose proposes a command for slot (the local player's order).
func (d *Driver) Propose(slot int, data []byte) error {
	if err := d.node.Propose(slot, data); err != nil {
		return err
	}
	if slot >= 0 && slot < len(d.seqs) {
		d.seqs[slot]++
		if d.OnPropose != nil {
			d.OnPropose(slot, d.seqs[slot])
		}
	}
	return nil
}

// Handle handles every Ready the node has, in the order above. fn, when
// set, gets each Ready after the game has applied it, with the hashes the
// game reported for its turns. An error means the game could not follow
// the session (a turn out of order, a snapshot that does not restore): the
// caller leaves. Handle stops at the first.
func (d *Driver) Handle(fn func(rd *session.Ready, hashes []session.HashReport)) error {
	for d.node.HasReady() {
		rd := d.node.Ready()
		err := d.m.Apply(&rd, later{d})
		if fn != nil {
			fn(&rd, d.hashes)
		}
		d.node.Advance()
		if ferr := d.feed(); err == nil {
			err = ferr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// feed gives the node what the game side handed over during the last Ready.
func (d *Driver) feed() error {
	if d.loaded {
		d.loaded = false
		d.node.Loaded()
	}
	for _, h := range d.hashes {
		d.node.ReportHash(h.Turn, h.Hash)
	}
	d.hashes = d.hashes[:0]
	var err error
	if s := d.snap; s != nil {
		d.snap = nil
		if serr := d.node.Snapshot(s.Turn, s.Data); serr != nil {
			err = fmt.Errorf("match: hand over snapshot: %w", serr)
		}
	}
	for _, c := range d.props {
		_ = d.Propose(c.Slot, c.Data) // refused only if the slot is no longer driven; the bot looks again
	}
	d.props = d.props[:0]
	return err
}

// later is the Node that Apply sees: it keeps what the match hands over
// for feed.
type later struct{ d *Driver }

func (l later) Loaded() { l.d.loaded = true }

func (l later) ReportHash(turn, hash uint64) {
	l.d.hashes = append(l.d.hashes, session.HashReport{Turn: turn, Hash: hash})
}

func (l later) Snapshot(turn uint64, data []byte) error {
	l.d.snap = &session.Snapshot{Turn: turn, Data: data}
	return nil
}

// Propose keeps a bot's command; the data is the match's scratch buffer.
func (l later) Propose(slot int, data []byte) error {
	l.d.props = append(l.d.props, session.Command{Slot: slot, Data: append([]byte(nil), data...)})
	return nil
}
