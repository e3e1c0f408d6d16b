package game

// Step applies the commands of one turn, in the order given, then advances
// the simulation by one tick. Commands that fail a check are refused with an
// EvRejected event; nothing a command holds can make Step panic.
func (w *World) Step(cmds []Command) {
	w.events = w.events[:0]
	for j := range cmds {
		w.apply(&cmds[j])
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
	for k := range w.nteams {
		if int(w.turn)%fogPeriod == k%fogPeriod {
			w.refreshFog(k)
		}
	}
}

// checkPlayers puts out every player without buildings and ends the game
// when at most one team is left.
func (w *World) checkPlayers() {
	for p := range w.np {
		if !w.pl[p].out && w.pl[p].buildings == 0 {
			w.eliminate(PlayerID(p))
		}
	}
	if w.over {
		return
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
	case teams == 0:
		w.over = true
		w.emit(Event{Kind: EvDraw, Player: NoPlayer, Other: NoPlayer})
	case teams&(teams-1) == 0:
		w.over = true
		w.winner = int8(w.pl[first].team)
		w.emit(Event{Kind: EvVictory, Player: first, Other: NoPlayer, Team: w.pl[first].team, Pos: w.starts[first]})
	}
}
