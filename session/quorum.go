package session

// Votes are counted here and nowhere else (as etcd's raft counts them in
// its quorum package): a candidate's followers, the players that moved to
// a newer generation under a host, and the state hashes of a turn.

// majority reports whether yes votes are a strict majority of voters: more
// than half, so two disjoint groups can never both have one.
func majority(yes, voters int) bool { return 2*yes > voters }

// plurality finds the value with the most votes in counts: lead and its
// count best, and whether another value has as many (tied; lead is then
// meaningless). With no votes at all best is 0.
func plurality(counts map[uint64]int) (lead uint64, best int, tied bool) {
	leaders := 0
	for v, c := range counts {
		switch {
		case c > best:
			lead, best, leaders = v, c, 1
		case c == best:
			leaders++
		}
	}
	return lead, best, leaders > 1
}
