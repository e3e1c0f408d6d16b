package main

import (
	"debug/elf"
	"debug/pe"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
)

// runLibs prints the shared libraries or DLLs the binary needs.
func runLibs(args []string) error {
	if len(args) != 1 {
		return errors.New("libs needs one binary")
	}
	libs, err := neededLibs(args[0])
	if err != nil {
		return err
	}
	for _, l := range libs {
		fmt.Println(l)
	}
	return nil
}

// neededLibs reads DT_NEEDED of an ELF file or the imported DLLs of a PE
// file, sorted.
func neededLibs(path string) ([]string, error) {
	var libs []string
	if f, err := elf.Open(path); err == nil {
		defer f.Close()
		if libs, err = f.ImportedLibraries(); err != nil {
			return nil, err
		}
	} else if f, err := pe.Open(path); err == nil {
		defer f.Close()
		// debug/pe lists no libraries; each imported symbol is "NAME:DLL".
		syms, err := f.ImportedSymbols()
		if err != nil {
			return nil, err
		}
		for _, s := range syms {
			if _, dll, ok := strings.Cut(s, ":"); ok && !slices.Contains(libs, dll) {
				libs = append(libs, dll)
			}
		}
	} else {
		if _, err := os.Stat(path); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%s is neither an ELF nor a PE file", path)
	}
	slices.Sort(libs)
	return libs, nil
}
