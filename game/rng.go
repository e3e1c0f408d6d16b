package game

import "math/bits"

// RNG is a PCG32 generator (XSH-RR output, 64-bit state). It is small enough
// to live inside the world and its snapshots, and it gives the same numbers on
// every architecture. The world owns one for the simulation; the map generator
// and every bot own their own, so a bot thinking never disturbs the world.
type RNG struct {
	State uint64
	Inc   uint64 // always odd; selects one of 2^63 streams
}

const pcgMul = 6364136223846793005

// NewRNG returns a generator seeded with seed on the given stream.
func NewRNG(seed, stream uint64) RNG {
	r := RNG{Inc: stream<<1 | 1}
	r.Uint32()
	r.State += seed
	r.Uint32()
	return r
}

// Uint32 returns the next 32 random bits.
func (r *RNG) Uint32() uint32 {
	old := r.State
	r.State = old*pcgMul + r.Inc
	x := uint32(((old >> 18) ^ old) >> 27)
	return bits.RotateLeft32(x, -int(old>>59))
}

// Intn returns a number in [0, n), or 0 when n <= 0. It scales instead of
// rejecting, so it always draws exactly one number (a bias below 2^-32·n is
// irrelevant to a game and keeps the draw count predictable).
func (r *RNG) Intn(n int) int {
	if n <= 0 {
		return 0
	}
	return int(uint64(r.Uint32()) * uint64(uint32(n)) >> 32)
}
