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

func BenchmarkStep(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("units=%d", n), func(b *testing.B) {
			w := battle(b, n)
			start := w.Snapshot()
			ticks := 0
			for b.Loop() {
				if ticks == 200 { // keep the fight at full size
					b.StopTimer()
					if err := w.Restore(start); err != nil {
						b.Fatal(err)
					}
					ticks = 0
					b.StartTimer()
				}
				w.Step(nil)
				ticks++
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/tick")
			b.ReportMetric(float64(w.pl[0].units+w.pl[1].units), "units-left")
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

func TestBattleFights(t *testing.T) {
	w := battle(t, 1000)
	for range 300 {
		w.Step(nil)
	}
	checkInvariants(t, w)
	if w.pl[0].lost < 50 || w.pl[1].lost < 50 {
		t.Fatalf("losses %d and %d after 300 ticks: the armies are not fighting", w.pl[0].lost, w.pl[1].lost)
	}
	t.Logf("losses %d and %d", w.pl[0].lost, w.pl[1].lost)
}
