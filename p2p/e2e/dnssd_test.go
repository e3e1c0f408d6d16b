package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"hostfall/internal/netns"
)

// avahiScript runs a private D-Bus system bus and avahi-daemon inside the
// namespace (in the mount namespace `ip netns exec` makes, so their sockets
// and pid files never meet the machine's), then browses and resolves
// Hostfall sessions with avahi-browse in its parsable format. A private
// /run holds their directories: on a fresh machine /run/avahi-daemon does
// not exist until the system's avahi-daemon has run once.
const avahiScript = `set -e
mount -t tmpfs hflan /run
mkdir -p /run/dbus /run/avahi-daemon
dbus-daemon --system --fork --nopidfile
avahi-daemon --no-chroot --no-drop-root --no-rlimits --no-proc-title -f "$1" >"$2" 2>&1 &
for i in $(seq 50); do avahi-browse -at -p >/dev/null 2>&1 && break; sleep 0.1; done
for i in 1 2 3 4 5; do
  out=$(timeout 10 avahi-browse -rtp _hostfall._udp || true)
  case "$out" in *"
="*|"="*) break;; esac
  sleep 0.5
done
printf '%s\n' "$out"
`

const avahiConf = `[server]
use-ipv4=yes
use-ipv6=no
allow-interfaces=hflan0
ratelimit-interval-usec=1000000
ratelimit-burst=1000
[wide-area]
enable-wide-area=no
[publish]
disable-publishing=yes
`

// A standard DNS-SD reader (avahi-browse, through avahi-daemon) finds and
// resolves a session a headless host advertises: service type, instance,
// address, port and TXT record.
func TestDNSSDAvahi(t *testing.T) {
	for _, tool := range []string{"avahi-browse", "avahi-daemon", "dbus-daemon"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (scripts/deps.sh installs avahi-utils, avahi-daemon and dbus-daemon): the DNS-SD check with a standard reader is skipped", tool)
		}
	}
	w, reader, id := advertisedLobby(t, "10.65.0", "DNS-SD check", "avahi")
	conf := filepath.Join(w.dir, "avahi.conf")
	w.must(os.WriteFile(conf, []byte(avahiConf), 0o644))
	cmd := reader.Command("sh", "-c", avahiScript, "avahi", conf, filepath.Join(w.dir, "avahi.log"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(w.dir, "avahi.log"))
		t.Fatalf("avahi-browse: %v\n%s\navahi-daemon:\n%s", err, out, log)
	}
	t.Logf("avahi-browse -rtp _hostfall._udp:\n%s", out)
	var resolved []string
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "=") {
			resolved = append(resolved, line)
		}
	}
	if len(resolved) == 0 {
		log, _ := os.ReadFile(filepath.Join(w.dir, "avahi.log"))
		t.Fatalf("avahi resolved no _hostfall._udp service\navahi-daemon:\n%s", log)
	}
	// =;iface;IPv4;instance;type;domain;hostname;address;port;"txt" "txt"…
	f := strings.SplitN(resolved[0], ";", 10)
	if len(f) < 10 {
		t.Fatalf("avahi-browse line has %d fields: %q", len(f), resolved[0])
	}
	want := map[string]string{"type": "_hostfall._udp", "domain": "local", "address": "10.65.0.1"}
	got := map[string]string{"type": f[4], "domain": f[5], "address": f[7]}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s is %q, want %q", k, got[k], v)
		}
	}
	if inst := unescapeAvahi(f[3]); !strings.HasPrefix(inst, "DNS-SD check") {
		t.Errorf("instance %q does not carry the session name", inst)
	}
	for _, kv := range []string{`"name=DNS-SD check"`, `"peer=` + id + `"`, `"state=lobby"`, `"txtvers=1"`, `"max=2"`} {
		if !strings.Contains(f[9], kv) {
			t.Errorf("TXT record lacks %s: %s", kv, f[9])
		}
	}
}

// advertisedLobby starts a headless host of session in a namespace on the
// switch of prefix (its address prefix.1) and waits until it advertises
// its lobby; it returns the world, the namespace of the reader (named
// reader) on the same switch, and the host's peer ID.
func advertisedLobby(t *testing.T, prefix, session, reader string) (*world, *netns.NS, string) {
	t.Helper()
	w := newWorld(t)
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	_, spaces := w.lan(prefix, "host", reader)
	host := w.run(spaces[0], "host", hostArgs(session, 2, 100)...)
	id := w.waitEv(ctx, host, "listening").Str("peer")
	w.waitEv(ctx, host, "joined")
	return w, spaces[1], id
}

// unescapeAvahi undoes avahi-browse -p's escapes of instance names: \DDD
// (a decimal byte) and \c (the character c).
func unescapeAvahi(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		if i+3 < len(s) {
			if n, err := strconv.Atoi(s[i+1 : i+4]); err == nil && n < 256 {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i+1])
		i++
	}
	return b.String()
}

// zeroconfScript is the python-zeroconf browser the next test runs.
const zeroconfScript = "testdata/zeroconf_browse.py"

// python-zeroconf, a second DNS-SD reader that is not ours (pure Python,
// with its own cache and resolver), browses and resolves the session a
// headless host advertises: the type, the address, the SRV port and the
// TXT keys, as avahi does above.
func TestDNSSDZeroconf(t *testing.T) {
	const python = "/usr/bin/python3" // Debian's python3-zeroconf belongs to it
	if err := exec.Command(python, "-c", "import zeroconf").Run(); err != nil {
		t.Skipf("%s cannot import zeroconf (scripts/deps.sh --test installs python3-zeroconf): the DNS-SD check with python-zeroconf is skipped", python)
	}
	script, err := filepath.Abs(zeroconfScript)
	if err != nil {
		t.Fatal(err)
	}
	_, reader, id := advertisedLobby(t, "10.69.0", "zeroconf check", "zeroconf")
	out, err := reader.Command(python, script, "20").CombinedOutput()
	t.Logf("python-zeroconf:\n%s", out)
	if err != nil {
		t.Fatalf("python-zeroconf: %v", err)
	}
	var got struct {
		Name      string            `json:"name"`
		Addresses []string          `json:"addresses"`
		Port      int               `json:"port"`
		TXT       map[string]string `json:"txt"`
	}
	first, _, _ := strings.Cut(string(out), "\n")
	if err := json.Unmarshal([]byte(first), &got); err != nil {
		t.Fatalf("python-zeroconf resolved no _hostfall._udp service (%v)", err)
	}
	if !strings.HasPrefix(got.Name, "zeroconf check") || !strings.HasSuffix(got.Name, "._hostfall._udp.local.") {
		t.Errorf("instance %q does not carry the session name and type", got.Name)
	}
	if !slices.Contains(got.Addresses, "10.69.0.1") || got.Port <= 0 {
		t.Errorf("resolved to %v port %d, want 10.69.0.1 and the host's port", got.Addresses, got.Port)
	}
	for k, v := range map[string]string{"name": "zeroconf check", "peer": id, "state": "lobby", "txtvers": "1", "max": "2"} {
		if got.TXT[k] != v {
			t.Errorf("TXT %s is %q, want %q", k, got.TXT[k], v)
		}
	}
}
