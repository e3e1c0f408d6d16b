package match

import (
	"fmt"
	"io"
	"slices"

	"hostfall/game"
	"hostfall/game/ai"
	"hostfall/session"
	"hostfall/session/replay"
)

// Apply does the game side of one Ready in the order session.Ready asks for:
// load on EvLoad, restore, apply the committed turns (reporting hashes), hand
// over a snapshot when asked; then the bots think once on the newest state and
// propose for the slots this node drives. Messages and the rest of the events
// stay with the caller.
func (m *Match) Apply(rd *session.Ready, n Node) error {
	for _, ev := range rd.Events {
		switch {
		case ev.Kind == session.EvLoad && ev.Lobby != nil && m.world == nil:
			if err := m.Load(*ev.Lobby); err != nil {
				return err
			}
			if !m.opt.ScreenLoads {
				n.Loaded()
			}
		case ev.Kind == session.EvDesync && ev.Desync != nil:
			m.noteDesync(*ev.Desync, rd.Status.Self)
		}
	}
	if rd.Restore != nil {
		before := m.keptAt(rd.Restore.Turn)
		repair := m.desync != nil
		had, hadHash := m.turn(), uint64(0)
		if m.world != nil {
			hadHash = m.world.Hash()
		}
		if err := m.Restore(rd.Restore.Data); err != nil {
			return fmt.Errorf("match: restore turn %d: %w", rd.Restore.Turn, err)
		}
		m.repaired(rd.Restore.Turn, before)
		// After the end the state stays the end's whatever turn the session
		// names: the replay is whole, nothing goes on.
		if !m.startResumedReplay(rd.Restore) && !repair && !m.ended() &&
			(had != int(rd.Restore.Turn) || hadHash != m.world.Hash()) {
			m.replayFromSnapshot(rd.Restore)
		}
	}
	for _, t := range rd.Committed {
		if err := m.applyTurn(t, n); err != nil {
			return err
		}
	}
	if rd.SnapshotAt != 0 {
		// After the end the state stays that of the last turn played, and
		// that frozen state is the snapshot of every later turn.
		if m.world == nil || uint64(m.world.Turn()) != rd.SnapshotAt && !m.ended() {
			return fmt.Errorf("%w: snapshot of turn %d asked for at turn %d", ErrTurnGap, rd.SnapshotAt, m.turn())
		}
		if err := n.Snapshot(rd.SnapshotAt, m.Snapshot()); err != nil {
			return fmt.Errorf("match: hand over snapshot: %w", err)
		}
	}
	if len(rd.Committed) > 0 || rd.Restore != nil {
		m.think(rd.Status, n)
	}
	m.Publish()
	return nil
}

func (m *Match) turn() int {
	if m.world == nil {
		return -1
	}
	return m.world.Turn()
}

// applyTurn decodes the turn's commands for the slots' players (a command
// that does not decode is skipped, the same way on every peer), turns the
// departures into surrenders after them, and steps the world.
func (m *Match) applyTurn(t session.Turn, n Node) error {
	if m.world == nil {
		return ErrNotLoaded
	}
	if m.ended() {
		// The game is over; the session may still close turns until every
		// peer leaves. They change nothing, and the hash stays the end's.
		if t.WantHash {
			n.ReportHash(t.Number, m.world.Hash())
		}
		return nil
	}
	if want := uint64(m.world.Turn()) + 1; t.Number != want {
		return fmt.Errorf("%w: got turn %d, the game is at turn %d", ErrTurnGap, t.Number, want-1)
	}
	m.cmds = m.cmds[:0]
	bad := 0
	// The slot that hosted this turn: every peer holds the same epoch for a
	// turn (the turns' chain hash covers it), so "the host may resume a
	// pause" is the same everywhere and in replays.
	host := session.EpochSlot(t.Epoch)
	for _, c := range t.Commands {
		p, ok := m.Player(c.Slot)
		if !ok {
			bad++
			continue
		}
		cmd, err := game.DecodeCommand(p, c.Data)
		if err != nil {
			bad++
			continue
		}
		cmd.Host = c.Slot == host
		m.cmds = append(m.cmds, cmd)
	}
	for _, d := range t.Departures {
		if p, ok := m.Player(d.Slot); ok {
			m.cmds = append(m.cmds, game.Command{Player: p, Kind: game.CmdSurrender})
		}
	}
	m.world.Step(m.cmds)
	m.changed()
	m.smu.Lock()
	m.stats.Turns++
	m.stats.BadCommands += uint64(bad)
	m.smu.Unlock()
	if m.opt.OnStep != nil {
		m.opt.OnStep(t.Number, m.world.Events())
	}

	if t.WantHash {
		if m.opt.OnDesyncReport != nil {
			m.keep(t.Number)
		}
		h := m.world.Hash()
		n.ReportHash(t.Number, h)
		if m.rec != nil {
			m.replayFailed(m.rec.WriteHash(t.Number, h))
		}
	}
	if m.rec != nil && t.Number > m.recTo {
		m.replayFailed(m.rec.WriteTurn(t))
		m.recTo = t.Number
	}
	return nil
}

// think lets a bot play every driven slot that has one: bot slots while this
// node hosts, and the own slot of a headless peer. Bots of slots no longer
// driven are dropped, so a slot that comes back gets a bot that looks afresh.
func (m *Match) think(st session.Status, n Node) {
	if m.world == nil || m.ended() {
		return
	}
	for slot := range m.bots {
		if m.bots[slot] != nil && !slices.Contains(st.Drives, slot) {
			m.bots[slot] = nil
		}
	}
	for _, slot := range st.Drives {
		bot := m.botFor(slot, st.Slot)
		if bot == nil {
			continue
		}
		for _, c := range bot.Think(m.world) {
			var err error
			if m.buf, err = c.AppendBinary(m.buf[:0]); err != nil {
				continue // a bot's own mistake; it never reaches the network
			}
			if n.Propose(slot, m.buf) == nil {
				m.smu.Lock()
				m.stats.BotCommands++
				m.smu.Unlock()
			}
		}
	}
}

func (m *Match) botFor(slot, own int) *ai.Bot {
	if slot < 0 || slot >= len(m.bots) {
		return nil
	}
	if b := m.bots[slot]; b != nil {
		return b
	}
	p, ok := m.Player(slot)
	if !ok || m.world.Player(p).Out {
		return nil
	}
	var level ai.Level
	switch {
	case slot < len(m.lobby.Slots) && m.lobby.Slots[slot].Kind == session.SlotBot:
		level = min(ai.Level(m.lobby.Slots[slot].BotLevel), ai.Hard)
	case slot == own && m.opt.SelfBot:
		level = m.opt.SelfLevel
	case slot != own && m.lobby.AwayBot > 0:
		// An away player's slot, driven by this host until it is back.
		level = min(ai.Level(m.lobby.AwayBot-1), ai.Hard)
	default:
		return nil
	}
	m.bots[slot] = ai.New(p, level, m.lobby.MapSeed^uint64(slot+1)*0x9e3779b97f4a7c15)
	return m.bots[slot]
}

// startResumedReplay begins the replay of a resumed game with the state it
// resumed from, so playing it back needs no other file. It reports whether
// s was that state.
func (m *Match) startResumedReplay(s *session.Snapshot) bool {
	if !m.recRes || s.Turn != m.lobby.Resume {
		return false
	}
	m.recRes, m.recLate = false, false
	var err error
	m.rec, err = withRules(replay.NewResumedWriter(m.opt.Replay, m.lobby, session.Snapshot{Turn: s.Turn, Data: s.Data}))
	m.recTo = s.Turn
	m.replayFailed(err)
	return true
}

// replayFromSnapshot is the replay of a peer that took the game back by
// snapshot (not a desync repair: the snapshot is not the state it had): a
// late joiner starts its replay there; a peer that was recording ends its
// replay (the game it played, whole) and goes on in NextReplay's.
func (m *Match) replayFromSnapshot(s *session.Snapshot) {
	var w io.Writer
	switch {
	case m.recLate:
		w, m.recLate = m.opt.Replay, false
	case m.rec != nil:
		err := m.rec.Close()
		m.rec = nil
		if err != nil {
			m.replayFailed(err)
			return
		}
		if m.opt.NextReplay != nil {
			w = m.opt.NextReplay()
		}
	}
	if w == nil || s.Turn == 0 {
		return
	}
	// The replay reads as a game resumed after the snapshot's turn.
	l := m.lobby.Clone()
	l.Resume = s.Turn
	var err error
	m.rec, err = withRules(replay.NewResumedWriter(w, l, session.Snapshot{Turn: s.Turn, Data: s.Data}))
	m.recTo = s.Turn
	m.replayFailed(err)
}

// Encode turns the local player's order into the bytes to propose.
func (m *Match) Encode(c game.Command) ([]byte, error) {
	return c.AppendBinary(nil)
}

func (m *Match) replayFailed(err error) {
	if err == nil || m.rec == nil && m.opt.Replay == nil {
		return
	}
	if m.opt.OnReplayError != nil {
		m.opt.OnReplayError(err)
	}
	m.rec = nil
	m.opt.Replay = nil
}

// CloseReplay writes the replay's end record. Call it when the game ends or
// the peer leaves; a replay without it reads as truncated.
func (m *Match) CloseReplay() error {
	if m.rec == nil {
		return nil
	}
	err := m.rec.Close()
	m.rec = nil
	return err
}
