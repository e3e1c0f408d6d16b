package deploy

import (
	"debug/pe"
	"encoding/json"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"hostfall/internal/wine"
)

// The Windows game says its version, stamped as on Linux. It is a GUI
// program, so Windows opens no console window
// when it is double-clicked; started from a console, a headless command
// still prints its status lines there (console_windows.go attaches to the
// parent's console). Under Wine on a pseudo-terminal (script(1), as a
// Command Prompt would be), `start /wait` runs the game as a console's
// child with no standard handles of its own, as a Command Prompt starts a
// GUI program on Windows; the sim's lines must come out on that console.
func TestWindowsCommandPrintsToItsConsole(t *testing.T) {
	t.Parallel()
	wine.Skip(t)
	exe := wine.Build(t)
	if sub := subsystem(t, exe); sub != pe.IMAGE_SUBSYSTEM_WINDOWS_GUI {
		t.Fatalf("%s has PE subsystem %d, want %d (GUI): double-clicking it would open a console window; build it with -H=windowsgui (scripts/build.sh)",
			exe, sub, pe.IMAGE_SUBSYSTEM_WINDOWS_GUI)
	}
	if _, err := exec.LookPath("script"); err != nil {
		t.Fatal("script(1) is not installed (Debian: bsdutils)")
	}
	// A prefix of its own: `start` brings up Wine's desktop process with
	// this test's environment, no X display, and a window test sharing
	// the prefix then got no window at all (GLFW did not start, twice in CI).
	p := wine.NewPrefix(t)
	v := versionOf(t, "windows/amd64 under Wine", p.Command(exe, "version", "--json"))
	if want := strings.TrimSpace(run(t, "../scripts/version.sh")); v["version"] != want || v["platform"] != "windows/amd64" || v["build"] != "full" {
		t.Errorf("the Windows game's version --json says %v, want version %s, platform windows/amd64, build full", v, want)
	}
	argv := append([]string{"env", "HOSTFALL_DATA=" + t.TempDir()},
		p.Argv("start", "/wait", "/unix", exe, "sim", "--players", "2", "--seed", "3", "--size", "48", "--turns", "200", "--status-json")...)
	var quoted []string
	for _, a := range argv {
		quoted = append(quoted, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
	}
	start := time.Now()
	out, err := exec.Command("script", "-qec", strings.Join(quoted, " "), "/dev/null").CombinedOutput()
	if err != nil {
		t.Fatalf("the sim started from a console: %v\n%s", err, out)
	}
	turns, ends := consoleLines(string(out))
	if turns == 0 || ends != 1 {
		t.Fatalf("the console showed %d turn lines and %d end lines, want some and one:\n%q", turns, ends, out)
	}
	t.Logf("the console showed %d turn lines and the end line (%v)", turns, time.Since(start).Round(10*time.Millisecond))
}

// subsystem is the PE subsystem of exe (2 GUI, 3 console).
func subsystem(t *testing.T, exe string) uint16 {
	t.Helper()
	f, err := pe.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	oh, ok := f.OptionalHeader.(*pe.OptionalHeader64)
	if !ok {
		t.Fatalf("%s is not a 64-bit PE", exe)
	}
	return oh.Subsystem
}

// consoleLines counts the status lines of kinds turn and end in a
// terminal's output. Wine's console adds cursor escapes around each line and
// wraps long lines at the terminal's width (CR CR LF inside a line); a status
// line holds no raw line break, so with the escapes and every CR and LF
// removed the output is the lines' JSON objects one after another.
func consoleLines(out string) (turns, ends int) {
	flat := strings.NewReplacer("\r", "", "\n", "").Replace(escapes.ReplaceAllString(out, ""))
	dec := json.NewDecoder(strings.NewReader(flat))
	for {
		var l struct {
			Ev string `json:"ev"`
		}
		if dec.Decode(&l) != nil {
			return turns, ends
		}
		switch l.Ev {
		case "turn":
			turns++
		case "end":
			ends++
		}
	}
}

// escapes are a terminal's control sequences (ESC [ … letter).
var escapes = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)

// What Wine's console made of two status lines on an 80-column terminal:
// cursor escapes around each, the long one wrapped.
func TestConsoleLines(t *testing.T) {
	out := "\x1b[?25l{\"ev\":\"turn\",\"turn\":200,\"hash\":\"5adbd760b3754042\"}\r\r\n\x1b[?25h" +
		"\x1b[?25l{\"ev\":\"end\",\"turn\":200,\"hash\":\"5adbd760b3754042\",\"winner\":null,\"reason\":\"turn li\r\r\nmit\"}\x1b[K\r\r\n\x1b[?25h"
	if turns, ends := consoleLines(out); turns != 1 || ends != 1 {
		t.Fatalf("read %d turn and %d end lines, want 1 and 1", turns, ends)
	}
}
