package game

// EventKind says what happened.
type EventKind uint8

const (
	EvNone         EventKind = iota
	EvTrained                // Unit of Player left its building
	EvAttack                 // Unit attacked Target (one swing or shot); Other owns Target
	EvDied                   // Unit of Player died; Other is the killer's player
	EvBuildStarted           // a worker of Player placed building Unit
	EvBuildingDone           // building Unit of Player is finished
	EvUnderAttack            // Unit of Player is hit by Other (at most once per player every 5 s)
	EvRejected               // a command of Player was refused for Reason
	EvPlayerOut              // Player lost every building (or surrendered)
	EvVictory                // Team won; Player is its first player
	EvDraw                   // the last teams fell on the same tick
	EvResearched             // Player's building Unit finished Level of Upgrade
	EvPaused                 // Player paused the game; Count is the pauses they have left (-1: no limit)
	EvResuming               // Player resumed the game Other paused; it moves in Count turns
	EvResumed                // the countdown Player started is over: the world moves again
)

func (k EventKind) String() string {
	switch k {
	case EvTrained:
		return "trained"
	case EvAttack:
		return "attack"
	case EvDied:
		return "died"
	case EvBuildStarted:
		return "build-started"
	case EvBuildingDone:
		return "building-done"
	case EvUnderAttack:
		return "under-attack"
	case EvRejected:
		return "rejected"
	case EvPlayerOut:
		return "player-out"
	case EvVictory:
		return "victory"
	case EvDraw:
		return "draw"
	case EvResearched:
		return "researched"
	case EvPaused:
		return "paused"
	case EvResuming:
		return "resuming"
	case EvResumed:
		return "resumed"
	}
	return "none"
}

// Event is one thing that happened during the last Step, for render and
// sound. Fields that do not apply are zero (Other: NoPlayer).
type Event struct {
	Kind     EventKind
	Reason   Reason   // EvRejected
	Player   PlayerID // whom the event is about
	Other    PlayerID // the other side: attacker, killer; NoPlayer if none
	Team     Team     // EvVictory
	Unit     UnitID
	UnitKind Kind
	Target   UnitID  // EvAttack
	Pos      Point   // where, in subunits
	Upgrade  Upgrade // EvResearched
	Level    uint8   // EvResearched: the level now reached
	ByScore  bool    // EvVictory: the game reached ScoreTurn and Team scored highest
	Count    int32   // EvPaused: pauses left; EvResuming: turns of countdown
}

// Reason says why a command was refused. Its String is a sentence for players.
type Reason uint8

const (
	ReasonNone       Reason = iota
	RejUnknownPlayer        // the command's player is not in the game
	RejPlayerOut            // the player is out
	RejUnknownKind          // no such command or unit kind
	RejTooManyUnits         // more than MaxCommandUnits IDs
	RejNotOwner             // names a unit of another player
	RejOutOfMap             // a place off the map
	RejWrongUnit            // none of the named units can do it
	RejBadTarget            // the target does not exist or is not an enemy
	RejNotVisible           // the target or place is hidden by fog
	RejNoGold               // not enough gold
	RejNoSupply             // not enough supply
	RejCannotBuild          // the site is blocked
	RejQueueFull            // the production queue is full
	RejWorldFull            // MaxEntities reached
	RejBusy                 // the building is researching or training
	RejMaxLevel             // the upgrade is at its highest level
	RejResearching          // another building already researches it
	RejPaused               // the game is paused: only pause, resume and surrender are taken
	RejAlreadyPaused        // a pause while paused
	RejNotPaused            // a resume while the game runs
	RejNoPauses             // the player used every pause
	RejNotResumer           // neither the pauser nor the host
	RejResuming             // a resume while the countdown runs
	RejBotPause             // a bot's slot asked for a pause
	numReasons
)

func (r Reason) String() string {
	switch r {
	case RejUnknownPlayer:
		return "that player is not in this game"
	case RejPlayerOut:
		return "that player is out of the game"
	case RejUnknownKind:
		return "unknown command"
	case RejTooManyUnits:
		return "too many units in one command"
	case RejNotOwner:
		return "that unit belongs to another player"
	case RejOutOfMap:
		return "that place is off the map"
	case RejWrongUnit:
		return "none of the selected units can do that"
	case RejBadTarget:
		return "that is not a valid target"
	case RejNotVisible:
		return "you cannot see that"
	case RejNoGold:
		return "not enough gold"
	case RejNoSupply:
		return "not enough supply: build a base or barracks"
	case RejCannotBuild:
		return "cannot build there"
	case RejQueueFull:
		return "the production queue is full"
	case RejWorldFull:
		return "too many units on the map"
	case RejBusy:
		return "that building is busy"
	case RejMaxLevel:
		return "that upgrade is at its highest level"
	case RejResearching:
		return "that upgrade is already being researched"
	case RejPaused:
		return "the game is paused"
	case RejAlreadyPaused:
		return "the game is already paused"
	case RejNotPaused:
		return "the game is not paused"
	case RejNoPauses:
		return "you have no pauses left in this game"
	case RejNotResumer:
		return "only the host or the player who paused may resume"
	case RejResuming:
		return "the game is already resuming"
	case RejBotPause:
		return "bots do not pause"
	}
	return "no reason"
}

func (w *World) emit(ev Event) { w.events = append(w.events, ev) }

// Events returns the events of the last Step, in the order they happened.
// The slice is reused by the next Step.
func (w *World) Events() []Event { return w.events }

func (w *World) pos(i int) Point { return Point{w.e.x[i], w.e.y[i]} }
