package status

import (
	"fmt"
	"os"
	"strings"
	"time"

	"hostfall/client/network"
	"hostfall/game"
	"hostfall/p2p"
)

// Peer turns a network peer's events, and the files its client wrote, into
// the contract's lines. Call Event from one goroutine (the client's pump).
type Peer struct {
	Line  *Line
	Ended bool // the end line is out: the lines after it are not the game's
}

// Listening says where this peer listens (what `join --addr` takes).
func (ps *Peer) Listening(ai p2p.AddrInfo) {
	var addrs []string
	for _, a := range ai.Addrs {
		addrs = append(addrs, a.String())
	}
	text := fmt.Sprintf("peer %s listening on:\n  %s", ai.ID, strings.Join(addrs, "\n  "))
	ps.Line.Emit("listening", text, KV("peer", ai.ID.String()), KV("addrs", addrs))
}

// Event prints ev's line, if it has one, and reports whether ev ended the
// game. p is the peer that reported it.
func (ps *Peer) Event(p *network.Peer, ev network.Event) bool {
	if ps.Ended {
		return false
	}
	s := ps.Line
	switch ev.Kind {
	case network.EvJoined:
		s.Emit("joined", fmt.Sprintf("joined the session in slot %d", ev.Slot), KV("slot", ev.Slot))
	case network.EvCountdown:
		s.Emit("countdown", fmt.Sprintf("starting in %d…", ev.Count), KV("count", ev.Count))
	case network.EvGameStarted:
		st := p.Status()
		s.Emit("start", fmt.Sprintf("the game starts; this peer plays slot %d", st.Slot), KV("slot", st.Slot), KV("host", st.Host.String()))
	case network.EvTurn:
		s.Turn(ev.Turn, ev.Epoch, ev.Host.String(), ev.Hash)
		if ev.Turn%1000 == 0 && !s.JSON {
			fmt.Fprintf(os.Stderr, "turn %d (%s of game time)\n", ev.Turn, GameTime(int(ev.Turn)))
		}
	case network.EvHostChanged:
		s.Emit("host_changed", fmt.Sprintf("the host left; %s hosts now (epoch %d, turn %d, %v)", ev.Host, ev.Epoch, ev.Turn, ev.Took.Round(time.Millisecond)),
			KV("old", ev.OldHost.String()), KV("new", ev.Host.String()), KV("epoch", ev.Epoch), KV("turn", ev.Turn),
			KV("ms", ev.Took.Milliseconds()))
	case network.EvWaiting:
		s.Emit("waiting", fmt.Sprintf("waiting for %s; dropped in %.0f s", ev.Name, ev.Left.Seconds()),
			KV("slot", ev.Slot), KV("name", ev.Name), KV("seconds_left", int(ev.Left.Seconds())))
	case network.EvWaitOver:
		s.Emit("wait_over", "", KV("slot", ev.Slot), KV("name", ev.Name))
	case network.EvPlayerLeft:
		s.Emit("player_left", fmt.Sprintf("%s (slot %d) left at turn %d: %v", ev.Name, ev.Slot, ev.Turn, ev.Reason),
			KV("slot", ev.Slot), KV("name", ev.Name), KV("turn", ev.Turn), KV("reason", ev.Reason.String()))
	case network.EvDesync:
		ps.desync(ev)
	case network.EvDesyncRepaired:
		s.Emit("desync_repaired", fmt.Sprintf("restored the majority's state of turn %d", ev.Turn), KV("turn", ev.Turn))
	case network.EvEnd:
		var win *Winner
		reason := "turn limit"
		if ev.Winner >= 0 {
			win = WinnerOf(game.Team(ev.Winner), ev.Winners)
			reason = "victory"
		}
		// stall_ms: the longest the peer's loop could not answer.
		s.End(ev.Turn, ev.Hash, win, reason, KV("stall_ms", p.Status().Stall.Milliseconds()))
		ps.Ended = true
		return true
	}
	return false
}

func (ps *Peer) desync(ev network.Event) {
	hashes := map[string]string{}
	var majority uint64
	if ev.Desync != nil {
		majority = ev.Desync.Majority
		for _, h := range ev.Desync.Hashes {
			hashes[string(h.Peer)] = Hex64(h.Hash)
		}
	}
	ps.Line.Emit("desync", fmt.Sprintf("the peers' states differed at turn %d; repairing", ev.Turn),
		KV("turn", ev.Turn), KV("majority", Hex64(majority)), KV("hashes", hashes))
}

// File says where the client wrote a replay, a desync report or a save
// (or why it did not).
func (ps *Peer) File(f network.File) {
	s := ps.Line
	switch {
	case f.Kind == network.FileReplay && f.Err == nil:
		s.Emit("replay", "replay saved to "+f.Path, KV("path", f.Path))
		ps.echo("replay saved to " + f.Path)
	case f.Kind == network.FileReport && f.Err == nil:
		s.Emit("desync_report", "desync report written to "+f.Path, KV("turn", f.Turn), KV("path", f.Path))
		ps.echo("desync report written to " + f.Path)
	case f.Kind == network.FileSave && f.Err == nil:
		s.Emit("saved", fmt.Sprintf("game saved after turn %d to %s", f.Turn, f.Path),
			KV("turn", f.Turn), KV("hash", Hex64(f.Hash)), KV("path", f.Path))
	case f.Kind == network.FileSave:
		s.Emit("save_failed", f.Err.Error(), KV("turn", f.Turn), KV("error", f.Err.Error()))
	}
}

// echo repeats a file's path on stderr when stdout has the JSON lines: a
// person running a script still learns where it went.
func (ps *Peer) echo(text string) {
	if ps.Line.JSON {
		fmt.Fprintln(os.Stderr, text)
	}
}
