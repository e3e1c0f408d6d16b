//go:build !linux

package netns

import "errors"

func doIn(string, func() error) error { return errors.New("netns: needs Linux") }
