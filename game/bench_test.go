package game

import (
	"fmt"
	"testing"
)

// battle returns a world where two armies of units/2 each (two soldiers to
// one archer) stand facing each other on open ground, ordered to attack-move
// through each other, stepped until the front lines meet.
func battle(tb testing.TB, units int) *World {
	size := 128
	if units > 2000 {
		size = 256
	}
	w := flatWorld(tb, size, 0, 1)
	rows := min(units/20, size*2/5)
	cols := (units/2 + rows - 1) / rows
	y0 := (size - rows) / 2
	left := size/2 - 5 - cols
	right := size/2 + 5
	var armies [2][]UnitID
	for n := range units {
		p := n % 2
		j := n / 2
		x, y := left+j/rows, y0+j%rows
		if p == 1 {
			x = right + j/rows
		}
		k := Soldier
		if j%3 == 2 {
			k = Archer
		}
		armies[p] = append(armies[p], put(tb, w, k, PlayerID(p), x, y))
	}
	var cmds []Command
	for p, ids := range armies {
		goal := int32(size - 3)
		if p == 1 {
			goal = 2
		}
		for j := 0; j < len(ids); j += MaxCommandUnits {
			cmds = append(cmds, Command{Player: PlayerID(p), Kind: CmdAttackMove, Units: ids[j:min(j+MaxCommandUnits, len(ids))], X: goal, Y: int32(size / 2)})
		}
	}
	w.Step(cmds)
	run(w, 400, func() bool { return w.pl[0].lost > 0 })
	return w
}

// BenchmarkStep measures ticks of a battle at full size: the fight runs
// from first contact for up to 1,000 ticks (about a fifth of the units die),
// then starts over from the snapshot taken at contact.
func BenchmarkStep(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("units=%d", n), func(b *testing.B) {
			w := battle(b, n)
			start := w.Snapshot()
			ticks, alive := 0, 0
			for b.Loop() {
				if ticks == 1000 {
					b.StopTimer()
					if err := w.Restore(start); err != nil {
						b.Fatal(err)
					}
					ticks = 0
					b.StartTimer()
				}
				w.Step(nil)
				ticks++
				alive += int(w.pl[0].units + w.pl[1].units)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/tick")
			b.ReportMetric(float64(alive)/float64(b.N), "units")
		})
	}
}

func BenchmarkWorldSnapshot(b *testing.B) {
	w := battle(b, 10000)
	var buf []byte
	for b.Loop() {
		buf = w.AppendSnapshot(buf[:0])
	}
	units := w.pl[0].units + w.pl[1].units
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/op")
	b.ReportMetric(float64(len(buf)), "bytes")
	b.ReportMetric(float64(len(buf))/float64(units), "bytes/unit")
}

func BenchmarkWorldRestore(b *testing.B) {
	w := battle(b, 10000)
	snap := w.Snapshot()
	w2 := new(World)
	for b.Loop() {
		if err := w2.Restore(snap); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/op")
}

func BenchmarkWorldHash(b *testing.B) {
	w := battle(b, 10000)
	var h uint64
	for b.Loop() {
		h ^= w.Hash()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/op")
}

// TestBattleFights checks the benchmark's battle: both sides lose units,
// no invariant breaks, and the fight needs only a handful of flow fields (a
// regression here is what once made the 10,000-unit tick eight times slower).
func TestBattleFights(t *testing.T) {
	w := battle(t, 1000)
	before := w.paths.computed
	for range 600 {
		w.Step(nil)
	}
	checkInvariants(t, w)
	if w.pl[0].lost < 50 || w.pl[1].lost < 50 {
		t.Fatalf("losses %d and %d after 600 ticks: the armies are not fighting", w.pl[0].lost, w.pl[1].lost)
	}
	if n := w.paths.computed - before; n > 20 {
		t.Fatalf("%d flow fields computed in 600 ticks of battle; fights should steer, not search", n)
	}
}
