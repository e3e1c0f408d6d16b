package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
)

// profileEnv names a directory: when set, the program writes a CPU profile
// of its whole run (cpu.pprof) and its heap at the end (heap.pprof) there,
// for `go tool pprof` (a host under attack, a benchmark gone over budget).
const profileEnv = "HOSTFALL_PROFILE"

// startProfile starts the CPU profile when $HOSTFALL_PROFILE is set and
// returns what writes the heap profile and ends the CPU one.
func startProfile() (stop func()) {
	dir := os.Getenv(profileEnv)
	if dir == "" {
		return func() {}
	}
	cpu, err := os.Create(filepath.Join(dir, "cpu.pprof"))
	if err == nil {
		err = pprof.StartCPUProfile(cpu)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: no profile (%v); check that the directory exists and is writable\n", profileEnv, err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		cpu.Close()
		runtime.GC() // the heap profile shows what the last GC found live
		if heap, err := os.Create(filepath.Join(dir, "heap.pprof")); err == nil {
			_ = pprof.WriteHeapProfile(heap)
			heap.Close()
		}
	}
}
