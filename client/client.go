// Package client is the seam between the window (package render) and
// whatever runs the session: the Client interface and the values it
// returns. It is pure Go (no window, no cgo), so the offline client, the
// scripted fake and the network client implement it without pulling in
// the graphics stack.
package client

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"hostfall/game"
	"hostfall/session"
)

// Client is everything the screens read and act on: the seam between the
// window and whatever runs the session (client/network over the LAN or a
// relay, client/offline alone with bots, client/playback for replays, and
// the scripted client/fake for tests).
//
// Every method is called from the window's goroutine while the client's own
// goroutines run the session and step the world, so implementations guard
// their state. Methods that act return at once; what follows from them
// (a join accepted or refused, a lobby change) shows up in Lobby and Events.
type Client interface {
	// Sessions lists the sessions the browser shows: LAN (mDNS) and the
	// relay's directory, newest state of each.
	Sessions() []Listing
	// Create hosts a new session; the client then is in its lobby.
	Create(CreateOptions) error
	// Join asks to join the listed session with the given ID.
	Join(id string, opt JoinOptions) error
	// JoinCode asks to join the session an invite code names.
	JoinCode(code string, opt JoinOptions) error
	// Leave leaves the session (lobby or game); the browser shows again.
	Leave()

	// Lobby returns the lobby of the session the client is in; ok is false
	// while browsing. Its State says which screen shows: the lobby until
	// StateLoading, then the game.
	Lobby() (l session.Lobby, ok bool)
	// Slot returns the local player's lobby slot, -1 for a spectator.
	Slot() int
	// SetSlot opens, closes or puts a bot into a slot (host only).
	SetSlot(slot int, kind session.SlotKind, botLevel uint8) error
	// EditSlot changes the local player's own slot: name, color, team, ready.
	EditSlot(session.SlotEdit) error
	// Say sends a chat line to everyone (team 0) or to one lobby team.
	Say(team uint8, text string) error
	// Start begins the countdown (host only).
	Start() error

	// View calls fn with the world while no turn is being applied, and the
	// moment its last turn was applied (drawing interpolates from there).
	// fn must only read the world and must not keep it. View reports
	// whether a game is loaded.
	View(fn func(w *game.World, stepped time.Time)) bool
	// Players describes the game's players, indexed by game.PlayerID.
	Players() []Player
	// Me returns the local player in the game; ok is false for a spectator.
	Me() (p game.PlayerID, ok bool)
	// Propose sends an order of the local player.
	Propose(game.Command) error
	// WorldEvents appends the world's events of every turn applied since the
	// last call (World.Events holds only the last turn's) and forgets them.
	WorldEvents(dst []game.Event) []game.Event

	// Status is the network panel's content (F3).
	Status() NetStatus
	// Events appends what happened since the last call and forgets it.
	Events(dst []Event) []Event
}

// Pauser is implemented by clients that can stop their clock (the replay
// viewer; an offline game, for tests). A game's pause is not this: it is
// a game command (game.CmdPause) that every peer applies.
type Pauser interface {
	SetPaused(bool)
}

// Loader is implemented by clients whose game waits for the window: the
// game screen calls ScreenLoaded once it has built itself from the loaded
// world and drawn it, and the session starts turn 1 when every player's
// screen is up.
type Loader interface {
	ScreenLoaded()
}

// Saver is implemented by clients that can save the running game to a
// file (the offline client; the network client when this peer hosts). The
// pause menu offers "Save game" when the client is a Saver and this peer
// hosts; Save returns the path of the file written.
type Saver interface {
	Save() (path string, err error)
}

// Rejoiner is implemented by clients that keep a record of the game the
// player is in (the network client), so that a Hostfall whose process was
// stopped takes the player back to its own slot: the browser offers
// "Rejoin GAME" while there is a record.
type Rejoiner interface {
	// LastGame describes the game to rejoin: ErrNoLastGame when there is
	// none, another error (a sentence) when its record cannot be used.
	LastGame() (LastGame, error)
	// Rejoin asks that game's players for it and takes the player's slot
	// back; it returns at once. Rejoining tells how far it got, and the
	// game screen shows once the game took the player back; a failure
	// arrives as an EvRefused sentence.
	Rejoin(JoinOptions) error
	// Rejoining is the progress of the rejoin under way (Active false
	// when there is none, or once the player has caught up).
	Rejoining() RejoinStatus
	// ForgetLastGame drops the record (the player will not go back).
	ForgetLastGame()
}

// ErrNoLastGame says there is no game to rejoin.
var ErrNoLastGame = errors.New("no game to rejoin")

// LastGame is the game a Rejoiner can take the player back to.
type LastGame struct {
	Name    string    // the session's name
	Players []string  // the other players' names
	Updated time.Time // when the record was last written
}

// RejoinStatus is the progress of a rejoin.
type RejoinStatus struct {
	Game   string // the session's name
	Active bool   // asking for the game, loading it or catching up
	Joined bool   // a host took the player back
	Turn   uint64 // while catching up: the turn applied…
	Of     uint64 // …of the host's newest
	Text   string // what it does now, as a sentence to show
}

// Replayer is implemented by clients that play a recorded game back (the
// replay viewer). The game screen is then a spectator's: no orders, and
// the replay's controls (pause, speed, progress, whose view shows) in
// place of the command card. Lobby reports the recorded game as playing
// until Leave.
type Replayer interface {
	Pauser
	// SetSpeed sets the playback speed; 1 is the recorded rate.
	SetSpeed(float64)
	// Seek plays on, as fast as it can, to the turn at fraction f (0..1) of
	// the recording; a turn before the current one starts over from the
	// beginning.
	Seek(f float64)
	// Replay describes the playback.
	Replay() ReplayStatus
}

// ReplayStatus is the replay viewer's progress.
type ReplayStatus struct {
	Turn  uint64 // the last recorded turn played (0 before the first)
	Turns uint64 // the recording's last turn
	// Time and Length are the game time now and at the recording's end,
	// in ticks (game.World.Time: the clock the players saw, which stood
	// still while the game was paused).
	Time, Length int
	Speed        float64
	Paused       bool
	Checked      int  // recorded state hashes the playback has matched so far
	Over         bool // every recorded turn has been played
	// Problem says in words a person reads what went wrong: the state
	// differs from the recording's (a hash mismatch), or a turn cannot be
	// played. "" while all is well.
	Problem string
	Stopped bool // the problem ended playback before the last turn
	// Follow is the game player whose view the viewer asked to see first,
	// -1 for every player; the screen's controls change it from there.
	Follow int
}

// Source says where the browser found a session.
type Source uint8

const (
	SourceLAN   Source = iota // mDNS on the local network
	SourceRelay               // the relay's session directory
)

func (s Source) String() string {
	if s == SourceRelay {
		return "relay"
	}
	return "LAN"
}

// Listing is one session in the browser.
type Listing struct {
	ID      string // what Join takes
	Name    string
	Host    string // the host player's name
	Players int
	Max     int
	State   session.LobbyState
	Locked  bool // joining needs a password
	Source  Source
}

// CreateOptions set up a new session.
type CreateOptions struct {
	Name       string // session name
	PlayerName string
	Password   string // "" for none
	MaxPlayers int    // 2..8; 0 means 4
	MapSeed    uint64
	MapSize    int // tiles a side; 0 means the game's default
	// Internet puts the game on the public libp2p network and gives it a
	// short invite code (clients that cannot refuse it in a sentence).
	Internet bool
}

// JoinOptions go with a join request.
type JoinOptions struct {
	PlayerName string
	Password   string
	Spectate   bool
}

// Player is one game player as the screens name it.
type Player struct {
	Name  string
	Slot  int // lobby slot
	Color uint8
	Team  uint8 // lobby team, 0 for none
	Bot   bool
}

// PeerStatus is one connected player in the network panel.
type PeerStatus struct {
	Name       string
	Slot       int
	Host       bool
	Self       bool
	PingMillis float64 // round trip; negative when not measured
	Path       Path    // how this peer is reached over the internet
	// Limited: the game reaches this peer through a relay that limits each
	// circuit (a public relay); Renewed counts the fresh circuits since.
	Limited bool
	Renewed int
	// Via: the player of this game whose relay carries the connection to
	// this peer (no direct path was found); "" when none does.
	Via string
}

// Path is how a peer is reached in an internet game.
type Path uint8

const (
	PathUnknown Path = iota // not an internet peer (the LAN, a relay of one's own), or not yet known
	PathRelayed             // through a relay only: hole punching is trying to go direct
	PathDirect              // a direct connection
)

// String says the path in the network panel's words.
func (p Path) String() string {
	switch p {
	case PathRelayed:
		return "relay — trying to go direct"
	case PathDirect:
		return "direct"
	}
	return ""
}

// NetStatus is what the network panel shows.
type NetStatus struct {
	Online     bool   // false for an offline game
	Host       string // the hosting player's name
	Epoch      uint64 // host generation: 1 for the first host, +1 a hand-over
	Turn       uint64
	InputDelay int // turns
	TurnMillis int
	Peers      []PeerStatus
	BytesIn    float64 // per second
	BytesOut   float64
	// Invite is the invite code of the game this peer hosts through a
	// relay (what friends type into their browser's code field); "" when
	// there is none. With internet play it is the short code (K7Q2-9XPM).
	Invite string
	// InviteLong is, when Invite is the short code of a game hosted through
	// a relay of one's own, the long code: friends who do not play through
	// that relay paste it (it names the relay). "" otherwise.
	InviteLong string
	// Internet is the progress of internet play (joining the public
	// network, publishing the game, finding a code), also while browsing.
	Internet InternetStatus
}

// InternetStatus is how far internet play got, in the player's words.
type InternetStatus struct {
	// Available: this client can play over the internet when asked (a
	// Create with Internet, a short code typed).
	Available bool
	Always    bool   // started with --internet: every hosted game is published
	On        bool   // on the public network now
	Text      string // the newest step as a sentence ("" none)
	Failed    bool   // Text says what went wrong and what to try
}

// EventKind says what an Event reports.
type EventKind uint8

const (
	EvNone           EventKind = iota
	EvHostChanged              // Name is now hosting; the hand-over took Millis; Text, when set, says it instead (this player hosted before)
	EvWaiting                  // the game waits for Name (OtherPlayers: a new host for its followers), away in Seconds
	EvWaitOver                 // the wait for Name ended
	EvPlayerLeft               // Name left the game; Text says why
	EvDesync                   // the game states diverged at Turn; a repair is under way
	EvDesyncRepaired           // the divergence was repaired (state of Turn restored)
	EvChat                     // Name said Text (to Team, 0 for everyone)
	EvRefused                  // a join or an action was refused: Text is the sentence
	EvCountdown                // the game starts in Count
	EvLeft                     // the client left the session: Text says why
	EvNotice                   // Text for the player
)

var eventKindNames = [...]string{"none", "host-changed", "waiting", "wait-over", "player-left", "desync",
	"desync-repaired", "chat", "refused", "countdown", "left", "notice"}

func (k EventKind) String() string {
	if int(k) < len(eventKindNames) {
		return eventKindNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", uint8(k))
}

// Event is something the screens show or play. Kind says which fields are set.
type Event struct {
	Kind    EventKind
	Name    string
	Millis  int
	Seconds int
	Turn    uint64
	Count   int
	Team    uint8
	Text    string
}

// SessionEvent converts an event of the session engine into what the screens
// show: peer IDs become player names (from lobby) and ticks become time
// (tickMillis a tick). Events the screens do not show give ok false.
func SessionEvent(ev session.Event, lobby *session.Lobby, tickMillis int) (out Event, ok bool) {
	name := func(slot int) string {
		if lobby != nil && slot >= 0 && slot < len(lobby.Slots) && lobby.Slots[slot].Name != "" {
			return lobby.Slots[slot].Name
		}
		return fmt.Sprintf("player %d", slot+1)
	}
	switch ev.Kind {
	case session.EvHostChanged:
		n := string(ev.NewHost)
		if lobby != nil {
			if s := lobby.SlotOf(ev.NewHost); s >= 0 {
				n = name(s)
			}
		}
		return Event{Kind: EvHostChanged, Name: n, Millis: ev.Ticks * tickMillis}, true
	case session.EvWaiting:
		n := ev.Name
		if n == "" {
			n = name(ev.Slot)
		}
		secs := (ev.TicksLeft*tickMillis + 999) / 1000
		return Event{Kind: EvWaiting, Name: n, Seconds: secs}, true
	case session.EvWaitOver:
		n := ev.Name
		if n == "" {
			n = name(ev.Slot)
		}
		return Event{Kind: EvWaitOver, Name: n}, true
	case session.EvPlayerLeft:
		return Event{Kind: EvPlayerLeft, Name: name(ev.Slot), Turn: ev.Turn, Text: ev.Reason.String()}, true
	case session.EvPlayerAway:
		return Event{Kind: EvNotice, Name: name(ev.Slot), Turn: ev.Turn,
			Text: name(ev.Slot) + " is away: their units hold until they are back"}, true
	case session.EvPlayerBack:
		return Event{Kind: EvNotice, Name: name(ev.Slot), Turn: ev.Turn, Text: name(ev.Slot) + " is back"}, true
	case session.EvDesync:
		e := Event{Kind: EvDesync, Turn: ev.Turn}
		if ev.Desync != nil {
			e.Turn = ev.Desync.Turn
		}
		return e, true
	case session.EvDesyncRepaired:
		return Event{Kind: EvDesyncRepaired, Turn: ev.Turn}, true
	case session.EvChat:
		if ev.Chat == nil {
			return Event{}, false
		}
		return Event{Kind: EvChat, Name: ev.Chat.FromName, Team: ev.Chat.Team, Text: ev.Chat.Text}, true
	case session.EvRefused:
		text := ev.Text
		if ev.Refusal != nil && ev.Refusal.Text != "" {
			text = ev.Refusal.Text
		}
		return Event{Kind: EvRefused, Text: text}, true
	case session.EvCountdown:
		return Event{Kind: EvCountdown, Count: ev.Count}, true
	case session.EvLeft:
		return Event{Kind: EvLeft, Text: ev.Text}, true
	}
	return Event{}, false
}

// SessionPlayers returns the game's players of a lobby: the slots that hold
// a human or a bot, in slot order (the mapping match.Config uses).
func SessionPlayers(l *session.Lobby) []Player {
	var ps []Player
	for i, s := range l.Slots {
		if s.HoldsPlayer() {
			ps = append(ps, Player{Name: s.Name, Slot: i, Color: s.Color, Team: s.Team, Bot: s.Kind == session.SlotBot})
		}
	}
	return ps
}

// CryptoRand is randomness from crypto/rand: a session's password nonces
// (session.Config.Rand) and new map seeds (NewSeed).
type CryptoRand struct{}

// Uint64 returns 8 random bytes.
func (CryptoRand) Uint64() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails on supported platforms
	return binary.LittleEndian.Uint64(b[:])
}

// Skirmish creates a game on c with bots of the given levels (0 easy, 1
// normal, 2 hard) in the slots after the player's, and starts it when start is set
// (otherwise the lobby stays open for players to join). o.MaxPlayers 0
// means the player and the bots.
func Skirmish(c Client, o CreateOptions, bots []uint8, start bool) error {
	if o.MaxPlayers == 0 {
		o.MaxPlayers = len(bots) + 1
	}
	if err := c.Create(o); err != nil {
		return err
	}
	for i, lvl := range bots {
		if err := c.SetSlot(i+1, session.SlotBot, lvl); err != nil {
			return err
		}
	}
	if !start {
		return nil
	}
	return c.Start()
}

// Settings are the session settings o asks for: 4 players when it names
// none, a new map seed when it names none.
func (o CreateOptions) Settings() session.Settings {
	s := session.Settings{Name: o.Name, MapSeed: o.MapSeed, MapSize: uint32(o.MapSize),
		MaxPlayers: uint32(o.MaxPlayers), Password: o.Password}
	if s.MaxPlayers == 0 {
		s.MaxPlayers = 4
	}
	if s.MapSeed == 0 {
		s.MapSeed = NewSeed()
	}
	return s
}

// OtherPlayers is the Name of an EvWaiting that waits for every other player
// (a new host without a majority, before it plays on with its followers).
const OtherPlayers = session.OtherPlayers

// WaitText is the sentence shown while the game waits for name (an
// EvWaiting), secs seconds before it goes on without them.
func WaitText(name string, secs int) string {
	if name == OtherPlayers {
		return fmt.Sprintf("Waiting for the other players… playing on without them in %d s", secs)
	}
	return fmt.Sprintf("Waiting for %s… away in %d s", name, secs)
}
