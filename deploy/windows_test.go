package deploy

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"hostfall/internal/wine"
)

// windowsSims are the seeded games the Windows build plays against the
// Linux build: several seeds and player counts, on small maps, to the
// victory or the turn limit.
var windowsSims = []struct {
	players int
	seed    uint64
	levels  string
}{
	{2, 3, "hard,easy"},
	{3, 11, "normal"},
	{4, 7, "hard,normal,easy"},
}

// The release's Windows build (the game, cross-built with mingw-w64 and
// run under Wine) plays seeded sims to the same turn, hash and winner as
// the Linux build: the game computes the same on both systems. It prints
// what the Windows stage costs: the build (a link when Go's cache is warm),
// the Wine prefix and the games.
func TestWindowsBuildPlaysTheSameSims(t *testing.T) {
	t.Parallel() // the builds, the emulated runs and the chroot game overlap
	wine.Skip(t)
	start := time.Now()
	exe := wine.Build(t)
	built := time.Since(start)
	p := wine.Shared(t)
	ready := time.Since(start)
	for _, s := range windowsSims {
		t.Run(fmt.Sprintf("players=%d,seed=%d", s.players, s.seed), func(t *testing.T) {
			args := []string{"sim", "--players", fmt.Sprint(s.players), "--levels", s.levels, "--seed", fmt.Sprint(s.seed),
				"--size", "48", "--turns", "3000", "--status-json"}
			linux := exec.Command(server(t, "amd64"), args...)
			linux.Env = append(os.Environ(), "HOSTFALL_DATA="+t.TempDir())
			want := simEndOf(t, "linux/amd64", linux)
			win := p.Command(exe, args...)
			win.Env = append(win.Env, "HOSTFALL_DATA="+t.TempDir())
			if got := simEndOf(t, "windows/amd64 under Wine", win); got != want {
				t.Errorf("the Windows build ended the sim with %+v, the Linux build with %+v", got, want)
			}
		})
	}
	t.Logf("Windows stage: %v in all (cross-build %v, Wine prefix %v, sims %v)", time.Since(start).Round(100*time.Millisecond),
		built.Round(100*time.Millisecond), (ready - built).Round(100*time.Millisecond), (time.Since(start) - ready).Round(100*time.Millisecond))
}
