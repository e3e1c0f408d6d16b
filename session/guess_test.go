package session_test

import (
	"bytes"
	"fmt"
	"testing"

	session "hostfall/session"
	"hostfall/session/simnet"
)

type seqRand uint64

func (r *seqRand) Uint64() uint64 { *r++; return uint64(*r) }

// lockedHost is a bare host node of a password session; step hands it one
// message and returns what it sent.
func lockedHost(t *testing.T) (*session.Node, func(session.Message) []session.Message) {
	t.Helper()
	host, err := session.NewNode(session.Config{Self: "host", Name: "h", GameVersion: "0.1.0", Rand: new(seqRand)})
	if err != nil {
		t.Fatal(err)
	}
	if err := host.Host(session.Settings{Name: "locked", Password: "swordfish", MaxPlayers: 4}); err != nil {
		t.Fatal(err)
	}
	out := func() []session.Message {
		var msgs []session.Message
		for host.HasReady() {
			rd := host.Ready()
			msgs = append(msgs, rd.Messages...)
			host.Advance()
		}
		return msgs
	}
	out()
	return host, func(m session.Message) []session.Message {
		if err := host.Step(m); err != nil {
			t.Fatalf("step %v: %v", m.Kind, err)
		}
		return out()
	}
}

func hello(from session.PeerID) session.Message {
	return session.Message{Kind: session.MsgHello, From: from,
		Hello: &session.Hello{Protocol: session.ProtocolVersion, GameVersion: "0.1.0", Name: string(from)}}
}

// answer is the kind of the message sent to p, and its refusal code.
func answer(msgs []session.Message, p session.PeerID) (session.MsgKind, session.RefusalCode) {
	for _, m := range msgs {
		if m.To == p {
			if m.Refusal != nil {
				return m.Kind, m.Refusal.Code
			}
			return m.Kind, 0
		}
	}
	return session.MsgNone, 0
}

// Two wrong proofs in a row are retried at once (a mistype); from the third
// on, each costs the guesser a longer wait before its next challenge; silent joiners cannot hold more than a
// bounded number of challenges open, and theirs expire.
func TestPasswordGuessesAreThrottled(t *testing.T) {
	host, step := lockedHost(t)
	const g = session.PeerID("guesser")
	ticks := func(k int) {
		for range k {
			host.Tick()
		}
		step(session.Message{Kind: session.MsgPing, From: "nobody"}) // flush
	}
	guess := func(round int) {
		t.Helper()
		if k, _ := answer(step(hello(g)), g); k != session.MsgChallenge {
			t.Fatalf("round %d: hello answered with %v, want a challenge", round, k)
		}
		if k, c := answer(step(session.Message{Kind: session.MsgProof, From: g, Proof: []byte("guess")}), g); k != session.MsgRefuse || c != session.RefusePassword {
			t.Fatalf("round %d: a wrong proof answered with %v/%v", round, k, c)
		}
	}
	guess(-2) // two mistypes are retried at once
	guess(-1)
	for round := 1; round <= 3; round++ {
		guess(round)
		if k, c := answer(step(hello(g)), g); k != session.MsgRefuse || c != session.RefusePassword {
			t.Fatalf("round %d: a hello right after a wrong proof answered with %v/%v, want a refusal", round, k, c)
		}
		ticks(100*round - 1) // the wait is round seconds: not yet over
		if k, _ := answer(step(hello(g)), g); k != session.MsgRefuse {
			t.Fatalf("round %d: challenged again before its wait was over", round)
		}
		ticks(2)
	}

	// Silent joiners: at most 64 open challenges, then "try again"; theirs
	// expire after 10 s and others are challenged again.
	for i := range 64 {
		p := session.PeerID(fmt.Sprintf("silent-%d", i))
		if k, _ := answer(step(hello(p)), p); k != session.MsgChallenge {
			t.Fatalf("silent joiner %d answered with %v", i, k)
		}
	}
	if k, c := answer(step(hello("late")), "late"); k != session.MsgRefuse || c != session.RefuseFull {
		t.Fatalf("the 65th open challenge: %v/%v, want a refusal to wait", k, c)
	}
	ticks(1001)
	if k, _ := answer(step(hello("late")), "late"); k != session.MsgChallenge {
		t.Fatalf("after the silent ones expired: %v, want a challenge", k)
	}
}

// A member repeating its Hello during play (a hostile one, or one stuck in
// a loop) costs the host at most one Welcome and snapshot per half of
// seekTicks, not one each: 200 Hellos in 20 ticks are answered once. One
// that lost its answer is answered again when it asks after seekTicks.
func TestRepeatedHellosCostOneSnapshot(t *testing.T) {
	n := gameOf(t, 21, 3, simConfig())
	n.Run(50)
	host, member := n.Peers[0], n.Peers[2]
	welcomes, snaps := 0, 0
	n.OnReady = func(p *simnet.Peer, rd session.Ready) {
		for _, m := range rd.Messages {
			if p == host && m.To == member.ID {
				switch m.Kind {
				case session.MsgWelcome:
					welcomes++
				case session.MsgSnapshot:
					if m.Snapshot == nil || m.Snapshot.Part == 0 {
						snaps++ // a snapshot's first part (it travels in parts: see simConfig)
					}
				}
			}
		}
	}
	rev := host.Status.Revision
	for range 20 {
		for range 10 {
			if err := host.Node.Step(hello(member.ID)); err != nil {
				t.Fatal(err)
			}
		}
		n.Run(1)
	}
	if welcomes > 1 || snaps > 1 {
		t.Errorf("200 Hellos in 20 ticks: %d welcomes and %d snapshots, want at most 1 each", welcomes, snaps)
	}
	if host.Status.Revision > rev+2 {
		t.Errorf("the lobby revision went from %d to %d: a broadcast per Hello", rev, host.Status.Revision)
	}
	n.Run(100)
	if err := host.Node.Step(hello(member.ID)); err != nil {
		t.Fatal(err)
	}
	n.Run(5)
	if welcomes != 2 {
		t.Errorf("a Hello after seekTicks: %d welcomes in all, want 2", welcomes)
	}
	n.Run(300)
	if member.Left || !member.Status.Joined || member.Status.Slot < 0 {
		t.Errorf("the member is out of the game: %+v", member.Status)
	}
	noViolations(t, n)
}

// One player's flood of commands (500 of 1 KiB at once) is spread over
// turns by the slot's budget (64 commands or 64 KiB a turn): no turn grows
// past it, every command still runs exactly once, and another player's
// command proposed at the same time is not queued behind the flood.
func TestCommandFloodIsSpreadOverTurns(t *testing.T) {
	n := gameOf(t, 23, 3, simConfig())
	n.Run(20)
	flooder, other := n.Peers[1], n.Peers[2]
	for i := range 500 {
		data := append([]byte(fmt.Sprintf("flood#%d/", i)), bytes.Repeat([]byte{'x'}, 1<<10)...)
		if err := n.Propose(flooder, flooder.Status.Slot, data); err != nil {
			t.Fatal(err)
		}
	}
	if err := n.Propose(other, other.Status.Slot, []byte("mine")); err != nil {
		t.Fatal(err)
	}
	start := n.Peers[0].Last()
	n.Run(600)
	host := n.Peers[0]
	var otherAt uint64
	for _, a := range host.Applied {
		count, size := 0, 0
		for _, c := range a.Turn.Commands {
			if c.Slot == flooder.Status.Slot {
				count, size = count+1, size+len(c.Data)
			}
			if c.Slot == other.Status.Slot && string(c.Data) == "mine" {
				otherAt = a.Number
			}
		}
		if count > 64 || size > 64<<10+64 {
			t.Errorf("turn %d holds %d commands (%d bytes) of the flooding slot", a.Number, count, size)
		}
	}
	if otherAt == 0 || otherAt > start+5 {
		t.Errorf("the other player's command ran at turn %d; the flood began at turn %d", otherAt, start)
	}
	noViolations(t, n) // every flood command ran exactly once
}
