package session_test

import (
	"testing"

	"hostfall/session"
)

// A spectator that joins a game under way and loses the snapshot its
// Welcome promised asks again once the host's later turns have come
// without it, and catches up; a slow snapshot (its turns wait behind it on
// the one ordered link) is not asked for again.
func TestLostSnapshotIsAskedForAgain(t *testing.T) {
	for _, tc := range []struct {
		name     string
		lose     int // how many of the host's snapshots to the spectator are lost
		slow     int // extra latency of the host's link to the spectator, in ticks
		wantSnap int // snapshots the host sends it
	}{
		{"lost once", 1, 0, 2},
		{"lost twice", 2, 0, 3},
		{"slow link, nothing lost", 0, 60, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := gameOf(t, 11, 3, simConfig())
			g.Run(40)
			sent, lost := 0, 0
			g.Lose = func(from session.PeerID, m session.Message) bool {
				if from != pid(0) || m.To != "watcher" || m.Kind != session.MsgSnapshot {
					return false
				}
				sent++
				if lost < tc.lose {
					lost++
					return true
				}
				return false
			}
			if tc.slow > 0 {
				g.Delay(pid(0), "watcher", tc.slow, tc.slow)
			}
			w := joinWith(t, g, "watcher", func(c *session.Config) { c.Spectate = true })
			g.Run(300 + tc.slow + 400*tc.lose)
			if behind := uint64(2 + tc.slow/5); !w.HasEvent(session.EvJoined) || w.Last()+behind < g.Peers[0].Last() { // a turn takes 5 ticks
				t.Fatalf("the spectator did not catch up: turn %d of %d (%d snapshots sent, %d lost)", w.Last(), g.Peers[0].Last(), sent, lost)
			}
			if sent != tc.wantSnap {
				t.Errorf("the host sent the spectator %d snapshots, want %d", sent, tc.wantSnap)
			}
			noViolations(t, g)
		})
	}
}
