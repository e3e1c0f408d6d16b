// Package game is Hostfall's deterministic real-time strategy simulation:
// a seeded map, workers, soldiers, archers and catapults, bases, barracks,
// towers and workshops, weapons and armor upgrades, gold, supply, fog of
// war, teams and victory. Given the same Config and the same
// commands in the same order, every peer computes bit-for-bit the same
// world, on any architecture. It does no I/O, reads no clock, starts no
// goroutine and holds no floating-point number.
//
// # Turns and ticks
//
// One session turn is one simulation tick. The session layer runs turns
// every 50 ms by default, so the game runs at 20 ticks a second and 12,000
// turns are ten minutes of play. All durations in Stats are in ticks.
//
//	w, err := game.NewWorld(game.Config{Seed: 7, Players: []game.PlayerConfig{{Team: 0}, {Team: 1}}})
//	for each committed turn {
//		w.Step(cmds)       // the turn's commands, in the session's order
//		w.Events()         // what happened, for render and sound
//		w.Hash()           // compare with peers
//	}
//
// Step applies the turn's commands in the given order, then advances one
// tick. Turn returns the number of Steps done; Time the ticks the world
// moved, which stand still while the game is paused.
//
// # Pause
//
// Any player but a bot may pause (CmdPause), PausesPerPlayer (3) times a
// game when two or more people play, at will alone against bots; the
// pauser or the host resumes (CmdResume), and the world moves again
// ResumeTurns (60) turns later. While paused, Step counts turns but moves
// nothing and takes only pause, resume and surrender commands (see
// pause.go). The pause is part of the hash and the snapshot. The same Config always makes
// the same world (NewWorld fails only on a bad config: 2 to 8 players, at
// least two teams, a map of 32 to 512 tiles a side, 128×128 by default).
//
// # Commands
//
// A Command carries the Player who gives it, but its binary encoding
// (AppendBinary, MarshalBinary; version byte first) does not:
// DecodeCommand(player, bytes) attributes it to the slot that sent it, so a
// peer cannot forge another player's command. Step still checks everything,
// identically on every peer, and never panics: a command naming another
// player's unit, a place off the map, an unknown kind, more than
// MaxCommandUnits IDs, a building that cannot be paid for or placed, a unit
// that cannot be supplied, or a target the player cannot see is refused with
// an EvRejected event whose Reason reads as a sentence ("not enough gold").
// IDs of units that died meanwhile are skipped, not refused.
//
// The kinds are move, attack (a unit), attack-move (to a tile), stop,
// gather, build, train, rally, research, surrender, pause and resume.
// Command.Host, like Player, is set by the caller, not decoded: the sender
// hosted the command's turn. When a player leaves a
// networked game, the caller applies a CmdSurrender of that player at the
// turn the session sequenced the departure; every peer then removes the
// player at the same tick.
//
// # Units, IDs and positions
//
// Units and buildings live in columns (struct of arrays) indexed by slot.
// A UnitID is the slot plus a generation counter (see UnitID), stable for
// the unit's life and never reused for another unit while it could be
// confused with it. Positions are fixed point: one tile is TileSize (256)
// subunits, so Point{X: 384, Y: 128} is the middle of tile (1, 0). Every
// unit stands on exactly one tile and no two units share one; buildings
// cover Size×Size tiles.
//
// Paths come from flow fields shared by all units with the same goal (see
// path.go for why); chasing a nearby enemy steers straight at it. Combat
// has damage, armor, range and cooldown; a spatial grid makes target
// searches cheap. Workers mine gold and carry it to the nearest base;
// buildings are paid when ordered and build themselves once placed;
// production queues reserve supply. Allied players share vision. A player
// without buildings is out; when one team is left it wins.
//
// # Content
//
// Stats (rules.go) has every number. A tower is a building that shoots the
// nearest enemy within 6 tiles (armed units first); it outranges archers
// and is outranged by the catapult, a slow siege unit trained at the
// workshop whose hits do 54 more damage to buildings, so towers defend and
// catapults break defences. The workshop also researches upgrades
// (CmdResearch): weapons (+1 damage a level for soldiers, archers,
// catapults and towers) and armor (+1 armor a level for every unit), three
// levels each, level n costing 100·n gold and 400+200·n ticks. A workshop
// researches one level at a time and trains nothing meanwhile; a level is
// researched at one workshop at a time; losing the workshop refunds it.
//
// # The end of a game
//
// A game ends when one team is left (a draw if the last teams fall on the
// same tick). Gold is finite, so two rules keep a game from stalling once
// the fields are mined out:
//
//   - A player who can never act again is out: no unit, nothing in
//     production or research, and not the gold for any unit their buildings
//     train (without units no gold comes in). When every team left is in
//     that state, the score decides at once.
//   - At ScoreTurn (48,000 turns, 40 minutes) at the latest the score
//     decides: the team with the highest World.Score (gold in hand, the cost
//     of everything standing and of the upgrades researched) wins; a tie
//     goes to the team that destroyed more, then to the lower team.
//
// The bots attack with whatever they have when their income stops (see
// game/ai), so bot games end by elimination; the score is the guarantee.
// (Before these rules `sim --players 2 --size 256 --seed 5` stood still
// from turn 24,000: both sides had lost every unit and had 15 and 30 gold.)
//
// # Reading the world
//
// Render, sound and bots read the world through accessors that copy
// nothing per frame: Size, Terrain and Gold (tile slices, row by row),
// Units (a view of the entity columns: ID, kind, owner, position, HP,
// order …), Unit (everything about one unit, production queue included),
// Player (gold, supply, counts), Fog (per player: Unexplored, Explored,
// Visible), Allied, Over and Winner. Returned slices belong to the world
// and are valid until the next Step or Restore. Events returns the events
// of the last Step: trained, attack, died, build started, building done,
// under attack (at most once per player every 5 s), rejected, player out,
// victory (ByScore when the score decided) and draw, and research done,
// each with its position, unit kind and players.
//
// # Hash, snapshots and determinism
//
// Hash is a 64-bit hash of the canonical state, cheap enough to compute
// every turn (about 0.2 ms for 10,000 units). Snapshot is a compact,
// versioned encoding of the whole state ("HFsn" header, version, CRC-32);
// Restore reads it into any World (its config travels with it) and
// restoring then snapshotting gives the same bytes. A snapshot that is
// damaged, truncated, from a newer version or inconsistent is refused with
// an error that says so, wrapping ErrBadSnapshot, and the world is left as
// it was.
//
// Determinism rules, checked by TestDeterministicSource: integers only, a
// seeded PRNG (RNG) stored in the world and included in hash and snapshot,
// no map iteration, no time, math/rand, os or net, no goroutines. Caches
// (flow fields, per-unit hints) never change a result, so they are neither
// hashed nor saved. TestDeterminism replays a 20,000-tick four-bot game into
// a second world and into a world restored at turn 5,000 and compares
// hashes every turn, and testdata/determinism.golden pins the results
// across builds and architectures (GOARCH=386 included). RulesVersion names
// the rules; a change that moves the golden file bumps it (and the snapshot
// version when the state grows), so replays and saves of other rules are
// refused with an error instead of desynchronizing.
//
// The bots that play a slot live in package game/ai.
package game
