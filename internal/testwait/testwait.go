// Package testwait holds the one polling loop the tests of the concurrent
// packages share: wait, bounded in time, for something another goroutine or
// process makes true.
package testwait

import (
	"testing"
	"time"
)

// For polls cond every 10 ms until it holds, and fails the test with what
// it was waiting for once d has passed.
func For(t testing.TB, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", d, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
