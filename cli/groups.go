package cli

import (
	"flag"
	"os"

	"hostfall/app"
	"hostfall/game/ai"
	"hostfall/p2p/transport"
)

// AddWindow adds the flags of every command that opens the window.
func AddWindow(fs *flag.FlagSet, w *app.Window) {
	fs.StringVar(&w.Name, "name", "", "your player name (default: the one saved in the options, else your login name)")
	AddDisplay(fs, w)
	AddVerbose(fs)
}

// AddDisplay adds the flags of the window itself.
func AddDisplay(fs *flag.FlagSet, w *app.Window) {
	fs.IntVar(&w.Width, "width", 0, "window width in pixels (default: the options' window, else 1024×768)")
	fs.IntVar(&w.Height, "height", 0, "window height in pixels (with --width; a size given here is a window, not full screen)")
	fs.IntVar(&w.FPS, "fps", 60, "frame rate cap")
	fs.BoolVar(&w.Mute, "mute", false, "play no sound (the options' volumes stay as saved)")
}

// AddNetwork adds the network flags of the commands that open the window
// on a network session (play, browse); offline describes --offline.
func AddNetwork(fs *flag.FlagSet, n *app.Network, offline string) {
	addHost(fs, &n.Identity, &n.Listen)
	fs.BoolVar(&n.Offline, "offline", false, offline)
	fs.StringVar(&n.Relay, "relay", "", "a Hostfall relay's multiaddr (ending in /p2p/<relay ID>): list its directory, be reachable through it, offer invite codes")
	AddInternet(fs, &n.Internet)
}

// addHost adds the flags of this machine's libp2p host.
func addHost(fs *flag.FlagSet, identity *string, listen *[]string) {
	fs.StringVar(identity, "identity", "", "identity key file (default: $"+transport.IdentityEnv+" or the user's config dir)")
	fs.Var((*Strings)(listen), "listen", "multiaddr to listen on (repeatable; default: TCP and QUIC on every interface)")
}

// idleLevel is the --level of a peer whose slot gives no orders.
const idleLevel = "none"

// HostJoinFlags is the flags host and join share: a network peer's.
type HostJoinFlags struct {
	app.HostJoin
	level string
}

// Add adds the peer's flags to fs.
func (p *HostJoinFlags) Add(fs *flag.FlagSet) {
	fs.BoolVar(&p.Headless, "headless", false, "no window: a bot plays this peer's slot")
	fs.BoolVar(&p.JSON, "status-json", false, "print one JSON object a line on stdout (the operating contract)")
	AddVerbose(fs)
	fs.StringVar(&p.Player, "player", "", "player name (default: in a window, the name saved in the options, else the OS account's; headless, the host name)")
	fs.StringVar(&p.Password, "password", "", "session password")
	fs.StringVar(&p.level, "level", "hard", "bot level: easy, normal or hard ("+idleLevel+": this peer's slot gives no orders, for network measurements)")
	addHost(fs, &p.Identity, &p.Listen)
	fs.StringVar(&p.Relay, "relay", "", "a Hostfall relay's multiaddr (ending in /p2p/<relay ID>): be reachable through it from the internet")
	AddInternet(fs, &p.Internet)
	AddDisplay(fs, &p.Window)
	fs.BoolVar(&p.ExitAtEnd, "exit-at-end", false, "window: close it when the game ends (a headless peer always exits then)")
}

// Parse parses the command line into the peer's options; a headless
// player is named after the host when --player is not given (a window's
// takes the name its settings keep: app).
func (p *HostJoinFlags) Parse(fs *flag.FlagSet, args []string) error {
	if err := Parse(fs, args); err != nil {
		return err
	}
	p.Idle = p.level == idleLevel
	var err error
	if p.Level, err = ai.ParseLevel(p.level); err != nil && !p.Idle {
		return Usagef("%v", err)
	}
	if p.Player == "" && p.Headless { // a window takes the player's saved name (app)
		p.Player, _ = os.Hostname()
		if p.Player == "" {
			p.Player = "player"
		}
		if len(p.Player) > 32 {
			p.Player = p.Player[:32]
		}
	}
	return nil
}
