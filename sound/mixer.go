package sound

import (
	"math"
	"math/rand/v2"
)

// selectionsBeforeAnnoyed is how many random first-group lines a unit says
// before it starts on its annoyed lines.
const selectionsBeforeAnnoyed = 3

// chunkFrames bounds one pass of the mixer; longer pulls loop over chunks.
const chunkFrames = 1024

// channel is one voice of the mixer; a nil sample means free.
type channel struct {
	sample *Sample
	pos    int
	gain   float32
	origin Origin
	sound  ID
	cat    Category
}

// selection is seed 001's SelectionHandler: whose two-groups voice is running
// and where in the sequence it is.
type selection struct {
	origin  Origin
	sound   ID
	count   int
	annoyed bool
}

// mixer turns requests into channels and channels into samples. It is the
// thread-unsafe core; Server adds the FIFO, the locks and the sinks.
type mixer struct {
	bank    *Bank
	chans   []channel
	rnd     *rand.Rand
	sel     selection
	frame   uint64
	acc     []float32
	gain    float32                // global volume at the end of the last chunk
	catGain [NumCategories]float32 // category volumes at the end of the last chunk
	loops   []loop                 // music and ambience (music.go)
	observe func(Event)
	stats   *counters
}

func newMixer(b *Bank, channels int, seed uint64, observe func(Event), st *counters) *mixer {
	return &mixer{
		bank:    b,
		chans:   make([]channel, channels),
		rnd:     newRand(seed),
		acc:     make([]float32, chunkFrames),
		gain:    1,
		catGain: [NumCategories]float32{1, 1, 1},
		observe: observe,
		stats:   st,
	}
}

// newRand is the mixer's random source: PCG, so a seed replays everywhere.
func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

func (m *mixer) emit(e Event) {
	if m.observe != nil {
		m.observe(e)
	}
}

func (m *mixer) drop(r Request, why DropReason) {
	m.stats.drop(why)
	m.emit(Event{Kind: Dropped, Sound: r.Sound, Origin: r.Origin, Reason: why})
}

// handle is seed 001's FillChannels for one request: keep it or not, choose
// its sample, give it a channel. The checks that can drop a request come before
// the choice, so a dropped selection does not move the selection sequence.
func (m *mixer) handle(r Request, maxRange float64) {
	e := m.bank.entry(r.Sound)
	if e == nil {
		m.drop(r, DropUnknown)
		return
	}
	vol := volumeFor(r, e.reach, maxRange)
	if vol <= 0 {
		m.drop(r, DropInaudible)
		return
	}
	if r.Origin != 0 && m.playing(r.Origin) {
		m.drop(r, DropBusy)
		return
	}
	c := m.free()
	if c < 0 {
		if !r.Selection {
			m.drop(r, DropNoChannel)
			return
		}
		// The player clicked and waits for an answer; a battle sound that is
		// nearly over is the cheapest thing to cut for it.
		c = m.nearestEnd()
		m.end(c, m.frame, true)
	}
	smp := m.choose(r, e)
	m.chans[c] = channel{sample: smp, gain: float32(vol), origin: r.Origin, sound: r.Sound, cat: e.category}
	m.stats.started.Add(1)
	m.stats.playing.Add(1)
	m.emit(Event{Kind: Started, Sound: r.Sound, Origin: r.Origin, Sample: smp, Volume: vol, Frame: m.frame})
}

// volumeFor maps a request to a volume in [0, 1]: as asked, or falling linearly
// from 1 at the view point to 0 at the sound's range, capped by maxRange.
func volumeFor(r Request, reach, maxRange float64) float64 {
	v := r.Power
	if !r.IsVolume {
		if reach <= 0 || reach > maxRange {
			reach = maxRange
		}
		v = 1 - math.Abs(r.Power)/reach
	}
	if !(v > 0) { // also NaN
		return 0
	}
	return min(v, 1)
}

// playing reports whether origin has a channel. A linear scan of at most a few
// dozen channels beats a map and allocates nothing.
func (m *mixer) playing(o Origin) bool {
	for i := range m.chans {
		if m.chans[i].sample != nil && m.chans[i].origin == o {
			return true
		}
	}
	return false
}

func (m *mixer) free() int {
	for i := range m.chans {
		if m.chans[i].sample == nil {
			return i
		}
	}
	return -1
}

func (m *mixer) nearestEnd() int {
	best, left := 0, math.MaxInt
	for i := range m.chans {
		c := &m.chans[i]
		if l := c.sample.Len() - c.pos; l < left {
			best, left = i, l
		}
	}
	return best
}

// end frees channel i; frame is the one after its last mixed sample.
func (m *mixer) end(i int, frame uint64, cut bool) {
	c := &m.chans[i]
	if cut {
		m.stats.cut.Add(1)
	}
	m.stats.playing.Add(-1)
	m.emit(Event{Kind: Finished, Sound: c.sound, Origin: c.origin, Sample: c.sample, Frame: frame, Cut: cut})
	*c = channel{}
}

// choose is seed 001's ChooseSample. For a two-groups selection of the same
// origin it plays three random lines of the first group, then the second group
// in order, then starts over; any other selection request resets the sequence.
func (m *mixer) choose(r Request, e *entry) *Sample {
	if e.kind != kindTwoGroups {
		if r.Selection {
			m.sel = selection{origin: r.Origin, sound: r.Sound}
		}
		return m.pick(e.samples)
	}
	first, second := m.bank.entry(e.first), m.bank.entry(e.second)
	if !r.Selection {
		return m.pick(first.samples)
	}
	if r.Origin == 0 || m.sel.origin != r.Origin || m.sel.sound != r.Sound {
		m.sel = selection{origin: r.Origin, sound: r.Sound}
	}
	if !m.sel.annoyed {
		m.sel.count++
		if m.sel.count == selectionsBeforeAnnoyed {
			m.sel.count, m.sel.annoyed = 0, true
		}
		return m.pick(first.samples)
	}
	s := second.samples[m.sel.count]
	m.sel.count++
	if m.sel.count == len(second.samples) {
		m.sel.count, m.sel.annoyed = 0, false
	}
	return s
}

// pick draws one sample; a single sample draws nothing from the random source.
func (m *mixer) pick(s []*Sample) *Sample {
	if len(s) == 1 {
		return s[0]
	}
	return s[m.rnd.IntN(len(s))]
}

// mix fills out with the next frames of every channel, scaled by its
// category's volume and the global volume and clipped, and frees the
// channels that ran out.
func (m *mixer) mix(out [][2]float64, global float32, cats [NumCategories]float32) {
	for len(out) > 0 {
		n := min(len(out), len(m.acc))
		m.mixChunk(out[:n], global, cats)
		out = out[n:]
	}
}

func (m *mixer) mixChunk(out [][2]float64, global float32, cats [NumCategories]float32) {
	from := m.catGain
	m.catGain = cats
	acc := m.acc[:len(out)]
	clear(acc)
	for i := range m.chans {
		c := &m.chans[i]
		if c.sample == nil {
			continue
		}
		src := c.sample.pcm[c.pos:]
		if len(src) > len(acc) {
			src = src[:len(acc)]
		}
		if g0, g1 := c.gain*from[c.cat], c.gain*cats[c.cat]; g0 == g1 {
			addScaled(acc[:len(src)], src, g1)
		} else { // a slider moved: ramp over the chunk, as the global volume does
			addRamp(acc[:len(src)], src, g0, (g1-g0)/float32(len(out)))
		}
		c.pos += len(src)
		if c.pos >= c.sample.Len() {
			m.end(i, m.frame+uint64(len(src)), false)
		}
	}
	m.mixLoops(acc, from, cats)
	m.writeOut(out, acc, global)
	m.frame += uint64(len(out))
}

// addScaled is the inner loop of the mixer: dst += src × g.
func addScaled(dst, src []float32, g float32) {
	dst = dst[:len(src)]
	for i, x := range src {
		dst[i] += x * g
	}
}

// addRamp is addScaled with a gain that starts at g and grows by step a frame.
func addRamp(dst, src []float32, g, step float32) {
	dst = dst[:len(src)]
	for i, x := range src {
		dst[i] += x * (g + step*float32(i+1))
	}
}

// writeOut applies the global volume and clips. A volume change is ramped over
// the chunk so it never clicks.
func (m *mixer) writeOut(out [][2]float64, acc []float32, global float32) {
	acc = acc[:len(out)]
	g0 := m.gain
	m.gain = global
	if g0 == global {
		for i, x := range acc {
			y := float64(clip(x * global))
			out[i] = [2]float64{y, y}
		}
		return
	}
	step := (global - g0) / float32(len(out))
	for i, x := range acc {
		g := g0 + step*float32(i+1)
		y := float64(clip(x * g))
		out[i] = [2]float64{y, y}
	}
}

func clip(x float32) float32 {
	return min(max(x, -1), 1)
}
