// Package frames is a test rig: it reads a client.Client the way the window
// does every frame, from a goroutine of its own, while the client's
// goroutines run the session and step the world. The client packages' tests
// run it under the race detector, so the seam the screens use is checked
// for data races without building the graphics stack (render has no
// goroutines of its own, and its tests run without -race).
package frames

import (
	"sync"
	"time"

	"hostfall/client"
	"hostfall/game"
)

// Read starts one reader per client, each calling what a frame reads about
// sixty times a second: the browser's sessions, the lobby, the players, the
// network panel and the whole world (its hash reads every unit). It leaves
// Events and WorldEvents to the test, which consumes them. stop ends the
// readers and waits for them.
func Read(cs ...client.Client) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	for _, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tick := time.NewTicker(16 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-done:
					return
				case <-tick.C:
				}
				frame(c)
			}
		}()
	}
	return func() { close(done); wg.Wait() }
}

func frame(c client.Client) {
	_ = c.Sessions()
	_, _ = c.Lobby()
	_ = c.Slot()
	_ = c.Players()
	_, _ = c.Me()
	_ = c.Status()
	c.View(func(w *game.World, _ time.Time) { _ = w.Hash() })
}
