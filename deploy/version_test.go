package deploy

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"hostfall/game"
	"hostfall/session"
)

// versionOf runs a build's `version --json` and decodes it.
func versionOf(t *testing.T, what string, cmd *exec.Cmd) map[string]any {
	t.Helper()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", what, cmd.Args, err, out)
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%s: version --json printed %q: %v", what, out, err)
	}
	return v
}

// The recipe's binary says which release and commit it is (stamped by
// scripts/build.sh from scripts/version.sh and git), which Go built it,
// and the versions peers must share; `--version` prints the same text as
// `version`.
func TestVersionIsStamped(t *testing.T) {
	t.Parallel()
	bin := server(t, "amd64")
	want := map[string]any{
		"version":  strings.TrimSpace(run(t, "../scripts/version.sh")),
		"commit":   strings.TrimSpace(run(t, "git", "rev-parse", "HEAD")),
		"go":       strings.TrimSpace(run(t, "go", "env", "GOVERSION")),
		"platform": "linux/amd64",
		"build":    "server",
		"protocol": float64(session.ProtocolVersion),
		"rules":    float64(game.RulesVersion),
	}
	got := versionOf(t, "linux/amd64", exec.Command(bin, "version", "--json"))
	for k, w := range want {
		if got[k] != w {
			t.Errorf("version --json: %s is %v, want %v", k, got[k], w)
		}
	}
	text, long := run(t, bin, "version"), run(t, bin, "--version")
	if text != long {
		t.Errorf("--version printed %q, version %q", long, text)
	}
	for _, w := range []string{want["version"].(string), want["commit"].(string), want["go"].(string), "protocol", "rules"} {
		if !strings.Contains(text, w) {
			t.Errorf("version's text does not name %q:\n%s", w, text)
		}
	}
	t.Logf("version: %s", strings.ReplaceAll(strings.TrimSpace(text), "\n", " | "))
}

func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).Output()
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return string(out)
}
