package status

import "runtime/metrics"

// gcPause is the longest the garbage collector stopped this process so
// far, in seconds (a variable: tests print a fixed one).
var gcPause = longestGCPause

// longestGCPause reads the process's GC pauses: the upper bound of the
// histogram's highest bucket with a count (0 when none).
func longestGCPause() float64 {
	s := []metrics.Sample{{Name: "/sched/pauses/total/gc:seconds"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64Histogram {
		return 0
	}
	h := s[0].Value.Float64Histogram()
	for i := len(h.Counts) - 1; i >= 0; i-- {
		if h.Counts[i] > 0 {
			return h.Buckets[i+1]
		}
	}
	return 0
}
