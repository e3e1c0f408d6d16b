package game

// Kind is a kind of unit or building.
type Kind uint8

const (
	KindNone Kind = iota
	Worker        // gathers gold, builds
	Soldier       // melee
	Archer        // ranged
	Base          // trains workers, takes in gold, supply
	Barracks      // trains soldiers and archers, supply
	numKinds
)

// Stats are the fixed numbers of a kind. Times are in ticks (20 a second),
// distances in subunits unless named otherwise.
type Stats struct {
	Name     string
	Building bool
	Cost     int32 // gold
	Supply   int32 // supply a unit takes
	Provides int32 // supply a finished building gives
	Time     int32 // ticks to train or to build
	HP       int32
	Armor    int32 // subtracted from every hit (a hit always does at least 1)
	Damage   int32 // 0: cannot attack
	Range    int32 // from the attacker's center to the target's box
	Cooldown int32 // ticks between attacks
	Speed    int32 // subunits per tick
	Sight    int32 // tiles
	Size     int32 // footprint in tiles (buildings are Size×Size)
	Trainer  Kind  // the building that trains it
}

const meleeRange = 232 // reaches every neighbouring tile (see boxDist2)

var stats = [numKinds]Stats{
	KindNone: {Name: "none"},
	Worker: {Name: "worker", Cost: 50, Supply: 1, Time: 200, HP: 40, Damage: 5,
		Range: meleeRange, Cooldown: 30, Speed: 24, Sight: 6, Trainer: Base},
	Soldier: {Name: "soldier", Cost: 75, Supply: 1, Time: 260, HP: 80, Armor: 2, Damage: 10,
		Range: meleeRange, Cooldown: 20, Speed: 22, Sight: 7, Trainer: Barracks},
	Archer: {Name: "archer", Cost: 70, Supply: 1, Time: 280, HP: 50, Damage: 8,
		Range: 5 * TileSize, Cooldown: 30, Speed: 22, Sight: 8, Trainer: Barracks},
	Base: {Name: "base", Building: true, Cost: 400, Provides: 10, Time: 1000, HP: 1500,
		Armor: 3, Sight: 9, Size: 3},
	Barracks: {Name: "barracks", Building: true, Cost: 150, Provides: 8, Time: 600, HP: 800,
		Armor: 2, Sight: 7, Size: 3},
}

// Stats returns the numbers of kind k.
func (k Kind) Stats() Stats {
	if k >= numKinds {
		return stats[KindNone]
	}
	return stats[k]
}

func (k Kind) String() string { return k.Stats().Name }

// Valid reports whether k is a real kind.
func (k Kind) Valid() bool { return k > KindNone && k < numKinds }

// IsBuilding reports whether k is a building.
func (k Kind) IsBuilding() bool { return k.Valid() && stats[k].Building }

// Kinds lists every kind, for tables and tests.
func Kinds() []Kind { return []Kind{Worker, Soldier, Archer, Base, Barracks} }

// Mining numbers.
const (
	MineTicks  = 40 // ticks to fill a worker's bag
	CarryGold  = 8  // gold per trip
	FieldGold  = 1500
	alertTicks = 100 // at most one "under attack" event per player this often
	fogPeriod  = 4   // each team's vision is recomputed every fogPeriod ticks
)
