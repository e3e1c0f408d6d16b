package game

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"
)

// A copy is the same world (hash, snapshot, and the turns it plays next)
// and shares no memory with the original, however the one dst is reused:
// worlds of other sizes and player counts are copied into it in turn.
func TestCopyTo(t *testing.T) {
	var dst World
	for seed := uint64(1); seed <= 12; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			cfg := FreeForAll(seed, 2+int(seed%4))
			cfg.Width, cfg.Height = 32+int(seed%3)*16, 32+int(seed%2)*16
			w, err := NewWorld(cfg)
			if err != nil {
				t.Fatal(err)
			}
			r := NewRNG(seed, 7)
			for range 150 + int(seed)*20 {
				w.Step(Chaos(w, &r))
			}
			w.CopyTo(&dst)
			if dst.Hash() != w.Hash() || !bytes.Equal(dst.Snapshot(), w.Snapshot()) {
				t.Fatalf("seed %d: the copy differs from the original", seed)
			}
			if path := shared(reflect.ValueOf(w).Elem(), reflect.ValueOf(&dst).Elem(), "World"); path != "" {
				t.Fatalf("seed %d: the copy shares %s with the original", seed, path)
			}
			before := dst.Hash()
			cmds := make([][]Command, 40)
			for i := range cmds {
				cmds[i] = Chaos(w, &r)
				w.Step(cmds[i])
			}
			if dst.Hash() != before {
				t.Fatalf("seed %d: stepping the original changed the copy", seed)
			}
			for _, c := range cmds {
				dst.Step(c)
			}
			if dst.Hash() != w.Hash() {
				t.Fatalf("seed %d: the copy played the same turns to another state", seed)
			}
		})
	}
}

// shared names the first slice of a and b (walked in parallel) whose
// storage overlaps, or "" when none does.
func shared(a, b reflect.Value, path string) string {
	switch a.Kind() {
	case reflect.Struct:
		for i := range a.NumField() {
			if p := shared(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); p != "" {
				return p
			}
		}
	case reflect.Array:
		for i := range a.Len() {
			if p := shared(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
	case reflect.Slice:
		if a.Cap() > 0 && b.Cap() > 0 && overlap(a, b) {
			return path
		}
		for i := range min(a.Len(), b.Len()) {
			if p := shared(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
	case reflect.Pointer, reflect.Map:
		if !a.IsNil() && a.Pointer() == b.Pointer() {
			return path
		}
	}
	return ""
}

func overlap(a, b reflect.Value) bool {
	size := a.Type().Elem().Size()
	a0, b0 := a.Pointer(), b.Pointer()
	a1, b1 := a0+uintptr(a.Cap())*size, b0+uintptr(b.Cap())*size
	return a0 < b1 && b0 < a1
}

// BenchmarkCopyTo: what publishing a view of a large game costs a turn.
func BenchmarkCopyTo(b *testing.B) {
	cfg := FreeForAll(5, 8)
	cfg.Width, cfg.Height = 256, 256
	w, err := NewWorld(cfg)
	if err != nil {
		b.Fatal(err)
	}
	r := NewRNG(5, 7)
	for range 600 {
		w.Step(Chaos(w, &r))
	}
	var dst World
	w.CopyTo(&dst)
	b.ReportAllocs()
	for b.Loop() {
		w.CopyTo(&dst)
	}
}

// BenchmarkNewWorld: what loading a game costs the goroutine that loads it.
func BenchmarkNewWorld(b *testing.B) {
	for _, size := range []int{128, 256} {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			cfg := FreeForAll(5, 8)
			cfg.Width, cfg.Height = size, size
			for b.Loop() {
				if _, err := NewWorld(cfg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
