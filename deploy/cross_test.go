package deploy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"testing"
	"time"

	"hostfall/internal/releasetest"
)

// simArgs is the seeded game every architecture plays: a hard bot against
// an easy one on a small map, to the victory (turn 5,937 today; --turns
// bounds it if the rules change). Under qemu-user it takes about 3 s.
var simArgs = []string{"sim", "--players", "2", "--levels", "hard,easy", "--seed", "2", "--size", "48", "--turns", "12000", "--status-json"}

// The arm64 and 386 server builds play the same seeded sim to the same end
// hash as amd64 (the cores compute in integers, so int size and byte order
// change nothing). Binaries this kernel cannot run go through qemu-user.
func TestCrossBuildsPlayTheSameSim(t *testing.T) {
	releasetest.Skip(t, "the arm64 and 386 server builds")
	t.Parallel() // the builds, the emulated runs and the chroot game overlap
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the cross builds' emulation is set up for a linux/amd64 machine")
	}
	want := playSim(t, "amd64", nil)
	for _, arch := range []string{"arm64", "386"} {
		t.Run(arch, func(t *testing.T) {
			if got := playSim(t, arch, emulator(t, arch)); got != want {
				t.Errorf("linux/%s ended the sim with %+v, linux/amd64 with %+v", arch, got, want)
			}
		})
	}
}

// simEnd is a sim's end line.
type simEnd struct {
	Turn         int
	Hash, Winner string
}

// playSim runs the sim on the server build for arch, through emu when set.
func playSim(t *testing.T, arch string, emu []string) simEnd {
	t.Helper()
	argv := append(append(emu, server(t, arch)), simArgs...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "HOSTFALL_DATA="+t.TempDir())
	if len(emu) > 0 {
		// qemu 7.2 mishandles the signals of Go's asynchronous preemption
		// (scripts/exec386.sh): goroutines switch at calls only.
		cmd.Env = append(cmd.Env, "GODEBUG=asyncpreemptoff=1")
	}
	how := "natively"
	if len(emu) > 0 {
		how = "under " + filepath.Base(emu[0])
	}
	return simEndOf(t, "linux/"+arch+" "+how, cmd)
}

// simEndOf runs a sim's command (retrying a runtime crash under
// emulation, see runEmulated) and returns its end line; what is logged
// is labelled what.
func simEndOf(t *testing.T, what string, cmd *exec.Cmd) simEnd {
	t.Helper()
	start := time.Now()
	out, err := runEmulated(cmd)
	took := time.Since(start)
	if err != nil {
		t.Fatalf("%s: %v: %v\n%s", what, cmd.Args, err, out)
	}
	var end simEnd
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var l struct {
			Ev     string          `json:"ev"`
			Turn   int             `json:"turn"`
			Hash   string          `json:"hash"`
			Winner json.RawMessage `json:"winner"`
		}
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Ev == "end" {
			end = simEnd{l.Turn, l.Hash, string(l.Winner)}
		}
	}
	if end.Hash == "" {
		t.Fatalf("%s: the sim printed no end line:\n%s", what, out)
	}
	t.Logf("%s: turn %d hash %s winner %s in %v", what, end.Turn, end.Hash, end.Winner, took.Round(10*time.Millisecond))
	return end
}

// emulator is what runs arch's binaries here: nothing when the kernel can
// (386 on a kernel with IA32 emulation), else qemu-user (scripts/deps.sh
// installs it).
func emulator(t *testing.T, arch string) []string {
	t.Helper()
	if arch == "386" && exec.Command(server(t, "386"), "-h").Run() == nil {
		return nil
	}
	qemu := map[string]string{"arm64": "qemu-aarch64", "386": "qemu-i386"}[arch]
	path, err := exec.LookPath(qemu)
	if err != nil {
		t.Fatalf("%s is needed to run the linux/%s build here (scripts/deps.sh installs qemu-user): %v", qemu, arch, err)
	}
	return []string{path}
}

// runEmulated runs cmd and returns its stdout (stderr with it on failure).
// About one emulated run in a few dozen dies inside the Go runtime under
// qemu-user, not in our code (scripts/exec386.sh): such a crash is retried
// once, and a second one fails.
func runEmulated(cmd *exec.Cmd) ([]byte, error) {
	var out []byte
	var err error
	for try := 0; try < 2; try++ {
		c := exec.Command(cmd.Path, cmd.Args[1:]...)
		c.Env = cmd.Env
		var stderr bytes.Buffer
		c.Stderr = &stderr
		if out, err = c.Output(); err == nil {
			return out, nil
		}
		out = append(out, stderr.Bytes()...)
		if !runtimeCrash.Match(stderr.Bytes()) {
			break
		}
	}
	return out, err
}

// runtimeCrash is what a Go runtime crash under qemu prints, as
// scripts/exec386.sh recognises it.
var runtimeCrash = regexp.MustCompile(`(?m)^fatal error: |unexpected signal|^SIGSEGV|lock count`)
