package network

import (
	"fmt"
	"testing"
	"time"

	"hostfall/internal/testwait"
	"hostfall/session"
)

// A player who leaves (its peer's Leave: the menu, a closed window, a
// signal all come to it) is a departure on every other peer at once, never
// a wait or an away, and the host's announcement stops counting it. In
// games of two, three and four, the host leaving or a joiner.
func TestLeaveIsADepartureAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("real libp2p games; skipped with -short")
	}
	for _, players := range []int{2, 3, 4} {
		for _, who := range []string{"host", "join"} {
			t.Run(fmt.Sprintf("%d-%s", players, who), func(t *testing.T) {
				peers := newGame(t, gameOpts{players: players})
				leaver := peers[len(peers)-1]
				if who == "host" {
					leaver = peers[0]
				}
				slot := leaver.Status().Slot
				testwait.For(t, "turn 20", 20*time.Second, func() bool { return peers[0].Status().Turn >= 20 })
				start := time.Now()
				if err := leaver.Leave(); err != nil {
					t.Fatal(err)
				}
				for _, p := range peers {
					if p == leaver {
						continue
					}
					testwait.For(t, p.name+" sees the leaver leave", 10*time.Second, func() bool {
						_, ok := p.find(EvPlayerLeft)
						return ok
					})
					t.Logf("%s: player_left %v after Leave", p.name, time.Since(start).Round(time.Millisecond))
					for _, e := range p.all(EvWaiting) {
						if e.Slot == slot {
							t.Errorf("%s waited for the leaver: %+v", p.name, e)
						}
					}
					if len(p.all(EvPlayerAway)) > 0 {
						t.Errorf("%s marked someone away: %+v", p.name, p.all(EvPlayerAway))
					}
				}
				if players == 2 {
					// The one left wins: the game is over and no longer
					// announced at all.
					testwait.For(t, "the announcement withdrawn", 10*time.Second, func() bool {
						for _, p := range peers {
							if _, ok := p.Hosting(); ok {
								return false
							}
						}
						return true
					})
					return
				}
				var host *tpeer
				testwait.For(t, "a host announcing the game", 10*time.Second, func() bool {
					for _, p := range peers {
						if _, ok := p.Hosting(); ok && p != leaver {
							host = p
							return true
						}
					}
					return false
				})
				testwait.For(t, "the announcement counting one player fewer", 5*time.Second, func() bool {
					a, _ := announced{p: host.Peer}.Announce()
					return a.Players == players-1
				})
				if l, _ := host.Hosting(); l.Slots[slot].Kind == session.SlotHuman {
					t.Errorf("the leaver's slot %d is still announced as a player's", slot)
				}
			})
		}
	}
}
