package game

// Pathfinding uses flow fields rather than A*. A field is the walking
// distance from every tile to a goal (a rectangle: a tile, a building's
// footprint, the gold of a mining area), made by one Dijkstra pass over the
// grid. Every unit heading for the same goal shares it, so a group of any
// size costs one search, units steer around each other by picking the next
// best neighbour, and a unit pushed off course needs no new request. Orders
// in an RTS fan out — a hundred units to one point, twenty workers to one
// base — which is where fields beat per-unit A*; chasing a nearby enemy does
// not use fields at all (see chase).
//
// Fields are a pure function of the solid tiles and the goal, and a cached
// field is used only while no tile has changed since it was made (blockV).
// So the cache never changes the outcome of a step; it is not part of the
// state, and a restored world starts with an empty cache.

const unreachable = 0xFFFF

// Goal kinds of a field key.
const (
	goalRect = 0 // every tile of the rectangle is a goal
	goalGold = 1 // the gold tiles of the rectangle are goals
)

// Step costs: 5 straight, 7 diagonal (≈ 5·√2).
const (
	costStraight = 5
	costDiagonal = 7
)

// The eight directions, clockwise from east; odd indices are diagonal.
var (
	dirX = [8]int{1, 1, 0, -1, -1, -1, 0, 1}
	dirY = [8]int{0, 1, 1, 1, 0, -1, -1, -1}
)

func fieldKey(x0, y0, rw, rh, mode int) uint64 {
	return uint64(uint16(int16(x0))) | uint64(uint16(int16(y0)))<<16 |
		uint64(uint16(rw))<<32 | uint64(uint8(rh))<<48 | uint64(mode)<<56
}

func tileKey(x, y int) uint64 { return fieldKey(x, y, 1, 1, goalRect) }

// goldKey names the field to the gold around (x, y): the gold tiles of the
// 8×8 block holding it plus a margin of two, so all the workers of a mining
// area share one field.
func goldKey(x, y int) uint64 { return fieldKey(x&^7-2, y&^7-2, 12, 12, goalGold) }

type flowField struct {
	key  uint64 // 0: empty
	ver  uint32
	used int32
	dist []uint16
}

type pathCache struct {
	fields   []flowField
	max      int
	buckets  [8][]int32
	computed int // fields computed so far (a statistic for tests)
}

func (pc *pathCache) init(tiles int) {
	pc.fields = pc.fields[:0]
	pc.max = min(max((4<<20)/(tiles*2), 8), 64)
}

// field returns the flow field for key, computing it if the cache has none
// that is current. Unit i's hint makes the common lookup one comparison.
func (w *World) field(i int, key uint64) *flowField {
	pc := &w.paths
	if h := int(w.e.hint[i]); h < len(pc.fields) {
		if f := &pc.fields[h]; f.key == key && f.ver == w.blockV {
			f.used = w.turn
			return f
		}
	}
	slot, oldest := -1, int32(0)
	for j := range pc.fields {
		f := &pc.fields[j]
		if f.key == key {
			slot = j
			break
		}
		if slot < 0 || f.used < oldest {
			slot, oldest = j, f.used
		}
	}
	if slot < 0 || (pc.fields[slot].key != key && len(pc.fields) < pc.max) {
		pc.fields = append(pc.fields, flowField{dist: make([]uint16, w.w*w.h)})
		slot = len(pc.fields) - 1
	}
	f := &pc.fields[slot]
	w.e.hint[i] = uint8(slot)
	if f.key != key || f.ver != w.blockV {
		f.key, f.ver = key, w.blockV
		w.computeField(f.dist, key)
		pc.computed++
	}
	f.used = w.turn
	return f
}

// computeField fills dist with the walking cost to the goal of key
// (Dijkstra with a bucket queue; the costs are small integers).
func (w *World) computeField(dist []uint16, key uint64) {
	x0, y0 := int(int16(key)), int(int16(key>>16))
	rw, rh, mode := int(uint16(key>>32)), int(uint8(key>>48)), int(key>>56)
	for t := range dist {
		dist[t] = unreachable
	}
	pc := &w.paths
	for b := range pc.buckets {
		pc.buckets[b] = pc.buckets[b][:0]
	}
	pending := 0
	for y := max(y0, 0); y < min(y0+rh, w.h); y++ {
		for x := max(x0, 0); x < min(x0+rw, w.w); x++ {
			t := y*w.w + x
			if mode == goalGold && w.terrain[t] != GoldField {
				continue
			}
			dist[t] = 0
			pc.buckets[0] = append(pc.buckets[0], int32(t))
			pending++
		}
	}
	W, H := w.w, w.h
	solid := w.solid
	open := func(t int) bool { return !solid[t] || dist[t] == 0 }
	for cur := 0; pending > 0; cur++ {
		b := &pc.buckets[cur&7]
		for j := 0; j < len(*b); j++ {
			t := int((*b)[j])
			if int(dist[t]) != cur {
				continue
			}
			tx, ty := t%W, t/W
			for k := range 8 {
				nx, ny := tx+dirX[k], ty+dirY[k]
				if nx < 0 || ny < 0 || nx >= W || ny >= H {
					continue
				}
				n := ny*W + nx
				if solid[n] {
					continue
				}
				nd := cur + costStraight
				if k&1 == 1 {
					if !open(ty*W+nx) || !open(ny*W+tx) {
						continue
					}
					nd = cur + costDiagonal
				}
				if nd >= unreachable || nd >= int(dist[n]) {
					continue
				}
				dist[n] = uint16(nd)
				nb := &pc.buckets[nd&7]
				*nb = append(*nb, int32(n))
				pending++
			}
		}
		pending -= len(*b)
		*b = (*b)[:0]
	}
}
