package session_test

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestMain collects garbage at four times the live heap rather than twice:
// the simulations allocate many small short-lived messages, and the
// collector took a fifth of TestProperty's CPU (55 MB at most instead of
// 27 MB for 200 schedules).
func TestMain(m *testing.M) {
	debug.SetGCPercent(400)
	os.Exit(m.Run())
}
