package match

import (
	"sync"
	"testing"
	"time"

	"hostfall/game"
	"hostfall/session"
)

// A reader that holds View for as long as it likes (a window building its
// game screen) never holds up the owner: turns keep applying, the view
// stays the state it showed, and the next Publish after the reader lets go
// brings the newest state.
func TestViewNeverBlocksTheOwner(t *testing.T) {
	lobby := session.Lobby{MapSeed: 4, MapSize: 64, State: session.StateLoading,
		Slots: []session.Slot{{Kind: session.SlotHuman, Peer: "me"}, {Kind: session.SlotBot, BotLevel: 1}}}
	m := New(Options{})
	node := &hashNode{hashes: map[uint64]uint64{}}
	if err := m.Apply(&session.Ready{Events: []session.Event{{Kind: session.EvLoad, Lobby: &lobby}}}, node); err != nil {
		t.Fatal(err)
	}
	holding, release, done := make(chan int), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		m.View(func(w *game.World) {
			holding <- w.Turn()
			<-release
		})
	}()
	if turn := <-holding; turn != 0 {
		t.Fatalf("the first view shows turn %d, want 0", turn)
	}
	applied := make(chan error, 1)
	go func() {
		for n := uint64(1); n <= 30; n++ {
			if err := m.Apply(&session.Ready{Committed: []session.Turn{{Number: n, WantHash: n%10 == 0}}}, node); err != nil {
				applied <- err
				return
			}
		}
		applied <- nil
	}()
	select {
	case err := <-applied:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second): // a deadlock guard, not a timing bound
		t.Fatal("the owner waited for a reader holding View")
	}
	if m.World().Turn() != 30 || len(node.hashes) != 3 {
		t.Fatalf("owner at turn %d with %d hash reports, want 30 and 3", m.World().Turn(), len(node.hashes))
	}
	close(release)
	<-done
	m.View(func(w *game.World) {
		if w.Turn() != 0 {
			t.Errorf("before the next Publish the view shows turn %d, want the held 0", w.Turn())
		}
	})
	m.Publish()
	m.View(func(w *game.World) {
		if w.Turn() != 30 || w.Hash() != m.World().Hash() {
			t.Errorf("after Publish the view is at turn %d, want the owner's 30", w.Turn())
		}
	})
}

// Readers on many goroutines and the owner stepping (run with -race): every
// view is a whole turn's state, and Over turns true with the owner's world.
func TestViewConcurrentReaders(t *testing.T) {
	lobby := session.Lobby{MapSeed: 5, MapSize: 64, State: session.StateLoading, TurnLimit: 200,
		Slots: []session.Slot{{Kind: session.SlotBot, BotLevel: 2}, {Kind: session.SlotBot, BotLevel: 2}}}
	m := New(Options{})
	node := &hashNode{hashes: map[uint64]uint64{}}
	if err := m.Apply(&session.Ready{Events: []session.Event{{Kind: session.EvLoad, Lobby: &lobby}}}, node); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			last := -1
			for {
				select {
				case <-stop:
					return
				default:
				}
				m.View(func(w *game.World) {
					if w.Turn() < last {
						t.Errorf("the view went back from turn %d to %d", last, w.Turn())
					}
					last = w.Turn()
					_ = w.Hash()
				})
			}
		})
	}
	st := session.Status{Drives: []int{0, 1}}
	for n := uint64(1); n <= 200; n++ {
		if err := m.Apply(&session.Ready{Committed: []session.Turn{{Number: n}}, Status: st}, node); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	if !m.Over() {
		t.Error("Over is false after the turn limit")
	}
}
