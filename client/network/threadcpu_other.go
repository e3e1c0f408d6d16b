//go:build !linux

package network

import "time"

// threadCPU: no per-thread CPU clock here; a pass then has no CPU figure.
func threadCPU() (time.Duration, int) { return 0, 0 }
