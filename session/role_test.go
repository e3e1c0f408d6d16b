package session

import (
	"errors"
	"math/rand/v2"
	"testing"
)

// Roles change only along the protocol's moves: any other is refused loudly,
// and a node that left stays left.
func TestRoleTransitions(t *testing.T) {
	all := []role{roleNone, roleJoining, roleFollower, roleCandidate, roleHost, roleLeft}
	allowed := map[[2]role]bool{}
	for from, tos := range transitions {
		for _, to := range tos {
			allowed[[2]role{role(from), to}] = true
		}
	}
	for _, from := range all {
		for _, to := range all {
			n := &Node{role: from}
			panicked := func() (p bool) {
				defer func() { p = recover() != nil }()
				n.setRole(to)
				return false
			}()
			if panicked == allowed[[2]role{from, to}] {
				t.Errorf("%s → %s: panicked %v, allowed %v", from, to, panicked, allowed[[2]role{from, to}])
			}
		}
	}
	if len(transitions[roleLeft]) != 0 {
		t.Error("a node that left can become something again")
	}
}

// A timeout is the node's own: one that claims to come from another peer is
// refused, and timeouts never cross the wire.
func TestTimeoutsAreLocal(t *testing.T) {
	n, err := NewNode(Config{Self: "me", Rand: rand.New(rand.NewPCG(1, 2))})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []MsgKind{MsgHostSilent, MsgClaimOverdue, MsgGatherOver} {
		if err := n.Step(Message{Kind: k, From: "someone"}); !errors.Is(err, ErrBadArgument) {
			t.Errorf("%v from another peer: %v, want ErrBadArgument", k, err)
		}
		if err := n.Step(Message{Kind: k, From: "me"}); err != nil {
			t.Errorf("%v from the node itself: %v", k, err)
		}
		if _, err := (Message{Kind: k, From: "me", To: "you"}).Marshal(); err == nil {
			t.Errorf("%v was encoded", k)
		}
	}
}
