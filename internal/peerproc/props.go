package peerproc

// What the process tests assert under load, in one place. A machine that is
// starved for a moment (a loaded CI runner, a newcomer's laptop building the
// suite) may see a live host replaced: the protocol allows it, so tests count
// such hand-overs as figures and assert only what must hold.

// HostChanges returns p's host_changed lines of the game (up to turn turns;
// after the end peers linger, and a host that leaves first may be replaced
// then): replaced is the first that replaced old (the host the test killed),
// ok false when none did; others counts the rest, hand-overs from a live host.
func HostChanges(p *Proc, old string, turns int64) (replaced Line, ok bool, others int) {
	for _, l := range p.Find("host_changed") {
		switch {
		case l.Int("turn") > turns:
		case !ok && l.Str("old") == old:
			replaced, ok = l, true
		default:
			others++
		}
	}
	return replaced, ok, others
}

// ReplayPaths returns the paths of the replays p saved: one, or one more for
// each time it took the game back by snapshot (a peer starved long enough to
// be marked away), whose replay ends there and goes on in another file.
func ReplayPaths(p *Proc) []string {
	var paths []string
	for _, l := range p.Find("replay") {
		paths = append(paths, l.Str("path"))
	}
	return paths
}
