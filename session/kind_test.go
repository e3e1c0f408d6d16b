package session

import "testing"

// The transport's gate (p2p/transport) asks these classes and names no
// kind itself, so this table is the rule: a stranger may send a join and
// its password proof, nothing else, and only the proof spends a password
// guess. A guess is always a knock, or a stranger's guesses would never
// reach the budget that bounds them.
func TestKindClasses(t *testing.T) {
	knocks := map[MsgKind]bool{MsgHello: true, MsgProof: true}
	guesses := map[MsgKind]bool{MsgProof: true}
	for k := MsgNone; k <= MsgGatherOver; k++ {
		if got := k.IsKnock(); got != knocks[k] {
			t.Errorf("%v.IsKnock() = %v, want %v", k, got, knocks[k])
		}
		if got := k.IsGuess(); got != guesses[k] {
			t.Errorf("%v.IsGuess() = %v, want %v", k, got, guesses[k])
		}
		if k.IsGuess() && !k.IsKnock() {
			t.Errorf("%v is a guess a stranger may not send", k)
		}
		if k.IsLocal() && k.IsKnock() {
			t.Errorf("local %v is a knock", k)
		}
	}
}
