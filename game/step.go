package game

// Step applies the commands of one turn, in the order given, then advances
// the simulation by one tick. Commands that fail a check are refused with an
// EvRejected event; nothing a command holds can make Step panic.
func (w *World) Step(cmds []Command) {
	w.events = w.events[:0]
	for j := range cmds {
		w.apply(&cmds[j])
	}
	if w.pause.on && w.pausedStep() {
		return
	}
	w.tick()
}

func (w *World) tick() {
	e := &w.e
	n := e.len()
	for i := range n {
		if k := e.kind[i]; k != KindNone && stats[k].Building && e.hp[i] > 0 {
			w.updateBuilding(i)
		}
	}
	for i := range n {
		if k := e.kind[i]; k != KindNone && !stats[k].Building && e.hp[i] > 0 {
			w.updateUnit(i)
		}
	}
	w.reap()
	w.checkPlayers()
	w.turn++
	w.clock++
	for k := range w.nteams {
		if int(w.turn)%fogPeriod == k%fogPeriod {
			w.refreshFog(k)
		}
	}
}

// checkPlayers puts out every player without buildings, and every player
// who can never act again (see helpless) while some player still can; it
// ends the game when at most one team is left, and on score when the
// teams left can none of them act again or ScoreTurn is reached.
func (w *World) checkPlayers() {
	for p := range w.np {
		if !w.pl[p].out && w.pl[p].buildings == 0 {
			w.eliminate(PlayerID(p))
		}
	}
	if w.over {
		return
	}
	stuck, able := w.stuckPlayers()
	if able != 0 {
		for p := range w.np {
			if stuck&(1<<p) != 0 {
				w.eliminate(PlayerID(p))
			}
		}
	}
	var teams uint8
	first := NoPlayer
	for p := range w.np {
		if !w.pl[p].out {
			teams |= 1 << w.tidx[p]
			if first == NoPlayer {
				first = PlayerID(p)
			}
		}
	}
	switch {
	case teams != 0 && teams&(teams-1) != 0 && (w.clock+1 >= ScoreTurn || able == 0):
		w.scoreVictory(teams)
	case teams == 0:
		w.over = true
		w.emit(Event{Kind: EvDraw, Player: NoPlayer, Other: NoPlayer})
	case teams&(teams-1) == 0:
		w.over = true
		w.winner = int8(w.pl[first].team)
		w.emit(Event{Kind: EvVictory, Player: first, Other: NoPlayer, Team: w.pl[first].team, Pos: w.starts[first]})
	}
}

// stuckPlayers returns the players in the game who are helpless (a bit
// set of player IDs) and the dense teams with a player who is not.
func (w *World) stuckPlayers() (stuck uint8, able uint8) {
	for p := range w.np {
		switch {
		case w.pl[p].out:
		case w.helpless(PlayerID(p)):
			stuck |= 1 << p
		default:
			able |= 1 << w.tidx[p]
		}
	}
	return stuck, able
}

// helpless reports whether player p can never act again: no unit, nothing
// being trained or researched, and not the gold (or, once every building
// of theirs stands finished, the supply) for any unit their buildings
// train. Without units no gold comes in, so such a player stays so forever.
func (w *World) helpless(p PlayerID) bool {
	pl := &w.pl[p]
	if pl.units > 0 {
		return false
	}
	e := &w.e
	supply := int32(0)
	var trains [numKinds]bool
	for i := range e.len() {
		k := e.kind[i]
		if k == KindNone || e.owner[i] != p || !stats[k].Building {
			continue
		}
		if e.qlen[i] > 0 || e.research[i] != UpNone {
			return false
		}
		supply += stats[k].Provides
		trains[k] = true
	}
	for k := range numKinds {
		st := &stats[k]
		if k.Valid() && !st.Building && trains[st.Trainer] && pl.gold >= st.Cost && min(supply, MaxSupply) >= st.Supply {
			return false
		}
	}
	return true
}

// scoreVictory ends a game at ScoreTurn: of the teams still in (a bit set of
// dense team indexes), the one with the highest score wins; a tie goes to
// the team that destroyed more, then to the lower team.
func (w *World) scoreVictory(teams uint8) {
	var score, kills [MaxPlayers]int64
	for p := range w.np {
		k := w.tidx[p]
		score[k] += w.Score(PlayerID(p))
		kills[k] += int64(w.pl[p].killed)
	}
	best := -1
	for k := range w.nteams {
		if teams&(1<<k) == 0 {
			continue
		}
		if best < 0 || score[k] > score[best] || score[k] == score[best] && kills[k] > kills[best] {
			best = k
		}
	}
	first := NoPlayer
	for p := range w.np {
		if int(w.tidx[p]) == best && !w.pl[p].out {
			first = PlayerID(p)
			break
		}
	}
	w.over = true
	w.winner = int8(w.tnum[best])
	w.emit(Event{Kind: EvVictory, Player: first, Other: NoPlayer, Team: w.tnum[best], Pos: w.starts[first], ByScore: true})
}

// Score is what player p is worth: the gold in hand, the cost of every unit
// and building standing, and the cost of the upgrades researched. It
// decides a game that reaches ScoreTurn.
func (w *World) Score(p PlayerID) int64 {
	if int(p) >= w.np || w.pl[p].out {
		return 0
	}
	pl := &w.pl[p]
	s := int64(pl.gold)
	e := &w.e
	for i := range e.len() {
		if e.kind[i] != KindNone && e.owner[i] == p {
			s += int64(stats[e.kind[i]].Cost)
		}
	}
	for u := UpNone + 1; u < numUpgrades; u++ {
		for l := 1; l <= int(pl.up[u]); l++ {
			s += int64(u.Cost(l))
		}
	}
	return s
}
