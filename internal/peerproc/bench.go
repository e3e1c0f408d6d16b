package peerproc

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"
)

// Figures the network benchmarks (tools/netbench on loopback, p2p/e2e in
// namespaces) compute from the status lines of the processes they run.

// Percentile is the p-th percentile (0..100, nearest rank) of v; zero when
// v is empty.
func Percentile[T cmp.Ordered](v []T, p float64) T {
	if len(v) == 0 {
		var zero T
		return zero
	}
	s := slices.Clone(v)
	slices.Sort(s)
	i := int(float64(len(s))*p/100+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}

type cmdKey struct{ slot, seq int64 }

// CommandLatencies matches every own-slot proposal (cmd_proposed lines,
// HOSTFALL_TRACE=1) with the times each process applied it (cmd_applied)
// and returns, in milliseconds, how long until the last of them did.
// Commands applied by fewer than minApplied processes are left out.
func CommandLatencies(procs []*Proc, minApplied int) []float64 {
	proposed := map[cmdKey]int64{}
	last := map[cmdKey]int64{}
	applied := map[cmdKey]int{}
	for _, p := range procs {
		for _, l := range p.Lines() {
			k := cmdKey{l.Int("slot"), l.Int("seq")}
			switch l.Ev() {
			case "cmd_proposed":
				proposed[k] = l.Int("us")
			case "cmd_applied":
				last[k] = max(last[k], l.Int("us"))
				applied[k]++
			}
		}
	}
	var out []float64
	for k, at := range proposed {
		if applied[k] >= minApplied {
			out = append(out, float64(last[k]-at)/1000)
		}
	}
	return out
}

// KillHosts kills the host of a running game once for every turn in at:
// when alive[0] has reached that turn, victim gets SIGKILL, and the peer
// the survivors name in host_changed is the next victim. ids maps each
// process to its peer ID. It returns the survivors and, per survivor and
// kill, the milliseconds from the kill to its host_changed line (which
// comes with the first turn of the new host).
func KillHosts(ctx context.Context, alive []*Proc, ids map[*Proc]string, victim *Proc, at ...int64) ([]*Proc, []float64, error) {
	var mig []float64
	for _, turn := range at {
		alive = slices.DeleteFunc(slices.Clone(alive), func(p *Proc) bool { return p == victim })
		if len(alive) == 0 {
			return nil, mig, fmt.Errorf("no survivor left to kill %s for", victim.Name)
		}
		if _, err := alive[0].Wait(ctx, func(l Line) bool { return l.Ev() == "turn" && l.Int("turn") >= turn }); err != nil {
			return nil, mig, err
		}
		killed := time.Now().UnixMilli()
		victim.Kill()
		next := ""
		for _, s := range alive {
			hc, err := s.Wait(ctx, func(l Line) bool { return l.Ev() == "host_changed" && l.Str("old") == ids[victim] })
			if err != nil {
				return nil, mig, err
			}
			mig = append(mig, float64(hc.Int("unix_ms")-killed))
			next = hc.Str("new")
		}
		for _, p := range alive {
			if ids[p] == next {
				victim = p
			}
		}
	}
	return slices.DeleteFunc(alive, func(p *Proc) bool { return p == victim }), mig, nil
}
