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
	Tower         // shoots enemies in range
	Workshop      // trains catapults, researches upgrades
	Catapult      // slow, long range, wrecks buildings
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
	Siege    int32 // extra damage against buildings
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
	// A tower outranges archers (so a few guard a base) and is outranged
	// by catapults (so a siege can answer it).
	Tower: {Name: "tower", Building: true, Cost: 125, Time: 500, HP: 700, Armor: 3, Damage: 12,
		Range: 6 * TileSize, Cooldown: 25, Sight: 9, Size: 2},
	Workshop: {Name: "workshop", Building: true, Cost: 150, Time: 600, HP: 700, Armor: 2, Sight: 6, Size: 3},
	// A catapult hits units weakly and buildings hard: the way to break a
	// base that towers guard, and the end of a stalemate behind walls of
	// buildings.
	Catapult: {Name: "catapult", Cost: 150, Supply: 2, Time: 420, HP: 90, Damage: 6, Siege: 54,
		Range: 7 * TileSize, Cooldown: 40, Speed: 14, Sight: 9, Trainer: Workshop},
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
func Kinds() []Kind {
	return []Kind{Worker, Soldier, Archer, Catapult, Base, Barracks, Tower, Workshop}
}

// Armed reports whether k can attack (workers only defend themselves):
// the kinds the weapons upgrade makes stronger.
func (k Kind) Armed() bool { return stats[k].Damage > 0 && k != Worker }

// Mining numbers.
const (
	MineTicks  = 40 // ticks to fill a worker's bag
	CarryGold  = 8  // gold per trip
	FieldGold  = 1500
	alertTicks = 100 // at most one "under attack" event per player this often
	fogPeriod  = 4   // each team's vision is recomputed every fogPeriod ticks
)

// Upgrade is a research that makes a player's forces stronger, one level
// at a time, at a workshop.
type Upgrade uint8

const (
	UpNone    Upgrade = iota
	UpWeapons         // +WeaponsBonus damage a level for soldiers, archers, catapults and towers
	UpArmor           // +ArmorBonus armor a level for every unit
	numUpgrades
)

// Upgrade numbers.
const (
	MaxUpgradeLevel = 3
	WeaponsBonus    = 1
	ArmorBonus      = 1
)

func (u Upgrade) String() string {
	switch u {
	case UpWeapons:
		return "weapons"
	case UpArmor:
		return "armor"
	}
	return "upgrade?"
}

// Valid reports whether u is a real upgrade.
func (u Upgrade) Valid() bool { return u > UpNone && u < numUpgrades }

// Upgrades lists every upgrade.
func Upgrades() []Upgrade { return []Upgrade{UpWeapons, UpArmor} }

// Cost returns the gold that level (1 to MaxUpgradeLevel) of u costs.
func (u Upgrade) Cost(level int) int32 { return 100 * int32(level) }

// Time returns the ticks that researching level of u takes.
func (u Upgrade) Time(level int) int32 { return 400 + 200*int32(level) }

// ScoreTurn ends a game that is still going: after this many ticks of game
// time (World.Time: 40 minutes at 20 turns a second; paused turns do not
// count) the team with the highest score wins (see
// World.Score). No game can stall forever, even one where every side has
// spent its gold and nobody can break the others' defences.
const ScoreTurn = 48000

// RulesVersion names the game's rules: the same commands give the same
// game only under the same rules. Replays and saves of other rules are
// refused rather than played into a desync. Bump it whenever a change
// alters what a game's commands produce (testdata/determinism.golden moves).
// Version 3: pause and resume, the game clock. Version 4: the time a
// player went out is game time (paused turns do not count), which the
// state hash holds.
const RulesVersion = 4
