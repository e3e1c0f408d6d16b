// Command release makes the files of a Hostfall release from builds that
// scripts/release.sh made: make release and make release-check run it.
//
//	release archive -o OUT.zip|OUT.tar.gz -mtime UNIX -C DIR NAME
//	    archives the directory DIR/NAME (entries NAME/…), sorted by name,
//	    every entry dated UNIX (the commit's time) and owned by nobody in
//	    particular, executables 0755 and the rest 0644: the same files give
//	    the same bytes
//	release licenses
//	    prints the licences of every module compiled into the package in
//	    the current directory for the target of $GOOS/$GOARCH/$CGO_ENABLED,
//	    and Go's own; fails when a module has none
//	release cruntime CC
//	    prints the copyright files of the Debian packages that hold the C
//	    runtime pieces CC links into a cgo program (mingw-w64's start-up
//	    code and runtime, GCC's support library and its runtime library
//	    exception): the Windows game's archive carries them
//	release libs BIN
//	    prints the shared libraries (ELF) or DLLs (PE) BIN needs, one a line
//	release sums DIR
//	    writes DIR/SHA256SUMS over DIR's files (as sha256sum -c reads it)
//
// archive is written here, not with zip or tar, so that the archives do
// not depend on those programs' versions and flags.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch cmd, args := os.Args[1], os.Args[2:]; cmd {
	case "archive":
		err = runArchive(args)
	case "licenses":
		err = writeLicenses(os.Stdout)
	case "cruntime":
		if len(args) != 1 {
			usage()
		}
		err = writeCRuntimeLicenses(os.Stdout, args[0])
	case "libs":
		err = runLibs(args)
	case "sums":
		err = runSums(args)
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: release archive|licenses|cruntime|libs|sums … (see go doc ./tools/release)")
	os.Exit(2)
}
