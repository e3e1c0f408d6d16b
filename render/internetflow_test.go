package render

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hostfall/client/network"
	"hostfall/internal/codeform"
	"hostfall/internal/dhtlab"
	"hostfall/p2p/codes"
	"hostfall/p2p/transport"
	"hostfall/render/ui"
	"hostfall/session"
)

// Two windows on the network client as the window starts it (internet play
// when asked), on a DHT of loopback servers standing in for the public
// network: Ann ticks "Internet game" and creates; her lobby shows the short
// code once it is published. Bo types the code into his browser's code
// field and presses Enter: his client goes on the network, finds the code
// and joins Ann's lobby. No test traffic leaves loopback.
func TestNetInternetWindows(t *testing.T) {
	testWindow(t) // skip early without a display
	transport.RouteLibp2pLogs(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError + 4}))
	boot := dhtlab.Loopback(t, 8)
	ann := askedClient(t, "ann", boot[:2])
	bo := askedClient(t, "bo", boot[5:6])
	ha := newHarness(t, ann)
	hb := newHarnessAs(t, bo, "Bo")

	liveFrame(ha, nil)
	lay := &ha.a.browser.lay
	liveFrame(ha, func(in *ui.Input) { in.Click(ui.MouseLeft, lay.internet.Center()) })
	liveFrame(ha, func(in *ui.Input) { in.Click(ui.MouseLeft, lay.createBtn.Center()) })
	framesUntil(t, "Ann's lobby with a short code", func() bool { return ha.a.screen == scrLobby && ha.a.lobby.v.short }, ha)
	code := ann.Status().Invite
	if !codeform.IsShort(code) {
		t.Fatalf("Ann's lobby offers %q", code)
	}
	img := liveShot(t, ha, "internet-lobby-host")
	x := 32 + ha.a.text[fontSmall].width("Invite code") + 12
	if n := count(img, ui.XYWH(x, 86, ha.a.text[fontTitle].width(code), 28), like(rgb8(colAccent), 40)); n < 300 {
		t.Errorf("Ann's short code has %d pixels of its big letters", n)
	}

	bl := &hb.a.browser.lay
	liveFrame(hb, func(in *ui.Input) { in.Click(ui.MouseLeft, bl.code.Center()) })
	liveFrame(hb, func(in *ui.Input) { in.Typed = strings.ToLower(strings.ReplaceAll(code, "-", "")) })
	began := time.Now()
	liveFrame(hb, func(in *ui.Input) { in.Press(ui.KeyEnter) })
	if msg := hb.a.browser.msg; !strings.Contains(msg, "on the internet") && !strings.HasPrefix(msg, "Finding") {
		t.Errorf("after Enter Bo's status line says %q", msg)
	}
	liveShot(t, hb, "internet-browser-finding")
	framesUntil(t, "Bo in Ann's lobby", func() bool { return bo.Slot() == 1 && hb.a.screen == scrLobby }, hb, ha)
	t.Logf("from Enter on the code to Bo's lobby (his client joining the network first): %v", time.Since(began).Round(time.Millisecond))
	framesUntil(t, "Bo in Ann's view of the lobby", func() bool {
		l, _ := ann.Lobby()
		return l.Slots[1].Kind == session.SlotHuman
	}, ha, hb)
	liveShot(t, hb, "internet-lobby-guest")
	liveShot(t, ha, "internet-lobby-host-bo")
}

// askedClient is the window's network client (Wiring.InternetWhenAsked)
// on loopback, with boot for the public network's bootstrap peers.
func askedClient(t *testing.T, name string, boot []transport.AddrInfo) *network.Client {
	t.Helper()
	dir := t.TempDir()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	wi := network.Wiring{IdentityPath: filepath.Join(dir, name+".key"), Listen: []string{"/ip4/127.0.0.1/tcp/0"},
		InternetWhenAsked: &codes.InternetConfig{Bootstrap: boot, RelayWait: 200 * time.Millisecond}}
	c, err := network.Start(t.Context(), wi, network.Options{GameVersion: "render-test", Logger: log,
		Session: session.Config{CountdownTicks: 2}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
