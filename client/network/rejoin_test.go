package network

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"

	"hostfall/client"
	"hostfall/game"
	"hostfall/internal/testwait"
	"hostfall/p2p/transport"
	"hostfall/session"
)

// player is a client that keeps the record of its last game in dir, on a
// host of identity key (restarted with the same key and dir, it is the
// same player).
func player(t *testing.T, name string, key crypto.PrivKey, dir string, tweak func(*Options)) *tclient {
	t.Helper()
	return newClientOn(t, name, transport.Options{Identity: key}, func(o *Options) {
		o.LastGameDir = dir
		if tweak != nil {
			tweak(o)
		}
	})
}

func newKey(t *testing.T) crypto.PrivKey {
	t.Helper()
	k, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// crash stops c the way a killed process stops: its host goes first, so
// no goodbye leaves, and the record of its game stays behind.
func (c *tclient) crash() {
	s := c.current()
	_ = c.opt.Host.Close()
	if s != nil {
		s.peer.Abandon()
		s.cancel()
		<-s.done
	}
}

// record reads c's record of its last game (nil when there is none).
func (c *tclient) record() *LastGame {
	g, err := ReadLastGame(c.opt.LastGameDir, c.opt.Host.ID())
	if err != nil {
		return nil
	}
	return g
}

// gameOfThree has Ann host a game that Bo and Cy join from a LAN browser,
// under way once it returns; each keeps its record in a directory of its own.
func gameOfThree(t *testing.T, cyKey crypto.PrivKey, cyDir string) (ann, bo, cy *tclient) {
	t.Helper()
	lan := &Static{}
	ann = player(t, "Ann", newKey(t), t.TempDir(), nil)
	bo = player(t, "Bo", newKey(t), t.TempDir(), func(o *Options) { o.Browser = lan })
	cy = player(t, "Cy", cyKey, cyDir, func(o *Options) { o.Browser = lan })
	if err := ann.Create(client.CreateOptions{Name: "rejoin", PlayerName: "Ann", MaxPlayers: 3, MapSeed: 5, MapSize: 64}); err != nil {
		t.Fatal(err)
	}
	list(t, lan, ann, "r")
	for _, c := range []*tclient{bo, cy} {
		if err := c.Join("r", client.JoinOptions{PlayerName: c.name}); err != nil {
			t.Fatal(err)
		}
		testwait.For(t, c.name+" in the lobby", 10*time.Second, func() bool { return c.Slot() > 0 })
		if err := c.EditSlot(session.SlotEdit{Name: c.name, Ready: true}); err != nil {
			t.Fatal(err)
		}
	}
	testwait.For(t, "everyone ready", 5*time.Second, func() bool { return readyHumans(ptr(ann.lobby())) == 3 })
	if err := ann.Start(); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "the game on all three", 15*time.Second, func() bool { return ann.turn() > 0 && bo.turn() > 0 && cy.turn() > 0 })
	return ann, bo, cy
}

// A player's process dies mid-game and starts again with the same identity
// and data: the record of its game names the game, its host, its players
// with their addresses and its slot. Rejoin asks the player the record
// names as host, a member that is not the host (the record is older than
// a host change, as if), which names Ann; Ann takes Cy back into its own
// slot with the game as it is now, Cy's orders execute again, the record
// names the right host once more, and again after the host's process dies
// and Bo takes over; leaving removes it.
func TestRejoinTakesTheSlotBack(t *testing.T) {
	t.Parallel() // real-time game on loopback, mostly idle
	cyKey, cyDir := newKey(t), t.TempDir()
	ann, bo, cy := gameOfThree(t, cyKey, cyDir)
	annID, boID := ann.opt.Host.ID(), bo.opt.Host.ID()

	var rec *LastGame
	testwait.For(t, "Cy's record of the game, with the others' addresses", 10*time.Second, func() bool {
		rec = cy.record()
		return rec != nil && len(rec.Members) == 3 && len(rec.member(annID).Addrs) > 0 && len(rec.member(boID).Addrs) > 0
	})
	slot := cy.Slot()
	me, _ := cy.Me()
	if rec.Session != "rejoin" || rec.Host != annID || rec.Slot != slot || rec.Self != cy.opt.Host.ID() || rec.Name != "Cy" {
		t.Fatalf("Cy's record: %+v", rec)
	}
	if ann.record() == nil || bo.record() == nil {
		t.Error("the host or Bo keeps no record of the game")
	}

	cy.crash()
	rec.Host = boID // the record of a host Cy no longer knows to be the host
	if err := WriteLastGame(cyDir, rec); err != nil {
		t.Fatal(err)
	}
	cy = player(t, "Cy", cyKey, cyDir, nil)
	g, err := cy.LastGame()
	if err != nil || g.Name != "rejoin" || !slices.Equal(g.Players, []string{"Ann", "Bo"}) {
		t.Fatalf("the restarted Cy's last game: %+v, %v", g, err)
	}
	began := time.Now()
	if err := cy.Rejoin(client.JoinOptions{}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "Cy back in its slot, caught up", 20*time.Second, func() bool {
		st := cy.Rejoining()
		return cy.Slot() == slot && st.Joined && !st.Active && cy.turn() > 0
	})
	t.Logf("Cy is back in slot %d at turn %d (Ann at %d) %v after asking", slot, cy.turn(), ann.turn(), time.Since(began).Round(time.Millisecond))
	if got, ok := cy.Me(); !ok || got != me {
		t.Fatalf("Cy plays game player %d %v, want %d", got, ok, me)
	}
	if st := cy.Status(); st.Host != "Ann" {
		t.Errorf("Cy's host is %q, want Ann", st.Host)
	}

	// An order of Cy's executes on Ann's side.
	var worker game.UnitID
	cy.View(func(w *game.World, _ time.Time) {
		us := w.Units()
		for i := range us.Len() {
			if us.Alive(i) && us.Owner(i) == me && us.Kind(i) == game.Worker {
				worker = us.ID(i)
			}
		}
	})
	if err := cy.Propose(game.Command{Player: me, Kind: game.CmdMove, Units: []game.UnitID{worker}, X: 2, Y: 2}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "Cy's order on Ann's side", 10*time.Second, func() bool {
		moving := false
		ann.View(func(w *game.World, _ time.Time) {
			if s, ok := w.Units().Slot(worker); ok {
				moving = w.Units().Order(s) == game.OrderMove
			}
		})
		return moving
	})
	testwait.For(t, "Cy's record naming Ann as host again", 10*time.Second, func() bool {
		r := cy.record()
		return r != nil && r.Host == annID
	})

	// The host's process dies too: the game goes on under a new host, and
	// both records name it. Bo is first in line, but on a starved machine
	// Cy may win the election first: the protocol allows either, so the
	// test asserts one host in both records and reports who.
	ann.crash()
	crashed := time.Now()
	testwait.For(t, "the records naming one new host after the migration", 30*time.Second, func() bool {
		rb, rc := bo.record(), cy.record()
		return rb != nil && rc != nil && rb.Host != annID && rb.Host == rc.Host
	})
	who := "Bo"
	if bo.record().Host != boID {
		who = "Cy"
	}
	t.Logf("FIGURE both records name %s as host %v after Ann's crash", who, time.Since(crashed).Round(time.Millisecond))
	cy.Leave()
	testwait.For(t, "Cy's record gone once it left", 5*time.Second, func() bool { return cy.record() == nil })
	if _, err := cy.LastGame(); !errors.Is(err, ErrNoLastGame) {
		t.Errorf("after leaving, LastGame: %v", err)
	}
}

// The record goes when the game ends: nobody is left to rejoin it with.
func TestRecordEndsWithTheGame(t *testing.T) {
	t.Parallel() // real-time game on loopback, mostly idle
	lan := &Static{}
	ann := player(t, "Ann", newKey(t), t.TempDir(), func(o *Options) { o.TurnLimit = 60 })
	bo := player(t, "Bo", newKey(t), t.TempDir(), func(o *Options) { o.Browser = lan; o.ReadyOnJoin = true })
	if err := ann.Create(client.CreateOptions{Name: "short", PlayerName: "Ann", MaxPlayers: 2, MapSeed: 3, MapSize: 64}); err != nil {
		t.Fatal(err)
	}
	list(t, lan, ann, "s")
	if err := bo.Join("s", client.JoinOptions{PlayerName: "Bo"}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "Bo ready", 10*time.Second, func() bool { return readyHumans(ptr(ann.lobby())) == 2 })
	if sl := ann.lobby().Slots[1]; sl.Color != 1 || sl.Name != "Bo" {
		t.Errorf("Bo, ready on joining, is %q in colour %d; want Bo in the slot's colour 1 (not the host's)", sl.Name, sl.Color)
	}
	if err := ann.Start(); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "both records", 15*time.Second, func() bool { return ann.record() != nil && bo.record() != nil })
	testwait.For(t, "the end of the game", 20*time.Second, func() bool { return ann.turn() == 60 && bo.turn() == 60 })
	testwait.For(t, "no record left", 5*time.Second, func() bool { return ann.record() == nil && bo.record() == nil })
}

// Without a record there is nothing to rejoin; a damaged record says so;
// when nobody of the game answers, the player is told in a sentence and
// the record stays for another try.
func TestRejoinWithoutTheGame(t *testing.T) {
	t.Parallel() // real-time game on loopback, mostly idle
	key, dir := newKey(t), t.TempDir()
	c := player(t, "Cy", key, dir, func(o *Options) { o.RejoinTimeout = 1500 * time.Millisecond })
	if err := c.Rejoin(client.JoinOptions{}); !errors.Is(err, ErrNoLastGame) {
		t.Fatalf("with no record: %v", err)
	}
	self := c.opt.Host.ID()
	path := filepath.Join(dir, self.String()+".json")
	if err := os.WriteFile(path, []byte(`{"version":1,"session":`), 0o600); err != nil {
		t.Fatal(err)
	}
	c.ForgetLastGame() // drops what was read; the damaged file goes too
	if err := os.WriteFile(path, []byte(`{"version":1,"session":`), 0o600); err != nil {
		t.Fatal(err)
	}
	c2 := player(t, "Cy", key, dir, func(o *Options) { o.RejoinTimeout = 1500 * time.Millisecond })
	_ = c.opt.Host.Close()
	if err := c2.Rejoin(client.JoinOptions{}); !errors.Is(err, ErrBadLastGame) || !strings.Contains(err.Error(), path) {
		t.Fatalf("with a damaged record: %v", err)
	}

	// A record of a game whose players are all gone.
	gone := newClient(t, "Ann", nil)
	ghost := gone.opt.Host.AddrInfo()
	_ = gone.opt.Host.Close()
	rec := &LastGame{Version: lastGameVersion, Session: "gone", Self: self, Name: "Cy", Slot: 1, Host: ghost.ID,
		Members: []LastMember{{Peer: ghost.ID, Name: "Ann", Slot: 0, Addrs: ghost.Addrs}, {Peer: self, Name: "Cy", Slot: 1}}}
	if err := WriteLastGame(dir, rec); err != nil {
		t.Fatal(err)
	}
	c3 := player(t, "Cy", key, dir, func(o *Options) { o.RejoinTimeout = 1500 * time.Millisecond })
	_ = c2.opt.Host.Close()
	if err := c3.Rejoin(client.JoinOptions{}); err != nil {
		t.Fatal(err)
	}
	if st := c3.Rejoining(); !st.Active || st.Game != "gone" || !strings.Contains(st.Text, "Rejoining gone") {
		t.Errorf("while asking: %+v", st)
	}
	e := c3.await("the refusal", 10*time.Second, client.EvRefused, nil)
	// A game of two: "its other player was asked" (play-test of issue 29:
	// "(1 player of it were asked…)").
	if !strings.Contains(e.Text, "Nobody in \"gone\" answered") || !strings.Contains(e.Text, "its other player was asked") {
		t.Errorf("the refusal says %q", e.Text)
	}
	if c3.record() == nil {
		t.Error("the record went with a rejoin that found nobody")
	}
	if _, ok := c3.Lobby(); ok || c3.Rejoining().Active {
		t.Error("still in a session after the rejoin failed")
	}
}

func ptr[T any](v T) *T { return &v }
