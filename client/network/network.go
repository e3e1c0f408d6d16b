// Package network is Hostfall's network client, the same for the window
// and for headless peers: one transport.Host for the process (Start builds it
// with the LAN and a relay around a Client) and, for each session the
// player creates, joins or resumes, a Peer that runs the session engine and
// the game against the other peers. It imports no graphics, so tests drive
// it without a window.
//
// Peer.Run is the loop: one select over the transport's inbound messages
// and connection changes, a 10 ms ticker, requests from other goroutines
// and ctx, around a match.Driver that handles each Ready in one order (the
// game, then the messages and events, then Advance, then what the game
// hands the node). The loop never waits for a reader of the world: View
// reads a copy the match publishes, so a window building its game screen
// cannot hold up the session. With Match.ScreenLoads the session hears
// Loaded only from Peer.Loaded, once the window shows the game.
//
// Goroutines: each session has the peer's loop and a pump that turns the
// peer's events into the screens' (client.Event), writes the replay, desync
// reports and saves and tells the player where they went, and does what a
// peer without a player does (Options.ReadyOnJoin, StartWith). The window
// calls the Client's methods from its own goroutine; they return at once (a
// join's outcome arrives as events); a headless peer waits in PlayOut. A
// Client's lock is never held while it waits for the peer's loop, and the
// loop's callbacks (world events) take only a lock of their own, so neither
// waits for the other.
//
// Sessions to join come from a Browser (the LAN's mDNS browser, a relay's
// directory, or Static for tests); invite codes from a CodeResolver. Both
// are optional, and joining without them is refused in a sentence.
package network

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/client"
	"hostfall/game"
	"hostfall/game/ai"
	"hostfall/internal/codeform"
	"hostfall/match"
	"hostfall/p2p/transport"
	"hostfall/savegame"
	"hostfall/session"
)

// Options configure a Client.
type Options struct {
	// Host is the process's libp2p host (required). The Client does not
	// close it.
	Host *transport.Host
	// Browser lists the sessions to join; nil lists none.
	Browser Browser
	// ResolveCode finds the host an invite code names; nil refuses codes.
	ResolveCode CodeResolver
	// OnSession, when set, is called as each session's peer starts (hosting
	// or joining); ctx ends when the session does. It must return quickly:
	// this is where the LAN announcement of a hosted lobby plugs in.
	OnSession func(ctx context.Context, p *Peer)
	// Invite, when set, returns the invite code of this machine's host
	// ("" while it has none); the status offers it while this peer hosts.
	// UseRelay sets it.
	Invite func() string
	// ShortInvite, when set, returns the short code of the lobby this
	// machine hosts through a relay ("" while it has none); the status then
	// offers it as the invite code and Invite's as the long one. UseRelay
	// sets it.
	ShortInvite func() string
	// OnEvent, when set, sees every event of each session's peer, from the
	// session's pump, before the screens do: where a window peer's status
	// lines come from. It must return quickly and not wait for the peer.
	OnEvent func(p *Peer, ev Event)
	// OnFound, when set, is told the host a join found and how long
	// finding it took (mDNS, an invite, a relay's directory).
	OnFound func(host transport.AddrInfo, took time.Duration)
	// OnFile, when set, is told of each file the client wrote for the
	// player (a replay, a desync report, a save), or failed to.
	OnFile func(File)
	// GameVersion must match the other peers'.
	GameVersion string
	// ReplayDir receives a replay of every game played; "" saves none.
	ReplayDir string
	// ReportDir receives the desync reports; "" writes none.
	ReportDir string
	// SaveDir receives the games this client saves while hosting; "" saves none.
	SaveDir string
	// LastGameDir keeps the record of the game the player is in, while it
	// plays one with other players, so that Rejoin finds it again after the
	// process was stopped; "" keeps none (see LastGame).
	LastGameDir string
	// RejoinTimeout bounds Rejoin's search for the game (default 30 s).
	RejoinTimeout time.Duration
	// LANBrowser, when set and Browser is not, starts a browser of the LAN's
	// sessions for a Rejoin to look among (stopped with ctx).
	LANBrowser func(ctx context.Context) Browser
	// TurnLimit ends the games this client hosts at that turn (0: when a
	// team wins).
	TurnLimit uint64
	// AwayBot is the games' choice for an away player's slot (see
	// session.Lobby.AwayBot): 0 its units hold, L a bot of level L−1 plays.
	AwayBot uint32
	// Session tunes the session engine (tests: a short countdown).
	Session session.Config
	// TickMillis is the session tick (default session.DefaultTickMillis).
	TickMillis int
	// WaitScreen: the window calls ScreenLoaded once its game screen shows
	// the loaded game, and turn 1 waits for that (a window takes a moment to
	// build its screen; the others see "waiting for" it meanwhile).
	WaitScreen bool
	// JoinTimeout bounds reaching a host and hearing its answer (default 15 s).
	JoinTimeout time.Duration
	Logger      *slog.Logger

	// What a peer without a player does (headless peers, `host` with
	// --players): a bot of SelfLevel plays this peer's own slot when
	// SelfBot is set; a joiner says it is ready as soon as it is in
	// (ReadyOnJoin); a host starts the game once StartWith players (itself
	// included) are in and ready (0: only when asked).
	SelfBot     bool
	SelfLevel   ai.Level
	ReadyOnJoin bool
	StartWith   int
	// SaveAt: a host saves the game once, after the first turn at or past
	// it, into SaveDir (0: never).
	SaveAt uint64
	// PeerOptions, when set, adjusts each session peer's options (traces).
	PeerOptions func(*PeerOptions)
}

// FileKind says what a File is.
type FileKind uint8

const (
	FileReplay FileKind = iota + 1
	FileReport          // a desync report
	FileSave
)

// File is a file the client wrote for the player, or Err says why it did
// not (a sentence).
type File struct {
	Kind FileKind
	Path string
	Turn uint64
	Hash uint64 // a save's state hash
	Err  error
}

// Refusals a person reads.
var (
	ErrNoBrowser = errors.New("this Hostfall has no list of games to join")
	ErrNoInvites = errors.New("joining by invite code needs a relay, and this Hostfall has none configured")
	// ErrNoInternetPlay refuses an internet game to a client built without it.
	ErrNoInternetPlay = errors.New("this Hostfall cannot play over the internet: start it without --relay (a relay of your own and the public network are alternatives)")
	ErrNotInGame      = errors.New("you are not in a game")
	ErrBusy           = errors.New("leave this game before you create or join another one")
)

// Client is the network client.Client.
type Client struct {
	opt  Options
	log  *slog.Logger
	tick time.Duration

	mu     sync.Mutex // guards the fields below
	sess   *netSession
	ending *netSession // left, its peer still stopping

	events client.EventLog

	stops      []func()        // what Start built, stopped by Close
	inet       *inetPlay       // internet play (Start with Wiring.Internet or InternetWhenAsked); nil: none
	relayReady <-chan struct{} // Wiring.AwaitRelay

	wevents client.WorldLog // added to by the peer's loop
	stepped atomic.Int64    // unix nanos of the last applied turn

	lastMu   sync.Mutex // guards the record of the last game: the file and its copy
	last     *LastGame  // the record as written or read (nil: none)
	lastErr  error      // why the record cannot be read
	lastRead bool       // last and lastErr hold what the file holds
}

var (
	_ client.Client    = (*Client)(nil)
	_ client.Saver     = (*Client)(nil)
	_ client.Loader    = (*Client)(nil)
	_ client.Rejoiner  = (*Client)(nil)
	_ client.LobbyHost = (*Client)(nil)
)

// netSession is one session: its peer, and what the pump learnt.
type netSession struct {
	peer   *Peer
	ctx    context.Context    // ends with the session
	cancel context.CancelFunc // ends the peer's loop and OnSession's ctx
	done   chan struct{}      // closed when the pump has finished
	replay *ReplayFile

	name        string        // the player's
	password    string        // the session's, kept in the record of the last game
	autoStarted bool          // pump only: Options.StartWith started the game
	ended       chan struct{} // closed by the pump at the game's end
	rejoin      *rejoining    // set when the session rejoins the last game

	// The record of the last game, under Client.lastMu: whether this
	// session wrote it (it may remove only a record of its own, or the one
	// it rejoins), and whether it is done with it.
	recorded, unrecorded bool

	// Guarded by Client.mu.
	players []client.Player
	started *session.Lobby // the lobby the game loaded from
	refusal string         // the refusal shown, so the EvLeft that repeats it is not
}

// New returns a client on host opt.Host; Close ends its session.
func New(opt Options) (*Client, error) {
	if opt.Host == nil {
		return nil, errors.New("network: Options.Host is required")
	}
	if opt.TickMillis <= 0 {
		opt.TickMillis = session.DefaultTickMillis
	}
	if opt.JoinTimeout <= 0 {
		opt.JoinTimeout = 15 * time.Second
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	return &Client{opt: opt, log: opt.Logger, tick: time.Duration(opt.TickMillis) * time.Millisecond}, nil
}

// Close leaves the session, if any, and waits (a few seconds at most) for
// its peer to stop.
func (c *Client) Close() error {
	c.Leave()
	c.waitEnding(5 * time.Second)
	for i := len(c.stops) - 1; i >= 0; i-- {
		c.stops[i]()
	}
	c.stops = nil
	return nil
}

// P2P is this machine's libp2p host.
func (c *Client) P2P() *transport.Host { return c.opt.Host }

// Addr is this machine's host with its addresses: what another peer dials.
func (c *Client) Addr() transport.AddrInfo {
	return transport.AddrInfo{ID: c.opt.Host.ID(), Addrs: c.opt.Host.Addrs()}
}

func (c *Client) current() *netSession {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sess
}

// sessionOpts say what kind of session begin starts.
type sessionOpts struct {
	name, password    string // the player's name; the session's password (joining, or the one a host set)
	spectate, hosting bool
	rejoin            *rejoining
}

// begin starts a peer for a new session; the caller hosts or joins with it.
func (c *Client) begin(so sessionOpts) (*netSession, error) {
	name, password, spectate, hosting := so.name, so.password, so.spectate, so.hosting
	if !c.waitEnding(3 * time.Second) {
		return nil, errors.New("the last game is still closing; try again in a moment")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sess != nil {
		return nil, ErrBusy
	}
	if c.inet != nil {
		c.inet.say("", false) // the last session's progress is old news
	}
	s := &netSession{done: make(chan struct{}), ended: make(chan struct{}), name: name, password: password, rejoin: so.rejoin}
	if c.opt.ReplayDir != "" {
		s.replay = NewReplayFile(c.opt.ReplayDir, c.opt.Host.ID().String(), func() string { return s.peer.Lobby().Name })
	}
	mo := match.Options{OnStep: c.onStep, ScreenLoads: c.opt.WaitScreen,
		SelfBot: c.opt.SelfBot, SelfLevel: c.opt.SelfLevel,
		OnReplayError: func(err error) { c.log.Error("replay not saved", "err", err) }}
	if s.replay != nil {
		mo.Replay = s.replay
		mo.NextReplay = func() io.Writer { c.nextReplay(s); return s.replay }
	}
	joinPassword := password
	if hosting {
		joinPassword = "" // the host's is in its settings
	}
	po := PeerOptions{
		Name: name, GameVersion: c.opt.GameVersion, Password: joinPassword, Spectate: spectate,
		Match: mo, Session: c.opt.Session, TickMillis: c.opt.TickMillis, Logger: c.log,
	}
	if f := c.opt.Host.IdentityFile(); f != "" {
		po.GenerationFile = f + ".generation"
	}
	if hosting {
		po.SaveAt = c.opt.SaveAt
	}
	if c.opt.PeerOptions != nil {
		c.opt.PeerOptions(&po)
	}
	peer, err := NewPeer(c.opt.Host, po)
	if err != nil {
		return nil, err
	}
	s.peer = peer
	ctx, cancel := context.WithCancel(context.Background())
	s.ctx, s.cancel = ctx, cancel
	c.sess = s
	c.wevents.Reset()
	go func() {
		if err := peer.Run(ctx); err != nil {
			c.log.Error("peer loop", "err", err)
		}
	}()
	go c.pump(s)
	if c.opt.OnSession != nil {
		c.opt.OnSession(ctx, peer)
	}
	return s, nil
}

// onStep keeps a turn's world events for WorldEvents (on the peer's loop).
func (c *Client) onStep(_ uint64, evs []game.Event) {
	c.wevents.Add(evs)
	c.stepped.Store(time.Now().UnixNano())
}

// drop ends a session that failed to get going.
func (c *Client) drop(s *netSession, refusal string) {
	c.mu.Lock()
	if refusal != "" {
		s.refusal = refusal
		c.push(client.Event{Kind: client.EvRefused, Text: refusal})
	}
	if c.sess == s {
		c.sess, c.ending = nil, s
	}
	c.mu.Unlock()
	s.cancel()
}

// waitEnding waits up to d for a left session's peer to stop; the host
// takes one session stream handler at a time.
func (c *Client) waitEnding(d time.Duration) bool {
	c.mu.Lock()
	e := c.ending
	c.mu.Unlock()
	if e == nil {
		return true
	}
	select {
	case <-e.done:
		return true
	case <-time.After(d):
		return false
	}
}

// Sessions lists what the browser sees.
func (c *Client) Sessions() []client.Listing {
	if c.opt.Browser == nil {
		return nil
	}
	return c.opt.Browser.Sessions()
}

// Create hosts a new session on this machine's host.
func (c *Client) Create(o client.CreateOptions) error {
	if o.Internet && c.inet == nil {
		return ErrNoInternetPlay
	}
	s, err := c.begin(sessionOpts{name: o.PlayerName, password: o.Password, hosting: true})
	if err != nil {
		return err
	}
	settings := o.Settings()
	settings.TurnLimit = c.opt.TurnLimit
	settings.AwayBot = c.opt.AwayBot
	if err := s.peer.Host(settings); err != nil {
		c.drop(s, "")
		return fmt.Errorf("cannot create the game: %w", err)
	}
	// The peer publishes its lobby right after Host returns; wait for it
	// so the lobby shows from the next frame on.
	for deadline := time.Now().Add(2 * time.Second); !s.peer.Status().Joined && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if o.Internet && !c.inet.always { // --internet publishes every hosted lobby already
		go c.goPublic(s)
	}
	return nil
}

// goPublic puts this peer on the public network, if it is not yet, and
// publishes s's lobby under a short code while s lasts.
func (c *Client) goPublic(s *netSession) {
	if err := c.inet.ensure(s.ctx); err != nil {
		return // ensure said what to try
	}
	c.inet.publish(s.ctx, s.peer)
}

// Resume hosts a saved game: the save decides the map, the slots and the
// bots; the session starts it once every player of the save is back and
// ready. o gives the player's and the session's name (empty: the save's)
// and the password; turnLimit 0 keeps the save's.
func (c *Client) Resume(sv *session.Saved, o client.CreateOptions, turnLimit uint64) error {
	s, err := c.begin(sessionOpts{name: o.PlayerName, password: o.Password, hosting: true})
	if err != nil {
		return err
	}
	if err := s.peer.Host(session.Settings{Name: o.Name, Password: o.Password, Resume: sv, TurnLimit: turnLimit, AwayBot: c.opt.AwayBot}); err != nil {
		c.drop(s, "")
		return err
	}
	return nil
}

// LoadGame hosts the saved game at path for the browser
// (client.GameLoader): its lobby waits for the save's other players to
// rejoin their slots; a save with no other human player starts at once.
func (c *Client) LoadGame(path string, o client.CreateOptions) error {
	sv, err := savegame.ReadFile(path)
	if err != nil {
		return err
	}
	if _, err := match.CheckSaved(sv.Saved); err != nil {
		return fmt.Errorf("%s cannot be resumed: %w", path, err)
	}
	if err := c.Resume(&sv.Saved, client.CreateOptions{PlayerName: o.PlayerName, Password: o.Password}, 0); err != nil {
		return err
	}
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(time.Millisecond) { // the lobby shows from the next frame on
		if _, ok := c.Lobby(); ok || time.Now().After(deadline) {
			break
		}
	}
	if l, ok := c.Lobby(); ok && waitsForNobody(l, c.Slot()) {
		return c.Start()
	}
	return nil
}

// waitsForNobody reports whether a resumed lobby has no human player but
// the local one still to come back (departed players count as ready).
func waitsForNobody(l session.Lobby, self int) bool {
	for i, s := range l.Slots {
		if s.Kind == session.SlotHuman && i != self && !s.Ready {
			return false
		}
	}
	return true
}

// Join asks the host of a listed session to let this player in.
func (c *Client) Join(id string, o client.JoinOptions) error {
	if c.opt.Browser == nil {
		return ErrNoBrowser
	}
	addr, err := c.opt.Browser.Resolve(id)
	if err != nil {
		return err
	}
	return c.join(o, func(context.Context) (transport.AddrInfo, error) { return addr, nil })
}

// JoinCode joins the session an invite code names.
func (c *Client) JoinCode(code string, o client.JoinOptions) error {
	if c.opt.ResolveCode == nil {
		return ErrNoInvites
	}
	if code == "" {
		return errors.New("type the invite code first")
	}
	if c.inet != nil && codeform.IsShort(code) { // typing a short code asks for internet play
		var host atomic.Value // the peer.ID the code named
		return c.joinWithin(o, max(c.opt.JoinTimeout, internetJoinWait), func(ctx context.Context) (transport.AddrInfo, error) {
			if err := c.inet.ensure(ctx); err != nil {
				return transport.AddrInfo{}, err
			}
			ai, err := c.opt.ResolveCode(ctx, code)
			if err != nil {
				err = findError(err)
				c.inet.say(capitalize(err.Error())+".", true)
			}
			host.Store(ai.ID)
			return ai, err
		}, func() { c.inet.joined(host.Load().(peer.ID)) })
	}
	return c.join(o, func(ctx context.Context) (transport.AddrInfo, error) { return c.opt.ResolveCode(ctx, code) })
}

// JoinVia joins the session whose host r finds (an address, a LAN session
// name, an invite code: whatever the command line named).
func (c *Client) JoinVia(r transport.Resolver, o client.JoinOptions) error {
	return c.join(o, func(ctx context.Context) (transport.AddrInfo, error) { return r.Resolve(ctx, c.opt.Host) })
}

// join starts a peer and, on a goroutine, finds the host, dials it and
// waits for its answer; a failure becomes a refusal the browser shows.
func (c *Client) join(o client.JoinOptions, find func(context.Context) (transport.AddrInfo, error)) error {
	return c.joinWithin(o, c.opt.JoinTimeout, find, nil)
}

// joinWithin is join with a time limit of its own for finding and reaching the host.
// in, when set, is called once the host took the player in.
func (c *Client) joinWithin(o client.JoinOptions, limit time.Duration, find func(context.Context) (transport.AddrInfo, error), in func()) error {
	s, err := c.begin(sessionOpts{name: o.PlayerName, password: o.Password, spectate: o.Spectate})
	if err != nil {
		return err
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), limit)
		defer cancel()
		if why := c.reach(ctx, s, find, in != nil); why != "" {
			c.drop(s, why)
		} else if in != nil && s.peer.Status().Joined {
			in()
		}
	}()
	return nil
}

// reach joins through s's peer; it returns the refusal to show, or "".
// With internet, a host found but out of reach is told what to try.
func (c *Client) reach(ctx context.Context, s *netSession, find func(context.Context) (transport.AddrInfo, error), internet bool) string {
	began := time.Now()
	c.awaitRelay(ctx)
	addr, err := find(ctx)
	if err != nil {
		c.log.Warn("cannot find the game's host", "err", err)
		return capitalize(err.Error()) + "."
	}
	if c.opt.OnFound != nil {
		c.opt.OnFound(addr, time.Since(began))
	}
	for delay := 100 * time.Millisecond; ; delay = min(2*delay, time.Second) {
		err = s.peer.Join(ctx, addr)
		if err == nil || errors.Is(err, ErrClosed) {
			break
		}
		select {
		case <-ctx.Done():
			c.log.Warn("cannot reach the game's host", "host", addr.ID, "err", err)
			if internet {
				return "Could not reach the game's host. " + unreachableHint
			}
			return "Could not reach the game's host: it may have closed, or a firewall is in the way."
		case <-time.After(delay):
		}
	}
	for {
		st := s.peer.Status()
		switch {
		case st.Joined || st.Left:
			return "" // in, or refused (the refusal is an event of its own)
		case ctx.Err() != nil && internet:
			return "The game's host did not answer. " + unreachableHint
		case ctx.Err() != nil:
			return "The game's host did not answer."
		}
		select {
		case <-s.peer.Done():
		case <-ctx.Done():
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Leave leaves the session; its peer says goodbye and stops in the
// background, and the browser shows again at once. The player left on
// purpose: the record of the game goes too.
func (c *Client) Leave() {
	c.mu.Lock()
	s := c.sess
	if s != nil {
		c.sess, c.ending = nil, s
	}
	c.mu.Unlock()
	if s == nil {
		return
	}
	c.unrecord(s, "the player left")
	go func() {
		_ = s.peer.Leave() // ErrClosed when the loop already stopped
		select {
		case <-s.peer.Done():
		case <-time.After(2 * time.Second):
		}
		s.cancel()
	}()
}

// Lobby returns the session's lobby once this player is in it.
func (c *Client) Lobby() (session.Lobby, bool) {
	s := c.current()
	if s == nil {
		return session.Lobby{}, false
	}
	if st := s.peer.Status(); !st.Joined || st.Left {
		return session.Lobby{}, false
	}
	return s.peer.Lobby(), true
}

// Slot returns the local player's slot, -1 for a spectator or outside a session.
func (c *Client) Slot() int {
	s := c.current()
	if s == nil {
		return -1
	}
	if st := s.peer.Status(); st.Joined {
		return st.Slot
	}
	return -1
}

// act runs fn with the current game's session node, on its peer's loop.
func (c *Client) act(fn func(n *session.Node) error) error {
	s := c.current()
	if s == nil {
		return ErrNotInGame
	}
	return notInGame(s.peer.withNode(fn))
}

// notInGame is err, with a stopped peer reported as no game.
func notInGame(err error) error {
	if errors.Is(err, ErrClosed) {
		return ErrNotInGame
	}
	return err
}

// SetSlot opens, closes or puts a bot in a slot (host only).
func (c *Client) SetSlot(slot int, kind session.SlotKind, botLevel uint8) error {
	return c.act(func(n *session.Node) error { return n.SetSlot(slot, kind, botLevel) })
}

// EditSlot changes the local player's slot.
func (c *Client) EditSlot(e session.SlotEdit) error {
	return c.act(func(n *session.Node) error { return n.EditSlot(e) })
}

// Configure changes what the host chooses in the lobby (client.LobbyHost),
// with the session's password; the rest of the settings stay as the lobby
// has them when the loop gets to it.
func (c *Client) Configure(st client.Setup) error {
	s := c.current()
	if s == nil {
		return ErrNotInGame
	}
	return notInGame(s.peer.withNode(func(n *session.Node) error {
		l := n.Lobby()
		return n.Configure(st.Settings(&l, s.password))
	}))
}

// EditBot sets a bot's colour and team (host only).
func (c *Client) EditBot(slot int, e session.SlotEdit) error {
	return c.act(func(n *session.Node) error { return n.EditBot(slot, e) })
}

// Kick removes a player from the session (host only).
func (c *Client) Kick(slot int) error {
	return c.act(func(n *session.Node) error { return n.Kick(slot) })
}

// Say sends a chat line to everyone (team 0) or to a team.
func (c *Client) Say(team uint8, text string) error {
	return c.act(func(n *session.Node) error { return n.Say(team, text) })
}

// Start begins the countdown (host only); a game needs two players.
func (c *Client) Start() error { return c.act(start) }

// start is the host's start: the game's rule (two sides), then the
// session's (every player ready).
func start(n *session.Node) error {
	if err := match.CheckStart(n.Lobby()); err != nil {
		return err
	}
	return n.Start()
}

// View reads the world; it reports whether a game is loaded.
func (c *Client) View(fn func(w *game.World, stepped time.Time)) bool {
	s := c.current()
	if s == nil {
		return false
	}
	return s.peer.View(func(w *game.World) { fn(w, time.Unix(0, c.stepped.Load())) })
}

// ScreenLoaded says the game screen shows the loaded game (client.Loader).
func (c *Client) ScreenLoaded() {
	if s := c.current(); s != nil {
		_ = s.peer.Loaded() // ErrClosed: the session ended meanwhile
	}
}

// Players describes the game's players, indexed by game.PlayerID.
func (c *Client) Players() []client.Player {
	s := c.current()
	if s == nil {
		return nil
	}
	return c.players(s)
}

// players are s's game's players: from the lobby the game loaded from,
// or, until the pump has seen it (a rejoin loads the game at once), from
// the peer's lobby once it is loading.
func (c *Client) players(s *netSession) []client.Player {
	c.mu.Lock()
	ps := slices.Clone(s.players)
	c.mu.Unlock()
	if ps == nil {
		if l := s.peer.Lobby(); l.State >= session.StateLoading {
			ps = client.SessionPlayers(&l)
		}
	}
	return ps
}

// Me returns the local player in the game.
func (c *Client) Me() (game.PlayerID, bool) {
	s := c.current()
	if s == nil {
		return 0, false
	}
	return c.meIn(s)
}

// meIn is the player's game player number in s's game.
func (c *Client) meIn(s *netSession) (game.PlayerID, bool) {
	slot := s.peer.Status().Slot
	for i, p := range c.players(s) {
		if p.Slot == slot && slot >= 0 {
			return game.PlayerID(i), true
		}
	}
	return 0, false
}

// Propose sends an order of the local player.
func (c *Client) Propose(cmd game.Command) error {
	s := c.current()
	if s == nil {
		return ErrNotInGame
	}
	return notInGame(s.peer.Propose(cmd))
}

// WorldEvents drains the world's events of the turns applied since the last call.
func (c *Client) WorldEvents(dst []game.Event) []game.Event { return c.wevents.Drain(dst) }

// Status is the network panel's content.
func (c *Client) Status() client.NetStatus {
	s := c.current()
	if s == nil {
		return client.NetStatus{Online: true, Internet: c.inet.status()}
	}
	l := s.peer.Lobby()
	pst := s.peer.Status()
	var path func(string) (client.Path, string)
	if c.inet != nil {
		path = c.inet.path
	}
	ns := netStatus(pst, &l, c.tick, path)
	ns.Internet = c.inet.status()
	if c.opt.Invite != nil && pst.IsHost && pst.Joined && !pst.Left {
		ns.Invite = c.opt.Invite()
		if c.opt.ShortInvite != nil && ns.Invite != "" {
			if short := c.opt.ShortInvite(); short != "" {
				ns.Invite, ns.InviteLong = short, ns.Invite
			}
		}
	}
	return ns
}

// Events drains what happened since the last call.
func (c *Client) Events(dst []client.Event) []client.Event { return c.events.Drain(dst) }

// push queues an event for the screens.
func (c *Client) push(e client.Event) { c.events.Push(e) }

// Skirmish creates a game with bots of the given levels in the slots after
// the player's, and starts it unless wait is set (then the lobby stays open
// for players to join): what `hostfall play` opens on.
func (c *Client) Skirmish(o client.CreateOptions, bots []uint8, wait bool) error {
	return client.Skirmish(c, o, bots, !wait)
}

func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// Save writes the running game to a save file (hosting peers only: the host
// holds the state every peer agreed on) and returns its path.
func (c *Client) Save() (string, error) {
	s := c.current()
	if s == nil {
		return "", ErrNotInGame
	}
	if c.opt.SaveDir == "" {
		return "", errors.New("this Hostfall has no place to keep saves")
	}
	sv, _, err := s.peer.SaveGame()
	if errors.Is(err, ErrNotHost) {
		return "", errors.New("only the host can save the game")
	}
	if err != nil {
		return "", err
	}
	return savegame.WriteFile(c.opt.SaveDir, &savegame.Save{Saved: sv, At: time.Now()})
}
