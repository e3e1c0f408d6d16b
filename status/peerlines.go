package status

import (
	"fmt"
	"math"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/client"
	"hostfall/client/network"
	"hostfall/game"
	"hostfall/p2p/codes"
	"hostfall/p2p/transport"
	"hostfall/session"
)

// PeerLines turns a network peer's events, and the files its client wrote, into
// the contract's lines (app hooks its methods to the client's reports).
// Call Event from one goroutine (the client's pump).
type PeerLines struct {
	Line  *Line
	Ended bool // the end line is out: the lines after it are not the game's
}

// Found says the host was found, and how long that took.
func (ps *PeerLines) Found(h transport.AddrInfo, took time.Duration) {
	ps.Line.Emit("found", "found the host "+h.ID.String(), KV("host", h.ID.String()), KV("ms", took.Milliseconds()))
}

// Path says how peer p is reached: through a relay or directly.
func (ps *PeerLines) Path(p peer.ID, k transport.PathKind) {
	text := fmt.Sprintf("%s: connected through a relay — trying to go direct", p)
	if k == transport.PathDirect {
		text = fmt.Sprintf("%s: direct", p)
	}
	ps.Line.Emit("path", text, KV("peer", p.String()), KV("path", k.String()))
}

// Invite gives the invite code friends join with.
func (ps *PeerLines) Invite(code, relay string) {
	ps.Line.Emit("invite", "friends join with: hostfall join --headless --invite "+code, KV("code", code), KV("relay", relay))
}

// RelayCode gives the short code friends on the same relay join with.
func (ps *PeerLines) RelayCode(code, relay string) {
	ps.Line.Emit("relay_code", "friends on the same relay join with: hostfall join --headless --relay "+relay+" --invite "+code,
		KV("code", code), KV("relay", relay))
}

// Circuit prints a path line each time a relay that limits its circuits (a
// public one) carries the game to p on a fresh circuit: renewed before the
// limit, or right after the relay cut the last one.
func (ps *PeerLines) Circuit(c transport.CircuitRenewal) {
	how := "renewed before its limit"
	if !c.Planned {
		how = "ended by the relay, replaced"
	}
	text := fmt.Sprintf("%s: relay circuit %s (%d so far; the game waited %d ms)", c.Peer, how, c.Count, c.Gap.Milliseconds())
	ps.Line.Emit("path", text, KV("peer", c.Peer.String()), KV("path", transport.PathRelayed.String()), KV("limited", true),
		KV("renewed", c.Count), KV("planned", c.Planned), KV("gap_ms", c.Gap.Milliseconds()))
}

// Internet returns the printer of internet play's steps, each change once.
func (ps *PeerLines) Internet() func(codes.Progress) {
	s := ps.Line
	var last atomic.Pointer[codes.Progress]
	return func(p codes.Progress) {
		if old := last.Swap(&p); old != nil && *old == p {
			return
		}
		var text string
		switch p.Step {
		case "publishing":
			text = fmt.Sprintf("publishing your game… (%d relays)", p.Relays)
		case "published":
			text = fmt.Sprintf("your game is published as %s (%d relays, %d ways in through players)", p.Code, p.Relays, p.Players)
		case "finding":
			text = fmt.Sprintf("finding %s…", p.Code)
		case "found":
			text = fmt.Sprintf("found %s (%d relay addresses, %d ways in through players)", p.Code, p.Relays, p.Players)
		case "relayed-only":
			text = fmt.Sprintf("no direct path to %s: public relays only introduce players, they do not carry games, and this connection ends within a couple of minutes; to play, use a relay of your own (hostfall relay, then --relay for both), or forward a port to this machine; in a game of three or more, a player who reaches you both relays for you by itself", p.Peer)
		}
		s.Emit("internet", text, KV("step", p.Step), KV("code", p.Code.String()), KV("relays", p.Relays), KV("via", p.Via), KV("direct", p.Direct), KV("players", p.Players), KV("peer", p.Peer))
	}
}

// The trace lines: the network benchmark matches them up by slot and seq
// across processes to measure command latency.

// Proposed is the trace line of a command this peer proposed for its own
// slot at at.
func (ps *PeerLines) Proposed(slot int, seq uint64, at time.Time) {
	ps.Line.Emit("cmd_proposed", "", KV("slot", slot), KV("seq", seq), KV("us", at.UnixMicro()))
}

// Applied is the trace line of every command of turn t, applied at at.
func (ps *PeerLines) Applied(t session.Turn, at time.Time) {
	for _, c := range t.Commands {
		ps.Line.Emit("cmd_applied", "", KV("slot", c.Slot), KV("seq", c.Seq), KV("turn", t.Number), KV("us", at.UnixMicro()))
	}
}

// Traffic is the trace line of the session's frame bytes a second, in and
// out, all peers, at turn.
func (ps *PeerLines) Traffic(turn uint64, in, out float64) {
	ps.Line.Emit("traffic", "", KV("turn", turn), KV("in", int64(in)), KV("out", int64(out)))
}

// Listening says where a peer listens (what `join --addr` takes).
func Listening(s *Line, ai transport.AddrInfo) {
	var addrs []string
	for _, a := range ai.Addrs {
		addrs = append(addrs, a.String())
	}
	text := fmt.Sprintf("peer %s listening on:\n  %s", ai.ID, strings.Join(addrs, "\n  "))
	s.Emit("listening", text, KV("peer", ai.ID.String()), KV("addrs", addrs))
}

// Auto says which --auto peer on the LAN hosts: this one, or id whose
// lobby this one joins.
func Auto(s *Line, host bool, id peer.ID) {
	if host {
		s.Emit("auto", "no --auto lobby on the LAN: this peer hosts one", KV("role", "host"), KV("host", id.String()))
	} else {
		s.Emit("auto", "joining the --auto lobby of "+id.String(), KV("role", "join"), KV("host", id.String()))
	}
}

// Resuming says which save a host resumes and whom it waits for.
func Resuming(s *Line, path string, turn, hash uint64, l session.Lobby) {
	players := savedPlayers(l)
	s.Emit("resume", fmt.Sprintf("resuming %s after turn %d; waiting for %s", path, turn, players),
		KV("path", path), KV("turn", turn), KV("hash", Hex64(hash)), KV("players", players))
}

// savedPlayers names a save's human players.
func savedPlayers(l session.Lobby) string {
	var names []string
	for _, s := range l.Slots {
		if s.Kind == session.SlotHuman {
			names = append(names, s.Name)
		}
	}
	return strings.Join(names, ", ")
}

// Event prints ev's line, if it has one, and reports whether ev ended the
// game. st is the reporting peer's status when it reported ev (the start
// line's slot and host, the end line's stall): a printer gets values, never
// the peer.
func (ps *PeerLines) Event(st network.Status, ev network.Event) bool {
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
		s.Emit("start", fmt.Sprintf("the game starts; this peer plays slot %d", st.Slot), KV("slot", st.Slot), KV("host", st.Host.String()))
	case network.EvTurn:
		s.Turn(ev.Turn, ev.Epoch, ev.Host.String(), ev.Hash)
		if ev.Turn%1000 == 0 && !s.JSON {
			fmt.Fprintf(os.Stderr, "turn %d\n", ev.Turn) // turns go on while paused: no game time
		}
	case network.EvHostChanged:
		s.Emit("host_changed", fmt.Sprintf("the host left; %s hosts now (epoch %d, turn %d, %v)", ev.Host, ev.Epoch, ev.Turn, ev.Took.Round(time.Millisecond)),
			KV("old", ev.OldHost.String()), KV("new", ev.Host.String()), KV("epoch", ev.Epoch), KV("turn", ev.Turn),
			KV("ms", ev.Took.Milliseconds()))
	case network.EvWaiting:
		s.Emit("waiting", client.WaitText(ev.Name, int(math.Round(ev.Left.Seconds()))),
			KV("slot", ev.Slot), KV("name", ev.Name), KV("seconds_left", int(ev.Left.Seconds())))
	case network.EvWaitOver:
		s.Emit("wait_over", "", KV("slot", ev.Slot), KV("name", ev.Name))
	case network.EvPlayerAway:
		s.Emit("player_away", fmt.Sprintf("%s (slot %d) is away from turn %d", ev.Name, ev.Slot, ev.Turn),
			KV("slot", ev.Slot), KV("name", ev.Name), KV("turn", ev.Turn))
	case network.EvPlayerBack:
		s.Emit("player_back", fmt.Sprintf("%s (slot %d) is back from turn %d", ev.Name, ev.Slot, ev.Turn),
			KV("slot", ev.Slot), KV("name", ev.Name), KV("turn", ev.Turn))
	case network.EvPlayerLeft:
		s.Emit("player_left", fmt.Sprintf("%s (slot %d) left at turn %d: %v", ev.Name, ev.Slot, ev.Turn, ev.Reason),
			KV("slot", ev.Slot), KV("name", ev.Name), KV("turn", ev.Turn), KV("reason", ev.Reason.String()))
	case network.EvPaused, network.EvResuming, network.EvResumed:
		ps.pause(ev)
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
		// stall_ms: the longest the peer's loop could not answer; busy_ms
		// the most CPU one pass of its loop took (busy_in: what), late_ms
		// the most of a stall the loop was not run; gc_pause_ms: the process's longest GC pause; slot:
		// this peer's own (-1 a spectator); players: what each player kept.
		s.End(ev.Turn, ev.Time, ev.Hash, win, reason, KV("stall_ms", st.Stall.Milliseconds()),
			KV("busy_ms", st.Busy.Milliseconds()), KV("busy_in", st.BusyIn), KV("late_ms", st.Late.Milliseconds()),
			KV("gc_pause_ms", int64(gcPause()*1000)), KV("slot", st.Slot),
			KV("players", endPlayers(ev.Players)))
		ps.Ended = true
		return true
	}
	return false
}

// pause prints the paused, resuming and resumed lines: by is the name of
// the player who paused (or resumed), slot its lobby slot.
func (ps *PeerLines) pause(ev network.Event) {
	s, by := ps.Line, KV("by", ev.Name)
	switch ev.Kind {
	case network.EvPaused:
		left := "no limit"
		if ev.Count >= 0 {
			left = fmt.Sprintf("%d left", ev.Count)
		}
		s.Emit("paused", fmt.Sprintf("%s paused the game at turn %d (%s)", ev.Name, ev.Turn, left),
			by, KV("slot", ev.Slot), KV("turn", ev.Turn), KV("left", ev.Count))
	case network.EvResuming:
		s.Emit("resuming", fmt.Sprintf("%s resumes the game: it goes on in %d turns", ev.Name, ev.Count),
			by, KV("slot", ev.Slot), KV("turn", ev.Turn), KV("turns", ev.Count))
	case network.EvResumed:
		s.Emit("resumed", fmt.Sprintf("the game goes on from turn %d", ev.Turn), by, KV("slot", ev.Slot), KV("turn", ev.Turn))
	}
}

// EndPlayer is one player of the end line: its lobby slot, the units and
// buildings it has at the end, and whether it is out of the game.
type EndPlayer struct {
	Slot      int  `json:"slot"`
	Units     int  `json:"units"`
	Buildings int  `json:"buildings"`
	Out       bool `json:"out"`
}

func endPlayers(ps []network.EndPlayer) []EndPlayer {
	out := []EndPlayer{}
	for _, p := range ps {
		out = append(out, EndPlayer{Slot: p.Slot, Units: p.Units, Buildings: p.Buildings, Out: p.Out})
	}
	return out
}

func (ps *PeerLines) desync(ev network.Event) {
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
func (ps *PeerLines) File(f network.File) {
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
func (ps *PeerLines) echo(text string) {
	if ps.Line.JSON {
		fmt.Fprintln(os.Stderr, text)
	}
}
