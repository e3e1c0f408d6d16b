package session

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"testing"
)

type countRand uint64

func (r *countRand) Uint64() uint64 { *r += 0x9e3779b97f4a7c15; return uint64(*r) }

// challenged hosts a password session on a node seeded with seed and returns
// the challenge it sends a joiner.
func challenged(t *testing.T, seed uint64) (*Node, Message) {
	t.Helper()
	r := countRand(seed)
	h, err := NewNode(Config{Self: "host", Name: "h", GameVersion: "0.1.0", Rand: &r})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Host(Settings{Name: "locked", Password: "swordfish", MaxPlayers: 4}); err != nil {
		t.Fatal(err)
	}
	drain(h)
	if err := h.Step(Message{Kind: MsgHello, From: "joiner", Hello: &Hello{Protocol: ProtocolVersion, GameVersion: "0.1.0", Name: "j"}}); err != nil {
		t.Fatal(err)
	}
	for _, m := range drain(h) {
		if m.Kind == MsgChallenge && m.To == "joiner" {
			return h, m
		}
	}
	t.Fatal("no challenge")
	return nil, Message{}
}

func drain(n *Node) []Message {
	var out []Message
	for n.HasReady() {
		rd := n.Ready()
		out = append(out, rd.Messages...)
		n.Advance()
	}
	return out
}

// The challenge carries the host's salt; only a proof keyed with Argon2id of
// the password and that salt is accepted, so a captured proof is tested
// against a guess only at the KDF's cost, and each host's salt is its own.
func TestProofIsKeyedWithASaltedSlowKDF(t *testing.T) {
	h, c := challenged(t, 1)
	salt, _, ok := challengeOf(c)
	if !ok {
		t.Fatalf("challenge of %d bytes, want a salt and a nonce", len(c.Nonce))
	}
	if _, c2 := challenged(t, 2); bytes.Equal(salt, c2.Nonce[:saltSize]) {
		t.Error("two hosts challenge with the same salt")
	}
	fastHash := func(nonce []byte) []byte {
		key := sha256.Sum256([]byte("hostfall/session password v1\x00swordfish"))
		mac := hmac.New(sha256.New, key[:])
		mac.Write(nonce)
		return mac.Sum(nil)
	}
	for _, tc := range []struct {
		name  string
		proof func(nonce []byte) []byte
		admit bool
	}{
		{"an unsalted fast-hash proof", fastHash, false},
		{"a proof with another salt", func(nonce []byte) []byte {
			return passwordProof(passwordKey("swordfish", make([]byte, saltSize)), nonce, "host", "joiner")
		}, false},
		{"the right proof", func(nonce []byte) []byte {
			return passwordProof(passwordKey("swordfish", salt), nonce, "host", "joiner")
		}, true},
	} {
		var nonce []byte
		_ = h.Step(Message{Kind: MsgHello, From: "joiner", Hello: &Hello{Protocol: ProtocolVersion, GameVersion: "0.1.0", Name: "j"}})
		for _, m := range drain(h) {
			if m.Kind == MsgChallenge {
				_, nonce, _ = challengeOf(m)
			}
		}
		_ = h.Step(Message{Kind: MsgProof, From: "joiner", Proof: tc.proof(nonce)})
		admitted := false
		for _, m := range drain(h) {
			admitted = admitted || m.Kind == MsgWelcome
		}
		if admitted != tc.admit {
			t.Errorf("%s: admitted %v, want %v", tc.name, admitted, tc.admit)
		}
	}
}

// BenchmarkPasswordKey is what one guess costs whoever tests passwords
// against a captured proof.
func BenchmarkPasswordKey(b *testing.B) {
	salt := make([]byte, saltSize)
	for b.Loop() {
		passwordKey("swordfish", salt)
	}
}
