package game

// PlayerID is a player's slot, 0 to 7, in the order of Config.Players.
type PlayerID uint8

// Team groups allied players; players on one team share vision and win together.
type Team uint8

// UnitID names a unit or building for its whole life. The low 16 bits are its
// slot in the world's columns, the high 16 bits the slot's generation, bumped
// every time the slot is freed. So an ID is looked up in O(1), an ID kept after
// its unit died never reaches the unit that later reuses the slot, and the zero
// ID is never issued (generations start at 1). The owner is a column of its
// own rather than part of the ID (seed 002's owner+index scheme): in lockstep
// every peer allocates the same slots, so one global index is enough.
type UnitID uint32

// NoUnit is the zero UnitID: no unit.
const NoUnit UnitID = 0

// Limits of a world.
const (
	MaxPlayers      = 8
	MinPlayers      = 2
	DefaultMapSize  = 128
	MinMapSize      = 32
	MaxMapSize      = 512
	MaxEntities     = 0xFFFF // slots 0..65534: the slot must fit the ID's low 16 bits
	MaxCommandUnits = 256    // unit IDs one command may name
	QueueMax        = 5      // production queue length of a building
	MaxSupply       = 200
	StartGold       = 200
)

// NoPlayer stands for "no player" in events.
const NoPlayer PlayerID = 255

// Fixed-point positions: one tile is TileSize subunits. Positions are int32
// subunits from the map's top-left corner; a unit on tile (x, y) has a position
// in [x*TileSize, (x+1)*TileSize).
const (
	TileShift = 8
	TileSize  = 1 << TileShift
)

// Point is a position in subunits (fixed point, TileSize per tile).
type Point struct{ X, Y int32 }

// Tile returns the tile that contains the point.
func (p Point) Tile() (x, y int) { return int(p.X >> TileShift), int(p.Y >> TileShift) }

// TileCenter returns the center of tile (x, y) in subunits.
func TileCenter(x, y int) Point {
	return Point{int32(x)<<TileShift + TileSize/2, int32(y)<<TileShift + TileSize/2}
}

func makeID(slot int, gen uint16) UnitID { return UnitID(uint32(gen)<<16 | uint32(slot)) }

func (id UnitID) slot() int { return int(id & 0xFFFF) }

func (id UnitID) gen() uint16 { return uint16(id >> 16) }

// Terrain is what a tile is made of.
type Terrain uint8

const (
	Grass     Terrain = iota // passable
	Rock                     // impassable
	Water                    // impassable
	GoldField                // impassable; workers mine it from a neighbouring tile
	numTerrains
)

func (t Terrain) String() string {
	switch t {
	case Grass:
		return "grass"
	case Rock:
		return "rock"
	case Water:
		return "water"
	case GoldField:
		return "gold"
	}
	return "terrain?"
}

// Visibility of a tile to a player (fog of war).
type Visibility uint8

const (
	Unexplored Visibility = iota // never seen
	Explored                     // seen before; terrain known, units not
	Visible                      // seen now
)

// Order is what a unit is doing.
type Order uint8

const (
	OrderIdle       Order = iota // standing; soldiers and archers fight what comes near
	OrderMove                    // moving to a tile, ignoring enemies
	OrderAttack                  // attacking one target until it dies
	OrderAttackMove              // moving to a tile, fighting what it meets
	OrderGather                  // worker cycling between a gold field and a base
	OrderBuild                   // worker walking to a building site
	numOrders
)

func (o Order) String() string {
	switch o {
	case OrderIdle:
		return "idle"
	case OrderMove:
		return "move"
	case OrderAttack:
		return "attack"
	case OrderAttackMove:
		return "attack-move"
	case OrderGather:
		return "gather"
	case OrderBuild:
		return "build"
	}
	return "order?"
}

// Phases of OrderGather (UnitInfo.Phase).
const (
	PhaseToField uint8 = iota // walking to the gold
	PhaseMining               // mining (Timer counts down)
	PhaseToBase               // carrying gold home
)
