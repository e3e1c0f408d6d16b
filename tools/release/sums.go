package main

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// runSums writes DIR/SHA256SUMS: "HASH  NAME" for each regular file of
// DIR but itself, in name order.
func runSums(args []string) error {
	if len(args) != 1 {
		return errors.New("sums needs one directory")
	}
	dir := args[0]
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, e := range ents { // ReadDir sorts by name
		if !e.Type().IsRegular() || e.Name() == "SHA256SUMS" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%x  %s\n", sha256.Sum256(data), e.Name())
	}
	return os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(b.String()), 0o644)
}
