package main

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// cRuntimeFiles are the files of a C toolchain that a cgo link on Windows
// puts into the program: mingw-w64's start-up code and C runtime pieces,
// and GCC's support library (linked statically: check_libs in
// scripts/release.sh refuses mingw's runtime DLLs).
var cRuntimeFiles = []string{"crt2.o", "libmingw32.a", "libmingwex.a", "libmsvcrt.a", "libgcc.a", "libgcc_eh.a"}

// writeCRuntimeLicenses writes the copyright files of the Debian packages
// that hold the files of cc's C runtime linked into a cgo program (for
// mingw-w64: the mingw-w64 runtime's licences and GCC's runtime library
// exception), each under a heading naming the package and its version.
func writeCRuntimeLicenses(w io.Writer, cc string) error {
	pkgs, err := cRuntimePackages(cc)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "\n\n==== The C runtime linked in by %s ====\n\nThe Windows build links start-up code and runtime support from these\npackages of the toolchain; their copyright files follow as Debian ships them.\n", cc)
	for _, p := range pkgs {
		version, err := exec.Command("dpkg-query", "-W", "-f=${Version}", p).Output()
		if err != nil {
			return fmt.Errorf("dpkg-query %s: %w", p, err)
		}
		name := strings.Split(p, ":")[0] // without :arch
		if err := section(bw, "Debian package "+name+" "+string(version), "/usr/share/doc/"+name, []string{"copyright"}); err != nil {
			return fmt.Errorf("the copyright file of %s: %w", name, err)
		}
	}
	return bw.Flush()
}

// cRuntimePackages are the Debian packages that hold cc's cRuntimeFiles,
// in the order first met.
func cRuntimePackages(cc string) ([]string, error) {
	var pkgs []string
	for _, f := range cRuntimeFiles {
		out, err := exec.Command(cc, "-print-file-name="+f).Output()
		if err != nil {
			return nil, fmt.Errorf("%s -print-file-name=%s: %w (is the C compiler installed?)", cc, f, err)
		}
		path := strings.TrimSpace(string(out))
		if !filepath.IsAbs(path) {
			return nil, fmt.Errorf("%s does not find its %s: install its runtime (Debian: gcc-mingw-w64-x86-64 and mingw-w64-x86-64-dev)", cc, f)
		}
		if real, err := filepath.EvalSymlinks(path); err == nil {
			path = real
		}
		pkg, err := owner(path)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(pkgs, pkg) {
			pkgs = append(pkgs, pkg)
		}
	}
	return pkgs, nil
}

// owner is the Debian package that installed path.
func owner(path string) (string, error) {
	out, err := exec.Command("dpkg-query", "-S", path).Output()
	if err != nil {
		return "", fmt.Errorf("no Debian package owns %s (dpkg-query -S: %w): the C runtime's licences come from Debian's package records; build the Windows release on Debian or Ubuntu with the mingw-w64 packages", path, err)
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	pkg, _, ok := strings.Cut(line, ": ")
	pkg, _, _ = strings.Cut(pkg, ", ") // a path that several packages hold
	if !ok || pkg == "" {
		return "", fmt.Errorf("dpkg-query -S %s said %q, not a package", path, line)
	}
	return pkg, nil
}
