package app

import (
	"errors"
	"fmt"
	"io"
	"os"

	"hostfall/game"
	"hostfall/game/ai"
	"hostfall/session"
	"hostfall/session/replay"
	"hostfall/status"
)

// BotMatch is an offline match of bots only (sim, play --headless).
type BotMatch struct {
	Players int
	Seed    uint64 // of the map and the bots
	Turns   int    // the turn limit if nobody has won
	Size    int
	Levels  []ai.Level  // by player; the last repeats
	Teams   []game.Team // by player; none puts every player alone
	Replay  string      // the file to write the replay to; "" for none
}

// Match sets the match up; an error is a setting it cannot be played with.
func (b BotMatch) Match() (*ai.Match, error) {
	c := game.FreeForAll(b.Seed, b.Players)
	c.Width, c.Height = b.Size, b.Size
	for p, t := range b.Teams {
		c.Players[p].Team = t
	}
	for p := range c.Players {
		c.Players[p].Bot = true // as match.Config makes bot slots (Lobby)
	}
	return ai.NewMatch(c, b.Levels, b.Seed)
}

// Lobby is the lobby a network game of the same match would have had: a bot
// slot per player, with its level and team, so that match.Config derives
// the same game config from it (what a replay of the match records).
func (b BotMatch) Lobby() session.Lobby {
	l := session.Lobby{Name: "sim", MapSeed: b.Seed, MapSize: uint32(b.Size), TurnTicks: 5,
		MaxPlayers: uint32(b.Players), State: session.StatePlaying, GameVersion: GameVersion}
	level := ai.Hard
	for p := range b.Players {
		if p < len(b.Levels) {
			level = b.Levels[p]
		}
		s := session.Slot{Kind: session.SlotBot, Name: fmt.Sprintf("Bot %d (%s)", p+1, level), Color: uint8(p),
			Ready: true, BotLevel: uint8(level)}
		if p < len(b.Teams) {
			s.Team = uint8(b.Teams[p]) + 1 // lobby team t+1 is game team t
		}
		l.Slots = append(l.Slots, s)
	}
	return l
}

// hashEvery is how often a recorded bot match notes the state hash, as a
// network game does, so `replay --verify` checks the file.
const hashEvery = 10

// Record makes m write its replay to w as it plays: the lobby of b, then
// every turn's commands as the bots' slots proposed them, and a state hash
// every ten turns. Close the returned writer when the match ends.
func (b BotMatch) Record(m *ai.Match, w io.Writer) (*replay.Writer, error) {
	rw, err := replay.NewWriter(w, b.Lobby())
	if err != nil {
		return nil, err
	}
	if err := rw.WriteRules(game.RulesVersion); err != nil {
		return nil, err
	}
	seq := make([]uint64, b.Players)
	var buf []byte
	m.OnTurn = func(cmds []game.Command) error {
		t := session.Turn{Number: uint64(m.World.Turn())}
		for _, c := range cmds {
			if buf, err = c.AppendBinary(buf[:0]); err != nil {
				return err
			}
			seq[c.Player]++
			t.Commands = append(t.Commands, session.Command{Slot: int(c.Player), Seq: seq[c.Player], Data: append([]byte(nil), buf...)})
		}
		if err := rw.WriteTurn(t); err != nil {
			return err
		}
		if t.Number%hashEvery == 0 {
			return rw.WriteHash(t.Number, m.World.Hash())
		}
		return nil
	}
	return rw, nil
}

// RecordFile starts the replay file of --replay, if asked for; done closes it
// and says where it is (a status line, JSON with asJSON).
func (b BotMatch) RecordFile(m *ai.Match) (done func(asJSON bool) error, err error) {
	if b.Replay == "" {
		return func(bool) error { return nil }, nil
	}
	f, err := os.Create(b.Replay)
	if err != nil {
		return nil, fmt.Errorf("--replay: %w", err)
	}
	rw, err := b.Record(m, f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("--replay: %w", err)
	}
	return func(asJSON bool) error {
		if err := errors.Join(rw.Close(), f.Close()); err != nil {
			return fmt.Errorf("--replay: %w", err)
		}
		line := &status.Line{JSON: asJSON, Out: os.Stdout, Human: os.Stderr}
		line.Emit("replay", "replay saved to "+b.Replay+" (watch it with: hostfall replay "+b.Replay+")", status.KV("path", b.Replay))
		return nil
	}, nil
}
