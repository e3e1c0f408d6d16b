package ui

import "hostfall/game"

// Orders turns a right click into commands for the player's selected units:
// on a visible enemy, attack it; on gold, workers gather and the others walk
// there; with only buildings selected, set their rally point; anywhere else,
// move. Commands name at most game.MaxCommandUnits units each.
func Orders(me game.PlayerID, sel []*Unit, target *Unit, tx, ty int, terrain game.Terrain) []game.Command {
	var units, workers, others, trainers []game.UnitID
	for _, u := range sel {
		switch {
		case !u.Own:
		case !u.Building:
			units = append(units, u.ID)
			if u.Kind == game.Worker {
				workers = append(workers, u.ID)
			} else {
				others = append(others, u.ID)
			}
		case u.Built:
			trainers = append(trainers, u.ID)
		}
	}
	x, y := int32(tx), int32(ty)
	switch {
	case len(units) == 0 && len(trainers) > 0:
		return chunk(nil, game.Command{Player: me, Kind: game.CmdRally, X: x, Y: y}, trainers)
	case len(units) == 0:
		return nil
	case target != nil && !target.Ally:
		return chunk(nil, game.Command{Player: me, Kind: game.CmdAttack, Target: target.ID}, units)
	case terrain == game.GoldField && len(workers) > 0:
		cmds := chunk(nil, game.Command{Player: me, Kind: game.CmdGather, X: x, Y: y}, workers)
		return chunk(cmds, game.Command{Player: me, Kind: game.CmdMove, X: x, Y: y}, others)
	}
	return chunk(nil, game.Command{Player: me, Kind: game.CmdMove, X: x, Y: y}, units)
}

// AttackMove returns the commands of an attack-move (A, then a left click):
// on an enemy it is an attack, elsewhere a move that fights on the way.
func AttackMove(me game.PlayerID, sel []*Unit, target *Unit, tx, ty int) []game.Command {
	units := ownUnits(sel)
	if target != nil && !target.Ally {
		return chunk(nil, game.Command{Player: me, Kind: game.CmdAttack, Target: target.ID}, units)
	}
	return chunk(nil, game.Command{Player: me, Kind: game.CmdAttackMove, X: int32(tx), Y: int32(ty)}, units)
}

func ownUnits(sel []*Unit) []game.UnitID {
	var ids []game.UnitID
	for _, u := range sel {
		if u.Own && !u.Building {
			ids = append(ids, u.ID)
		}
	}
	return ids
}

// chunk appends c once per MaxCommandUnits of ids.
func chunk(dst []game.Command, c game.Command, ids []game.UnitID) []game.Command {
	for i := 0; i < len(ids); i += game.MaxCommandUnits {
		c.Units = ids[i:min(i+game.MaxCommandUnits, len(ids))]
		dst = append(dst, c)
	}
	return dst
}
