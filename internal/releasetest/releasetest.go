// Package releasetest gates the tests of the release's other builds: the
// Windows game under Wine and the arm64 and 386 server builds. They are the
// suite's longest (cross builds, wineboot, emulated sims: about a third of
// make test's CPU) and test the release rather than the code a change
// touches, so `make test` leaves them out and `make release-check` (which CI
// runs after make test) runs them with HOSTFALL_RELEASE_TESTS=1.
//
// A test gated here must be named in scripts/release-check.sh's list of
// release tests; TestGatedTestsRunInReleaseCheck checks that it is.
package releasetest

import (
	"os"
	"testing"
)

// Env is the variable that turns the release tests on.
const Env = "HOSTFALL_RELEASE_TESTS"

// On reports whether this run includes the release tests.
func On() bool { return os.Getenv(Env) != "" }

// Skip skips t unless the release tests are on, saying where they run;
// what names what it tests ("the Windows build under Wine").
func Skip(t testing.TB, what string) {
	t.Helper()
	if !On() {
		t.Skipf("opt-in: %s, tested by make release-check (%s=1)", what, Env)
	}
}
