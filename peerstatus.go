package main

import (
	"fmt"
	"os"
	"time"

	"hostfall/game"
	"hostfall/client/network"
)

// peerStatus turns a network peer's events into the status lines of the
// operating contract. Headless peers (netGame) and window peers (the
// client/network's event tap) share it, so both print the same lines.
type peerStatus struct {
	line  *statusLine
	ended bool // the end line is out: the lines after it are not the game's
}

// event prints ev's line, if it has one, and reports whether ev ended the
// game. p is the peer that reported it.
func (ps *peerStatus) event(p *network.Peer, ev network.Event) bool {
	if ps.ended {
		return false
	}
	s := ps.line
	switch ev.Kind {
	case network.EvJoined:
		s.emit("joined", fmt.Sprintf("joined the session in slot %d", ev.Slot), kv("slot", ev.Slot))
	case network.EvCountdown:
		s.emit("countdown", fmt.Sprintf("starting in %d…", ev.Count), kv("count", ev.Count))
	case network.EvGameStarted:
		st := p.Status()
		s.emit("start", fmt.Sprintf("the game starts; this peer plays slot %d", st.Slot), kv("slot", st.Slot), kv("host", st.Host.String()))
	case network.EvTurn:
		s.turn(ev.Turn, ev.Epoch, ev.Host.String(), ev.Hash)
		if ev.Turn%1000 == 0 && !s.json {
			fmt.Fprintf(os.Stderr, "turn %d (%s of game time)\n", ev.Turn, gameTime(int(ev.Turn)))
		}
	case network.EvHostChanged:
		s.emit("host_changed", fmt.Sprintf("the host left; %s hosts now (epoch %d, turn %d, %v)", ev.Host, ev.Epoch, ev.Turn, ev.Took.Round(time.Millisecond)),
			kv("old", ev.OldHost.String()), kv("new", ev.Host.String()), kv("epoch", ev.Epoch), kv("turn", ev.Turn),
			kv("ms", ev.Took.Milliseconds()))
	case network.EvWaiting:
		s.emit("waiting", fmt.Sprintf("waiting for %s; dropped in %.0f s", ev.Name, ev.Left.Seconds()),
			kv("slot", ev.Slot), kv("name", ev.Name), kv("seconds_left", int(ev.Left.Seconds())))
	case network.EvWaitOver:
		s.emit("wait_over", "", kv("slot", ev.Slot), kv("name", ev.Name))
	case network.EvPlayerLeft:
		s.emit("player_left", fmt.Sprintf("%s (slot %d) left at turn %d: %v", ev.Name, ev.Slot, ev.Turn, ev.Reason),
			kv("slot", ev.Slot), kv("name", ev.Name), kv("turn", ev.Turn), kv("reason", ev.Reason.String()))
	case network.EvDesync:
		hashes := map[string]string{}
		var majority uint64
		if ev.Desync != nil {
			majority = ev.Desync.Majority
			for _, h := range ev.Desync.Hashes {
				hashes[string(h.Peer)] = hex64(h.Hash)
			}
		}
		s.emit("desync", fmt.Sprintf("the peers' states differed at turn %d; repairing", ev.Turn),
			kv("turn", ev.Turn), kv("majority", hex64(majority)), kv("hashes", hashes))
	case network.EvDesyncRepaired:
		s.emit("desync_repaired", fmt.Sprintf("restored the majority's state of turn %d", ev.Turn), kv("turn", ev.Turn))
	case network.EvEnd:
		var win *winnerJSON
		reason := "turn limit"
		if ev.Winner >= 0 {
			win = winnerOf(game.Team(ev.Winner), ev.Winners)
			reason = "victory"
		}
		// stall_ms: the longest the peer's loop could not answer.
		s.end(ev.Turn, ev.Hash, win, reason, kv("stall_ms", p.Status().Stall.Milliseconds()))
		ps.ended = true
		return true
	}
	return false
}

// replay says where the game's replay was saved.
func (ps *peerStatus) replay(path string) {
	ps.line.emit("replay", "replay saved to "+path, kv("path", path))
	if ps.line.json {
		fmt.Fprintln(os.Stderr, "replay saved to "+path)
	}
}
