package sound

import (
	"sync"

	"hostfall/sound/compose"
)

// MusicFade is how long a looping track takes to fade in or out when
// SetMusic changes what plays: the screens crossfade.
const MusicFade = 1.5 // seconds

// loop is a track that plays over and over (music, ambience) beside the
// channels: it has no origin, is never dropped, and fades in and out.
type loop struct {
	sample *Sample
	sound  ID
	cat    Category
	pos    int
	gain   float32 // now, 0 to 1
	target float32 // 1 while asked for, 0 while fading out
}

// setLoops makes ids the tracks that play: new ones start at their first
// frame and fade in, ones no longer asked for fade out and end; a track
// asked for again while it fades out fades back in where it is.
func (m *mixer) setLoops(ids []ID) {
	for i := range m.loops {
		m.loops[i].target = 0
	}
next:
	for _, id := range ids {
		for i := range m.loops {
			if m.loops[i].sound == id {
				m.loops[i].target = 1
				continue next
			}
		}
		e := m.bank.entry(id)
		if e == nil || len(e.samples) == 0 {
			continue
		}
		m.loops = append(m.loops, loop{sample: e.samples[0], sound: id, cat: e.category, target: 1})
	}
}

// mixLoops adds the loops' next len(acc) frames to acc, ramping each one's
// gain (its fade times its category's volume) across the chunk.
func (m *mixer) mixLoops(acc []float32, from, cats [NumCategories]float32) {
	step := float32(len(acc)) / (MusicFade * float32(m.bank.rate))
	kept := m.loops[:0]
	for _, l := range m.loops {
		g0 := l.gain
		if l.gain < l.target {
			l.gain = min(l.gain+step, l.target)
		} else if l.gain > l.target {
			l.gain = max(l.gain-step, l.target)
		}
		a, b := g0*from[l.cat], l.gain*cats[l.cat]
		l.pos = addLooped(acc, l.sample.pcm, l.pos, a, (b-a)/float32(len(acc)))
		if l.gain > 0 || l.target > 0 {
			kept = append(kept, l)
		}
	}
	clear(m.loops[len(kept):])
	m.loops = kept
}

// addLooped adds src from pos on into dst, going round src's end, with a
// gain from g growing by step a frame; it returns the next pos.
func addLooped(dst, src []float32, pos int, g, step float32) int {
	if len(src) == 0 {
		return 0
	}
	for len(dst) > 0 {
		s := src[pos:]
		n := min(len(s), len(dst))
		addRamp(dst[:n], s[:n], g, step)
		g += step * float32(n)
		dst, pos = dst[n:], (pos+n)%len(src)
	}
	return pos
}

// SetMusic plays the named looping tracks (music.*, ambience.*) from now
// on, crossfading from what played before over MusicFade; no names fades
// everything out. Unknown ids are ignored. Like Play it never blocks on
// the mixer for long: it only swaps the list of loops.
func (s *Server) SetMusic(ids ...ID) {
	if s.closed.Load() {
		return
	}
	s.mixMu.Lock()
	defer s.mixMu.Unlock()
	s.mix.setLoops(ids)
}

// Music lists the tracks SetMusic asked for that still play or fade in.
func (s *Server) Music() []ID {
	s.mixMu.Lock()
	defer s.mixMu.Unlock()
	var ids []ID
	for _, l := range s.mix.loops {
		if l.target > 0 {
			ids = append(ids, l.sound)
		}
	}
	return ids
}

// registerMusic composes the tracks of package compose at b's rate, one
// goroutine each (about 0.1 s of a core each at 44.1 kHz), and adds them
// to b and names under their music category.
func registerMusic(b *Bank, names Names) error {
	pcm := make([][]float32, len(compose.Tracks))
	var wg sync.WaitGroup
	for i, t := range compose.Tracks {
		wg.Go(func() { pcm[i] = compose.Write(t, int(b.rate), compose.DefaultSeed) })
	}
	wg.Wait()
	for i, t := range compose.Tracks {
		id, err := b.Add(t.Name(), NewSample(t.Name(), pcm[i]))
		if err != nil {
			return err
		}
		if err := b.SetCategory(id, CategoryOf(t.Name())); err != nil {
			return err
		}
		names[t.Name()] = id
	}
	return nil
}
