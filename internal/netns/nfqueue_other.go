//go:build !linux

package netns

import "errors"

func runQueue(uint16, Impairment, func()) error {
	return errors.New("netem stand-in: NFQUEUE needs Linux")
}
