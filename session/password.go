package session

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"

	"golang.org/x/crypto/argon2"
)

// The password handshake. A host challenges a joiner with a salt and a
// nonce; the joiner answers HMAC-SHA256 over the nonce and both peer IDs,
// keyed with Argon2id of the password and the salt. The password never
// crosses the wire, and a proof is good for one nonce and one pair of peers.
//
// Why a slow KDF with a salt rather than a PAKE: the proof may reach a fake
// host (anyone can advertise a session of the same name on the LAN), which
// can then test passwords against it offline. Argon2id makes each guess
// cost what the parameters below cost (OWASP's minimum for Argon2id: 19 MiB,
// two passes; ~40 ms on one core of this project's machine), and the salt
// makes every host's proofs a separate job, so no table computed once
// serves for every game. A PAKE (CPace, SPAKE2) would leave a fake host one
// online guess per exchange, but no audited Go implementation is available
// from the module proxy here, and writing one is not a job for a game.
// The parameters are fixed, not sent: a fake host cannot ask for cheap ones.
//
// Each node derives the key once per salt: a host for the salt it chose,
// a joiner for the salt it was sent (see Node.pwKey).
const (
	kdfTime    = 2
	kdfMemory  = 19 << 10 // KiB
	kdfThreads = 1
	saltSize   = 16
	nonceSize  = 16
)

// passwordKey derives the proof key from the password and a salt.
func passwordKey(password string, salt []byte) []byte {
	return argon2.IDKey([]byte("hostfall/session password v2\x00"+password), salt, kdfTime, kdfMemory, kdfThreads, 32)
}

// passwordProof is the joiner's answer to a challenge.
func passwordProof(key, nonce []byte, host, joiner PeerID) []byte {
	mac := hmac.New(sha256.New, key)
	mac.Write(nonce)
	mac.Write([]byte{0})
	mac.Write([]byte(host))
	mac.Write([]byte{0})
	mac.Write([]byte(joiner))
	return mac.Sum(nil)
}

// derivedKey is a key this node derived, and the salt it is for.
type derivedKey struct {
	salt, key []byte
}

// pwKey returns the key for the node's password and salt, deriving it only
// when the salt is new (the slow part runs once per host, not per proof).
func (n *Node) pwKey(password string, salt []byte) []byte {
	if n.kdf.key == nil || !hmac.Equal(n.kdf.salt, salt) {
		n.kdf = derivedKey{salt: append([]byte(nil), salt...), key: passwordKey(password, salt)}
	}
	return n.kdf.key
}

// hostSalt is the salt this node's challenges carry while it hosts: chosen
// once, so its key is derived once.
func (n *Node) hostSalt() []byte {
	if n.salt == nil {
		n.salt = n.random(saltSize)
	}
	return n.salt
}

func (n *Node) random(size int) []byte {
	b := make([]byte, size)
	for i := 0; i < size; i += 8 {
		binary.LittleEndian.PutUint64(b[i:], n.cfg.Rand.Uint64())
	}
	return b
}

// challengeOf splits a challenge into its salt and nonce; ok is false for
// one of another shape.
func challengeOf(m Message) (salt, nonce []byte, ok bool) {
	if len(m.Nonce) != saltSize+nonceSize {
		return nil, nil, false
	}
	return m.Nonce[:saltSize], m.Nonce[saltSize:], true
}
