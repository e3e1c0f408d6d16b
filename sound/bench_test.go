package sound

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// BenchmarkMix measures the CPU cost of mixing as a share of real time: each
// iteration mixes 10 ms of 44.1 kHz stereo with every channel busy, the
// chunk the silent and WAV sinks pull. %core is that cost over 10 ms.
func BenchmarkMix(b *testing.B) {
	for _, channels := range []int{1, 32} {
		b.Run(fmt.Sprintf("channels=%d", channels), func(b *testing.B) {
			bank := NewBank(DefaultRate)
			r := rand.New(rand.NewPCG(1, 2))
			pcm := make([]float32, 5*int(DefaultRate)) // 5 s of noise
			for i := range pcm {
				pcm[i] = r.Float32()*0.2 - 0.1
			}
			id := must(bank.Add("noise", NewSample("noise", pcm)))
			s := must(New(bank, Options{Sink: Pull(), MaxChannels: channels}))
			defer s.Close()
			chunk := make([][2]float64, DefaultRate.N(10*time.Millisecond))
			n := 0
			for b.Loop() {
				for busy(s) < channels {
					s.Play(Request{Sound: id, Power: 0.5, IsVolume: true})
					s.Stream(chunk[:0])
				}
				s.Stream(chunk)
				n++
			}
			perChunk := float64(b.Elapsed().Nanoseconds()) / float64(n)
			b.ReportMetric(perChunk/float64(10*time.Millisecond)*100, "%core")
		})
	}
}

// busy counts the channels in use; only for pull mode, on the pulling goroutine.
func busy(s *Server) int {
	n := 0
	for _, c := range s.mix.chans {
		if c.sample != nil {
			n++
		}
	}
	return n
}

// BenchmarkRequestDelay measures, in real time, how long a request takes from
// Play to the mixing of its first sample on the silent sink (10 ms period): at
// most a period, half on average. A speaker adds its own buffer (50 ms) after that.
func BenchmarkRequestDelay(b *testing.B) {
	bank := NewBank(DefaultRate)
	id := must(bank.Add("blip", NewSample("blip", make([]float32, 100))))
	started := make(chan time.Time, 1)
	s := must(New(bank, Options{Sink: Silent(), Observe: func(e Event) {
		if e.Kind == Started {
			started <- time.Now()
		}
	}}))
	defer s.Close()
	// Game events come at any time, not just after a tick: wait a random
	// part of the period first (not counted).
	r := rand.New(rand.NewPCG(3, 4))
	var delays []time.Duration
	for b.Loop() {
		b.StopTimer()
		time.Sleep(time.Duration(r.Int64N(int64(DefaultPeriod))))
		b.StartTimer()
		t0 := time.Now()
		s.Play(Request{Sound: id})
		delays = append(delays, (<-started).Sub(t0))
	}
	slices.Sort(delays)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	var sum time.Duration
	for _, d := range delays {
		sum += d
	}
	b.ReportMetric(ms(sum)/float64(len(delays)), "ms-mean")
	b.ReportMetric(ms(delays[len(delays)*99/100]), "ms-p99")
	b.ReportMetric(ms(delays[len(delays)-1]), "ms-max")
}

// BenchmarkEmbedded is the start-up cost of decoding and resampling every
// embedded sound to 44.1 kHz.
func BenchmarkEmbedded(b *testing.B) {
	for b.Loop() {
		if _, _, err := Embedded(); err != nil {
			b.Fatal(err)
		}
	}
}
