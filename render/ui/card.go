package ui

import "hostfall/game"

// Action is what a command card button does.
type Action uint8

const (
	ActNone       Action = iota
	ActAttackMove        // then a left click on the target or place
	ActStop
	ActBuild    // place building Kind
	ActTrain    // train Kind
	ActResearch // research the next level of Upgrade
)

// Button is one command card button.
type Button struct {
	Action  Action
	Kind    game.Kind // what is built or trained
	Upgrade game.Upgrade
	Bind    Bind // the command, whose key the player chooses
	Key     Key
	Label   string
}

// Cost returns what the button's action costs in gold (research costs
// more each level: the world knows the next one).
func (b Button) Cost() int32 {
	if b.Action == ActBuild || b.Action == ActTrain {
		return b.Kind.Stats().Cost
	}
	return 0
}

// Card returns the command card for a selection, button i at position i,
// with the keys of keys. Units (with workers' building buttons) come
// before buildings; buildings show what the first selected kind trains.
func Card(sel []*Unit, keys *Bindings) [CardCols * CardRows]Button {
	var card [CardCols * CardRows]Button
	var units, workers bool
	var trainer game.Kind
	for _, u := range sel {
		switch {
		case !u.Own:
		case !u.Building:
			units = true
			workers = workers || u.Kind == game.Worker
		case u.Built && trainer == game.KindNone:
			trainer = u.Kind
		}
	}
	switch {
	case units:
		card[0] = Button{Action: ActAttackMove, Bind: BindAttack, Label: "Attack"}
		card[1] = Button{Action: ActStop, Bind: BindStop, Label: "Stop"}
		if workers {
			card[3] = Button{Action: ActBuild, Kind: game.Base, Bind: BindBuildBase, Label: "Base"}
			card[4] = Button{Action: ActBuild, Kind: game.Barracks, Bind: BindBuildBarracks, Label: "Barracks"}
			card[5] = Button{Action: ActBuild, Kind: game.Tower, Bind: BindBuildTower, Label: "Tower"}
			card[6] = Button{Action: ActBuild, Kind: game.Workshop, Bind: BindBuildWorkshop, Label: "Workshop"}
		}
	case trainer == game.Base:
		card[0] = Button{Action: ActTrain, Kind: game.Worker, Bind: BindTrainWorker, Label: "Worker"}
	case trainer == game.Barracks:
		card[0] = Button{Action: ActTrain, Kind: game.Soldier, Bind: BindTrainSoldier, Label: "Soldier"}
		card[1] = Button{Action: ActTrain, Kind: game.Archer, Bind: BindTrainArcher, Label: "Archer"}
	case trainer == game.Workshop:
		card[0] = Button{Action: ActTrain, Kind: game.Catapult, Bind: BindTrainCatapult, Label: "Catapult"}
		card[1] = Button{Action: ActResearch, Upgrade: game.UpWeapons, Bind: BindResearchWeapons, Label: "Weapons"}
		card[2] = Button{Action: ActResearch, Upgrade: game.UpArmor, Bind: BindResearchArmor, Label: "Armor"}
	}
	for i := range card {
		if card[i].Action != ActNone {
			card[i].Key = keys[card[i].Bind]
		}
	}
	return card
}

// KeyName is the label of a hotkey.
func KeyName(k Key) string {
	switch {
	case k >= KeyA && k <= KeyZ:
		return string(rune('A' + k - KeyA))
	case k >= Key0 && k <= Key9:
		return string(rune('0' + k - Key0))
	}
	return ""
}

// CanPlace reports whether building k fits with its top-left corner on tile
// (x0, y0) as far as player me can tell: on the map, on open grass, and on
// ground it has explored.
func CanPlace(w World, me game.PlayerID, k game.Kind, x0, y0 int) bool {
	size := int(k.Stats().Size)
	fog := w.Fog(me)
	for y := y0; y < y0+size; y++ {
		for x := x0; x < x0+size; x++ {
			if !w.Passable(x, y) || fog.At(x, y) == game.Unexplored {
				return false
			}
		}
	}
	return true
}

// World is what the UI logic reads of the game besides the scene;
// *game.World has it.
type World interface {
	Size() (w, h int)
	TerrainAt(x, y int) game.Terrain
	Passable(x, y int) bool
	Fog(p game.PlayerID) game.Fog
	Player(p game.PlayerID) game.PlayerInfo
	Unit(id game.UnitID) (game.UnitInfo, bool)
}
