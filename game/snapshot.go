package game

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// Snapshots. The encoding is compact and versioned:
//
//	"HFsn" magic, uvarint version, body, CRC-32 (IEEE, little endian) of
//	everything before it.
//
// The body holds the config, turn, PRNG, players, terrain (run-length),
// gold, starts, every entity slot (a free slot is its generation alone),
// the free list and each team's explored and visible tiles (run-length bit
// sets). Occupancy, solid tiles, cell counts, supply and unit counts are
// rebuilt from it; caches start empty. Encoding depends on state alone, so
// Restore followed by Snapshot gives the same bytes.

// SnapshotVersion is the version of the snapshot encoding. Version 2 added
// upgrades and research (RulesVersion 2), version 3 the pause, the game
// clock and bot slots (RulesVersion 3); a snapshot of an older version holds
// a game of other rules and is refused. RulesVersion 4 keeps the encoding:
// a player's out field, a turn before, is the game time now; the two differ
// only for a player who went out after a pause, so a save of version 3
// restores with that one figure of its end screen off.
const SnapshotVersion = 3

var snapshotMagic = [4]byte{'H', 'F', 's', 'n'}

// ErrBadSnapshot marks every error of Restore.
var ErrBadSnapshot = errors.New("bad snapshot")

// Snapshot returns the whole state of the world.
func (w *World) Snapshot() []byte {
	return w.AppendSnapshot(make([]byte, 0, 256+len(w.terrain)/4+w.e.len()*28))
}

// AppendSnapshot appends the snapshot to b.
func (w *World) AppendSnapshot(b []byte) []byte {
	start := len(b)
	b = append(b, snapshotMagic[:]...)
	b = binary.AppendUvarint(b, SnapshotVersion)
	b = binary.LittleEndian.AppendUint64(b, w.cfg.Seed)
	b = binary.AppendUvarint(b, uint64(w.w))
	b = binary.AppendUvarint(b, uint64(w.h))
	b = binary.AppendUvarint(b, uint64(w.np))
	for p := range w.np {
		b = append(b, byte(w.pl[p].team), byte(b2u(w.cfg.Players[p].Bot)))
	}
	b = binary.AppendUvarint(b, uint64(w.turn))
	b = binary.AppendUvarint(b, uint64(w.clock))
	b = append(b, byte(b2u(w.pause.on)), byte(w.pause.by), byte(w.pause.resumer))
	b = binary.AppendUvarint(b, uint64(w.pause.count))
	b = binary.LittleEndian.AppendUint64(b, w.rng.State)
	b = binary.LittleEndian.AppendUint64(b, w.rng.Inc)
	b = append(b, byte(b2u(w.over)), byte(w.winner+1))
	for p := range w.np {
		pl := &w.pl[p]
		b = append(b, byte(b2u(pl.out)))
		b = binary.AppendVarint(b, int64(pl.gold))
		b = binary.AppendVarint(b, int64(pl.outTime))
		b = binary.AppendVarint(b, int64(pl.lastAlert))
		for _, v := range [4]int32{pl.mined, pl.trained, pl.killed, pl.lost} {
			b = binary.AppendVarint(b, int64(v))
		}
		b = append(b, pl.up[UpNone+1:]...)
		b = append(b, pl.pauses)
	}
	b = appendRuns(b, w.terrain)
	for t, tr := range w.terrain {
		if tr == GoldField {
			b = binary.AppendUvarint(b, uint64(w.gold[t]))
		}
	}
	for _, s := range w.starts {
		b = binary.AppendUvarint(b, uint64(s.X))
		b = binary.AppendUvarint(b, uint64(s.Y))
	}
	b = w.appendEntities(b)
	b = binary.AppendUvarint(b, uint64(len(w.free)))
	for _, s := range w.free {
		b = binary.AppendUvarint(b, uint64(s))
	}
	for k := range w.fog {
		f := &w.fog[k]
		b = appendBitRuns(b, f.stamp, func(s uint32) bool { return s != 0 })
		b = appendBitRuns(b, f.stamp, func(s uint32) bool { return s == f.cur })
	}
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b[start:]))
}

func (w *World) appendEntities(b []byte) []byte {
	e := &w.e
	b = binary.AppendUvarint(b, uint64(e.len()))
	for i := range e.len() {
		b = binary.AppendUvarint(b, uint64(e.gen[i]))
		k := e.kind[i]
		b = append(b, byte(k))
		if k == KindNone {
			continue
		}
		b = append(b, byte(e.owner[i]), byte(e.order[i]), e.phase[i], e.cooldown[i], e.cargo[i], e.blocked[i], byte(e.bkind[i]))
		b = binary.AppendUvarint(b, uint64(e.x[i]))
		b = binary.AppendUvarint(b, uint64(e.y[i]))
		b = binary.AppendUvarint(b, uint64(e.hp[i]))
		b = binary.AppendUvarint(b, uint64(e.target[i]))
		for _, v := range [5]int16{e.gx[i], e.gy[i], e.rx[i], e.ry[i], e.timer[i]} {
			b = binary.AppendVarint(b, int64(v))
		}
		if stats[k].Building {
			b = binary.AppendUvarint(b, uint64(e.progress[i]))
			b = binary.AppendUvarint(b, uint64(e.qprog[i]))
			b = append(b, e.qlen[i])
			for q := range int(e.qlen[i]) {
				b = append(b, byte(e.queue[i][q]))
			}
			b = binary.AppendVarint(b, int64(e.rallyX[i]))
			b = binary.AppendVarint(b, int64(e.rallyY[i]))
			b = append(b, byte(e.research[i]))
		}
	}
	return b
}

// appendRuns writes tiles as (value, run length) pairs.
func appendRuns(b []byte, ts []Terrain) []byte {
	for i := 0; i < len(ts); {
		j := i + 1
		for j < len(ts) && ts[j] == ts[i] {
			j++
		}
		b = append(b, byte(ts[i]))
		b = binary.AppendUvarint(b, uint64(j-i))
		i = j
	}
	return b
}

// appendBitRuns writes the set {t : in(s[t])} as alternating run lengths,
// starting with a run of tiles outside the set.
func appendBitRuns(b []byte, s []uint32, in func(uint32) bool) []byte {
	want := false
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && in(s[j]) == want {
			j++
		}
		b = binary.AppendUvarint(b, uint64(j-i))
		i = j
		want = !want
	}
	return b
}

// Restore replaces the world's state with a snapshot. The snapshot carries
// its config, so any World (even a zero one) can restore any snapshot. On
// error the world is left as it was and the error, wrapping ErrBadSnapshot,
// says what is wrong.
func (w *World) Restore(b []byte) error {
	nw, err := decodeSnapshot(b)
	if err != nil {
		return err
	}
	*w = *nw
	return nil
}

func snapErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrBadSnapshot}, args...)...)
}

func decodeSnapshot(b []byte) (*World, error) {
	if len(b) < len(snapshotMagic)+5 || [4]byte(b[:4]) != snapshotMagic {
		return nil, snapErr("not a Hostfall snapshot (no HFsn header)")
	}
	d := decoder{b: b[4 : len(b)-4]}
	switch v := d.uvarint(); {
	case d.err != nil:
		return nil, snapErr("unreadable version")
	case v > SnapshotVersion:
		return nil, snapErr("snapshot version %d is newer than this build (%d); update Hostfall", v, SnapshotVersion)
	case v == 0:
		return nil, snapErr("snapshot version 0 does not exist")
	case v < SnapshotVersion:
		return nil, snapErr("snapshot version %d is from an older Hostfall whose game rules differ; this build restores version %d only", v, SnapshotVersion)
	}
	if got, want := crc32.ChecksumIEEE(b[:len(b)-4]), binary.LittleEndian.Uint32(b[len(b)-4:]); got != want {
		return nil, snapErr("checksum mismatch (%08x, expected %08x): the data is damaged or truncated", got, want)
	}
	return decodeBody(&d)
}

// decodeBody reads everything after the version. Every value is checked
// before it is used, so a snapshot that decodes is one that Step can run.
func decodeBody(d *decoder) (*World, error) {
	cfg := Config{Seed: d.u64()}
	cfg.Width = int(d.uint(MaxMapSize))
	cfg.Height = int(d.uint(MaxMapSize))
	np := int(d.uint(MaxPlayers))
	for range np {
		cfg.Players = append(cfg.Players, PlayerConfig{Team: Team(d.byte()), Bot: d.flag()})
	}
	if d.err != nil {
		return nil, snapErr("config: %v", d.err)
	}
	cfg, err := cfg.normalize()
	if err != nil {
		return nil, snapErr("config: %v", err)
	}
	w := &World{}
	w.setup(cfg)
	w.turn = int32(d.uint(1<<31 - 1))
	w.clock = int32(d.uint(uint64(w.turn)))
	w.pause = pauseState{on: d.flag(), by: PlayerID(d.byte()), resumer: PlayerID(d.byte()), count: int32(d.uint(ResumeTurns))}
	w.rng.State = d.u64()
	w.rng.Inc = d.u64()
	w.over = d.byte() != 0
	if win := d.byte(); win > MaxPlayers {
		d.fail(errRange)
	} else {
		w.winner = int8(win) - 1
	}
	for p := range w.np {
		pl := &w.pl[p]
		pl.out = d.byte() != 0
		pl.gold = d.int32()
		pl.outTime = d.int32()
		pl.lastAlert = d.int32()
		pl.mined, pl.trained, pl.killed, pl.lost = d.int32(), d.int32(), d.int32(), d.int32()
		for u := UpNone + 1; u < numUpgrades; u++ {
			pl.up[u] = uint8(d.uint(MaxUpgradeLevel))
		}
		pl.pauses = d.byte()
	}
	if d.err != nil {
		return nil, snapErr("header: %v", d.err)
	}
	if err := w.checkPause(); err != nil {
		return nil, err
	}
	if err := w.decodeMap(d); err != nil {
		return nil, err
	}
	if err := w.decodeEntities(d); err != nil {
		return nil, err
	}
	if err := w.decodeFog(d); err != nil {
		return nil, err
	}
	if len(d.b) > 0 {
		return nil, snapErr("%d stray bytes after the fog", len(d.b))
	}
	w.rebuildDerived()
	for p := range w.np {
		if w.pl[p].out && (w.pl[p].units > 0 || w.pl[p].buildings > 0) {
			return nil, snapErr("player %d is out but still has units", p)
		}
	}
	if err := w.checkResearch(); err != nil {
		return nil, err
	}
	return w, nil
}

// checkResearch refuses a state where two buildings of a player research
// the same upgrade (cmdResearch never allows it).
func (w *World) checkResearch() error {
	var seen [MaxPlayers][numUpgrades]bool
	e := &w.e
	for i := range e.len() {
		if u := e.research[i]; u != UpNone && e.kind[i] != KindNone {
			if seen[e.owner[i]][u] {
				return snapErr("entity %d: player %d researches %v twice", i, e.owner[i], u)
			}
			seen[e.owner[i]][u] = true
		}
	}
	return nil
}

func (w *World) decodeMap(d *decoder) error {
	n := w.w * w.h
	for i := 0; i < n; {
		t := Terrain(d.byte())
		run := int(d.uint(uint64(n - i)))
		if d.err != nil {
			return snapErr("terrain: %v", d.err)
		}
		if t >= numTerrains || run == 0 {
			return snapErr("terrain: bad run (%d × %d) at tile %d", run, t, i)
		}
		for j := i; j < i+run; j++ {
			w.terrain[j] = t
		}
		i += run
	}
	for t, tr := range w.terrain {
		if tr == GoldField {
			w.gold[t] = uint16(d.uint(0xFFFF))
			if w.gold[t] == 0 && d.err == nil {
				return snapErr("gold: an empty gold field at tile %d", t)
			}
		}
	}
	w.starts = make([]Point, w.np)
	lim := uint64(w.w) << TileShift
	for p := range w.starts {
		w.starts[p] = Point{int32(d.uint(lim - 1)), int32(d.uint(uint64(w.h)<<TileShift - 1))}
	}
	if d.err != nil {
		return snapErr("map: %v", d.err)
	}
	for t := range w.solid {
		w.solid[t] = w.terrain[t] != Grass
	}
	return nil
}

func (w *World) decodeEntities(d *decoder) error {
	n := int(d.uint(MaxEntities))
	if d.err != nil || n > len(d.b) {
		return snapErr("entities: bad count")
	}
	w.e.resize(n)
	w.mark = make([]uint32, n)
	dead := 0
	for i := range n {
		if err := w.decodeEntity(d, i); err != nil {
			return snapErr("entity %d: %v", i, err)
		}
		if w.e.kind[i] == KindNone {
			dead++
		}
	}
	nf := int(d.uint(uint64(n)))
	if d.err != nil || nf != dead {
		return snapErr("free list: %d entries for %d free slots", nf, dead)
	}
	w.free = make([]int32, nf)
	for j := range w.free {
		s := int(d.uint(uint64(max(n-1, 0))))
		if d.err != nil || w.e.kind[s] != KindNone || w.mark[s] != 0 {
			return snapErr("free list: bad entry %d", j)
		}
		w.mark[s] = 1
		w.free[j] = int32(s)
	}
	clear(w.mark)
	return nil
}

var (
	errEntityField = errors.New("a field is out of range")
	errEntityPlace = errors.New("it stands where it cannot")
)

func (w *World) decodeEntity(d *decoder, i int) error {
	e := &w.e
	e.gen[i] = uint16(d.uint(0xFFFF))
	k := Kind(d.byte())
	if d.err != nil {
		return d.err
	}
	if e.gen[i] == 0 || k >= numKinds {
		return errEntityField
	}
	if k == KindNone {
		return nil
	}
	st := &stats[k]
	e.kind[i] = k
	e.owner[i] = PlayerID(d.byte())
	e.order[i] = Order(d.byte())
	e.phase[i] = d.byte()
	e.cooldown[i] = d.byte()
	e.cargo[i] = d.byte()
	e.blocked[i] = d.byte()
	e.bkind[i] = Kind(d.byte())
	e.x[i] = int32(d.uint(uint64(w.w)<<TileShift - 1))
	e.y[i] = int32(d.uint(uint64(w.h)<<TileShift - 1))
	e.hp[i] = int32(d.uint(uint64(st.HP)))
	e.target[i] = UnitID(d.uint32())
	e.gx[i], e.gy[i], e.rx[i], e.ry[i], e.timer[i] = d.int16(), d.int16(), d.int16(), d.int16(), d.int16()
	if st.Building {
		e.progress[i] = int32(d.uint(uint64(st.Time)))
		e.qprog[i] = int32(d.uint(1 << 20))
		e.qlen[i] = uint8(d.uint(QueueMax))
		for q := range int(e.qlen[i]) {
			e.queue[i][q] = Kind(d.byte())
		}
		e.rallyX[i], e.rallyY[i] = d.int16(), d.int16()
		e.research[i] = Upgrade(d.byte())
	}
	if d.err != nil {
		return d.err
	}
	if err := w.checkEntity(i); err != nil {
		return err
	}
	// Claim its tiles now, so an overlap is caught here.
	if st.Building {
		x0, y0 := w.footprint(i)
		if !w.siteFree(x0, y0, int(st.Size)) || w.e.x[i] != int32(x0)<<TileShift+st.Size*TileSize/2 ||
			w.e.y[i] != int32(y0)<<TileShift+st.Size*TileSize/2 {
			return errEntityPlace
		}
		w.markFootprint(i, x0, y0, int(st.Size))
	} else {
		t := w.tileOf(i)
		if w.solid[t] || w.occ[t] != 0 {
			return errEntityPlace
		}
		w.occ[t] = int32(i + 1)
	}
	return nil
}

// checkEntity checks that the fields of entity i make sense together.
func (w *World) checkEntity(i int) error {
	e := &w.e
	k := e.kind[i]
	st := &stats[k]
	ok := int(e.owner[i]) < w.np && !w.pl[e.owner[i]].out && e.hp[i] > 0 && e.order[i] < numOrders &&
		int32(e.cooldown[i]) <= max(st.Cooldown, 0) && e.cargo[i] <= CarryGold &&
		e.timer[i] >= 0 && e.timer[i] <= MineTicks && e.phase[i] <= phaseChaseField|phaseGoalField &&
		w.inMap(int(e.gx[i]), int(e.gy[i])) &&
		(e.rx[i] == -1 && e.ry[i] == -1 || w.inMap(int(e.rx[i]), int(e.ry[i])))
	if !ok {
		return errEntityField
	}
	switch o := e.order[i]; {
	case st.Building:
		ok = o == OrderIdle && e.bkind[i] == KindNone && e.phase[i] == 0 && e.cargo[i] == 0 &&
			(e.rallyX[i] == -1 && e.rallyY[i] == -1 || w.inMap(int(e.rallyX[i]), int(e.rallyY[i])))
		ok = ok && (e.qlen[i] == 0 || e.progress[i] == st.Time)
		for q := range QueueMax {
			qk := e.queue[i][q]
			if q < int(e.qlen[i]) {
				ok = ok && qk.Valid() && stats[qk].Trainer == k
			}
		}
		switch u := e.research[i]; {
		case u != UpNone:
			lvl := int(w.pl[e.owner[i]].up[min(u, numUpgrades-1)]) + 1
			ok = ok && k == Workshop && u.Valid() && e.qlen[i] == 0 && e.progress[i] == st.Time &&
				lvl <= MaxUpgradeLevel && e.qprog[i] <= u.Time(lvl)
		case e.qlen[i] == 0:
			ok = ok && e.qprog[i] == 0
		default:
			ok = ok && e.qprog[i] <= stats[e.queue[i][0]].Time
		}
	case o == OrderGather || o == OrderBuild:
		ok = k == Worker && (o == OrderBuild) == e.bkind[i].IsBuilding() &&
			(o == OrderBuild || e.rx[i] >= 0)
	default:
		ok = e.bkind[i] == KindNone && (k == Worker || e.cargo[i] == 0)
	}
	if !ok {
		return errEntityField
	}
	return nil
}

func (w *World) decodeFog(d *decoder) error {
	n := w.w * w.h
	for k := range w.fog {
		f := &w.fog[k]
		f.cur = 2 // visible tiles get 2, explored ones 1
		for pass, mark := range [2]uint32{1, 2} {
			in := false
			for i := 0; i < n; {
				run := int(d.uint(uint64(n - i)))
				if d.err != nil || run == 0 && (i > 0 || in) {
					return snapErr("fog of team %d: bad run at tile %d", k, i)
				}
				if in {
					for j := i; j < i+run; j++ {
						if pass == 1 && f.stamp[j] == 0 {
							return snapErr("fog of team %d: tile %d is visible but not explored", k, j)
						}
						f.stamp[j] = mark
					}
					if pass == 0 {
						f.explored += int32(run)
					} else {
						f.visible += int32(run)
					}
				}
				i += run
				in = !in
			}
		}
	}
	return nil
}

func (d *decoder) u64() uint64 {
	b := d.bytes(8)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b)
}

// flag reads a byte that must be 0 or 1, so a restored snapshot encodes
// back to the same bytes.
func (d *decoder) flag() bool {
	v := d.byte()
	if v > 1 {
		d.fail(errRange)
	}
	return v == 1
}
