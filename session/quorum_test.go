package session

import "testing"

func TestMajority(t *testing.T) {
	for _, c := range []struct {
		yes, voters int
		want        bool
	}{
		{0, 0, false}, {1, 1, true}, {1, 2, false}, {2, 2, true}, {2, 3, true},
		{2, 4, false}, {3, 4, true}, {3, 6, false}, {4, 6, true}, {5, 8, true},
	} {
		if got := majority(c.yes, c.voters); got != c.want {
			t.Errorf("majority(%d, %d) = %v, want %v", c.yes, c.voters, got, c.want)
		}
	}
}

func TestPlurality(t *testing.T) {
	for _, c := range []struct {
		name   string
		counts map[uint64]int
		lead   uint64
		best   int
		tied   bool
	}{
		{"none", map[uint64]int{}, 0, 0, false},
		{"one", map[uint64]int{7: 1}, 7, 1, false},
		{"lead", map[uint64]int{7: 1, 8: 3, 9: 2}, 8, 3, false},
		{"tie", map[uint64]int{7: 2, 8: 2, 9: 1}, 0, 2, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			lead, best, tied := plurality(c.counts)
			if best != c.best || tied != c.tied || !tied && lead != c.lead {
				t.Errorf("plurality(%v) = %d, %d, %v; want %d, %d, %v", c.counts, lead, best, tied, c.lead, c.best, c.tied)
			}
		})
	}
}
