package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
)

// execMeasured runs a test binary as go test's -exec program: it passes the
// binary its arguments, standard streams and the signals go test sends
// (SIGQUIT asks for a stack dump on a timeout), and appends to record the
// CPU seconds it used with every process it waited for (the hostfall
// processes, Xvfb and Wine a test started). It returns the binary's exit
// status.
func execMeasured(record, stage string, argv []string) int {
	if len(argv) == 0 {
		fmt.Fprintln(os.Stderr, "testsum -exec: no program to run")
		return 2
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGQUIT)
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "testsum -exec:", err)
		return 2
	}
	go func() {
		for s := range sigs {
			_ = cmd.Process.Signal(s)
		}
	}()
	err := cmd.Wait()
	signal.Stop(sigs)
	code := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
		if code < 0 { // killed by a signal
			code = 1
		}
	case err != nil:
		fmt.Fprintln(os.Stderr, "testsum -exec:", err)
		code = 2
	}
	if st := cmd.ProcessState; st != nil && record != "" {
		cpu := (st.UserTime() + st.SystemTime()).Seconds()
		if pkg := packageHere(); pkg != "" {
			appendOutcome(record, outcome{Package: pkg, Action: "cpu", Elapsed: cpu, Stage: stage})
		}
	}
	return code
}

// packageHere is the import path of the working directory (go test runs a
// test binary in its package's directory): the module path from the go.mod
// above it, joined with the way down to here.
func packageHere() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for root := dir; ; root = filepath.Dir(root) {
		if mod := modulePath(filepath.Join(root, "go.mod")); mod != "" {
			rel, err := filepath.Rel(root, dir)
			if err != nil {
				return ""
			}
			if rel == "." {
				return mod
			}
			return mod + "/" + filepath.ToSlash(rel)
		}
		if filepath.Dir(root) == root {
			return ""
		}
	}
}

func modulePath(gomod string) string {
	f, err := os.Open(gomod)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

func appendOutcome(record string, o outcome) {
	f, err := os.OpenFile(record, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsum -exec:", err)
		return
	}
	defer f.Close()
	_ = json.NewEncoder(f).Encode(o)
}
