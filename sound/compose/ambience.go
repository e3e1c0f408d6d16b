package compose

import (
	"math"
	"math/rand/v2"
)

// ambienceSeconds is the ambience loop's length; seamSeconds of it are
// crossfaded into its start.
const (
	ambienceSeconds = 20
	seamSeconds     = 1
)

// ambience is wind (noise through two low-pass filters, swelling slowly)
// with a few bird calls, 20 s.
func ambience(rate int, rnd *rand.Rand) []float64 {
	n, f := ambienceSeconds*rate, seamSeconds*rate
	w := wind(n+f, rate, rnd)
	out := make([]float64, n)
	copy(out, w[:n])
	// The noise past the end fades in over the start while the start fades
	// out: frame n-1 runs on into frame 0 exactly, at equal power.
	for i := range f {
		x := float64(i) / float64(f)
		out[i] = w[i]*math.Sqrt(x) + w[n+i]*math.Sqrt(1-x)
	}
	out = normalize64(out)
	for range 6 + rnd.IntN(4) {
		addWrapped(out, rnd.IntN(n), birdCall(rate, rnd), 0.25+0.2*rnd.Float64())
	}
	return out
}

// wind is n frames of low-passed noise under a slow swell.
func wind(n, rate int, rnd *rand.Rand) []float64 {
	s := make([]float64, n)
	a := 1 - math.Exp(-2*math.Pi*350/float64(rate)) // one-pole low-pass at 350 Hz
	var l1, l2 float64
	p1, p2 := rnd.Float64()*2*math.Pi, rnd.Float64()*2*math.Pi
	for i := range s {
		l1 += a * (rnd.Float64()*2 - 1 - l1)
		l2 += a * (l1 - l2)
		t := float64(i) / float64(rate)
		swell := 0.6 + 0.25*math.Sin(2*math.Pi*t/7.3+p1) + 0.15*math.Sin(2*math.Pi*t/3.1+p2)
		s[i] = l2 * swell
	}
	return s
}

// birdCall is two to four quick rising chirps.
func birdCall(rate int, rnd *rand.Rand) []float64 {
	chirps := 2 + rnd.IntN(3)
	base := 2200 + 1200*rnd.Float64()
	chirp := rate * 8 / 100
	gap := rate * 6 / 100
	s := make([]float64, chirps*(chirp+gap))
	for c := range chirps {
		ph := 0.0
		for i := range chirp {
			x := float64(i) / float64(chirp)
			ph += (base + 1400*x) / float64(rate)
			s[c*(chirp+gap)+i] = math.Sin(2*math.Pi*ph) * math.Sin(math.Pi*x) // rises and falls to zero
		}
	}
	return s
}

// normalize64 scales s to a peak of 1, so the birds' levels are relative to
// the wind's.
func normalize64(s []float64) []float64 {
	m := 0.0
	for _, x := range s {
		m = max(m, math.Abs(x))
	}
	if m > 0 {
		for i := range s {
			s[i] /= m
		}
	}
	return s
}
