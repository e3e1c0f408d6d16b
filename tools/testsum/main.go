// Command testsum reads `go test -json` on stdin and prints what a person
// needs of it: one line per package (as go test prints it), the output of
// every failed test, and, with -record FILE, appends each test's outcome to
// FILE so that `testsum -summary FILE` can tell, after several go test runs,
// which tests were skipped and why, and close with the plain line
// "N passed, N failed, N skipped, N not run" (skipped: for want of something
// on this machine; not run: opt-in tests, listed apart). The summary also
// lists the slowest packages and tests, where a run's wall time goes
// (-stage NAME labels a run's records, e.g. "race"). As go test's -exec
// program (`go test -exec "testsum -stage S -exec FILE"`), it runs each test
// binary and records the CPU it used with the processes it started, which
// the summary prints beside the package's wall time: a package whose CPU is
// near twice its wall time is what keeps a stage's two cores busy.
//
// A skip whose reason starts with "opt-in:" (a measurement or soak run only
// when asked for) or "not applicable:" (nothing to test on this machine) is
// by design. Any other skip means this machine lacks something a test needs;
// with -require-all the summary then fails, which is what CI asks for on a
// machine that has root, Xvfb and avahi.
package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// event is one line of `go test -json` (test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
	Elapsed float64
}

// outcome is one test's result as -record writes it; Test is empty for a
// package's result (its test binary's wall time).
type outcome struct {
	Package, Test, Action, Reason string
	Elapsed                       float64 `json:",omitempty"`
	Stage                         string  `json:",omitempty"`
}

func main() {
	record := flag.String("record", "", "append each test's outcome to this file")
	summary := flag.String("summary", "", "print the summary of the outcomes recorded in this file")
	requireAll := flag.Bool("require-all", false, "with -summary: fail when a test was skipped for a reason other than opt-in or not applicable")
	stage := flag.String("stage", "", "with -record: the stage this run is (shown beside its packages' times)")
	slowest := flag.Int("slowest", 8, "with -summary: how many of the slowest packages and tests to list")
	execRecord := flag.String("exec", "", "run the program that follows as go test's -exec does, and append its CPU seconds (the package's, with -stage) to this file")
	flag.Parse()
	if *execRecord != "" {
		os.Exit(execMeasured(*execRecord, *stage, flag.Args()))
	}
	if *summary != "" {
		os.Exit(summarize(*summary, *requireAll, *slowest, os.Stdout))
	}
	os.Exit(stream(os.Stdin, os.Stdout, *record, *stage))
}

// stream prints the run as it goes and records outcomes; it returns 1 when
// a test or package failed.
func stream(r io.Reader, w io.Writer, record, stage string) int {
	var rec *json.Encoder
	if record != "" {
		f, err := os.OpenFile(record, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testsum:", err)
			return 1
		}
		defer f.Close()
		rec = json.NewEncoder(f)
	}
	out := map[string][]string{} // package/test → output lines
	failed := false
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			fmt.Fprintln(w, sc.Text()) // build errors and the like come as plain text
			continue
		}
		key := e.Package + "/" + e.Test
		switch e.Action {
		case "output":
			out[key] = append(out[key], e.Output)
			if e.Test == "" && isBuildProblem(e.Output) {
				fmt.Fprint(w, e.Output)
			}
		case "pass", "fail", "skip":
			if e.Test == "" {
				printPackage(w, e, out[key])
				failed = failed || e.Action == "fail"
				delete(out, key)
				if rec != nil && e.Action != "skip" {
					_ = rec.Encode(outcome{Package: e.Package, Action: e.Action, Elapsed: e.Elapsed, Stage: stage})
				}
				continue
			}
			if e.Action == "fail" {
				failed = true
				fmt.Fprint(w, strings.Join(out[key], ""))
			}
			if rec != nil {
				_ = rec.Encode(outcome{e.Package, e.Test, e.Action, skipReason(out[key]), e.Elapsed, stage})
			}
			delete(out, key)
		}
	}
	if failed {
		return 1
	}
	return 0
}

func isBuildProblem(line string) bool {
	return strings.HasPrefix(line, "#") || strings.Contains(line, "[build failed]") || strings.Contains(line, "[setup failed]")
}

// printPackage prints go test's line for a package, with its output when it
// failed outside any test (a panic in TestMain, a build error).
func printPackage(w io.Writer, e event, lines []string) {
	switch e.Action {
	case "pass":
		fmt.Fprintf(w, "ok  \t%s\t%.3fs\n", e.Package, e.Elapsed)
	case "skip":
		fmt.Fprintf(w, "?   \t%s\t[no test files]\n", e.Package)
	default:
		for _, l := range lines {
			if l != "FAIL\n" && l != "PASS\n" && !strings.HasPrefix(l, "FAIL\t") && !strings.HasPrefix(l, "ok  \t") {
				fmt.Fprint(w, l)
			}
		}
		fmt.Fprintf(w, "FAIL\t%s\t%.3fs\n", e.Package, e.Elapsed)
	}
}

// skipReason is the message a skipped test gave: its last output line that
// is not go test's own "--- SKIP" line.
func skipReason(lines []string) string {
	for _, l := range slices.Backward(lines) {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "=== ") {
			continue
		}
		if i := strings.Index(l, ": "); i >= 0 && strings.Contains(l[:i], ".go:") {
			l = l[i+2:]
		}
		return l
	}
	return "(no reason given)"
}

// byDesign reports whether a skip reason is one CI accepts.
func byDesign(reason string) bool {
	return strings.HasPrefix(reason, "opt-in:") || strings.HasPrefix(reason, "not applicable:")
}

func summarize(file string, requireAll bool, slowest int, w io.Writer) int {
	f, err := os.Open(file)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsum:", err)
		return 1
	}
	defer f.Close()
	var passed, failed int
	var skipped, packages, tests []outcome
	cpu := map[string]float64{} // package [stage] → its test binary's CPU seconds
	dec := json.NewDecoder(f)
	for {
		var o outcome
		if err := dec.Decode(&o); err != nil {
			break
		}
		switch {
		case o.Action == "cpu":
			cpu[o.Package+" "+o.Stage] += o.Elapsed
			continue
		case o.Test == "":
			packages = append(packages, o)
			continue
		case !strings.Contains(o.Test, "/"):
			tests = append(tests, o)
		}
		switch o.Action {
		case "pass":
			passed++
		case "fail":
			failed++
		case "skip":
			skipped = append(skipped, o)
		}
	}
	printSlowest(w, "packages (their test binary's wall time, and CPU time with the processes it ran)", packages, slowest, cpu)
	printSlowest(w, "tests (top level, with their subtests)", tests, slowest, nil)
	// Tests run only when asked for are listed apart: the "skipped" list
	// is what this machine could not run, and is empty where it has all
	// a test needs.
	var optIn, missing []outcome
	for _, s := range skipped {
		if byDesign(s.Reason) {
			optIn = append(optIn, s)
		} else {
			missing = append(missing, s)
		}
	}
	if len(optIn) > 0 {
		fmt.Fprintln(w, "not run (opt-in, or nothing to test here):")
		for _, s := range optIn {
			fmt.Fprintf(w, "  %s %s: %s\n", s.Package, s.Test, s.Reason)
		}
	}
	fmt.Fprintln(w, "skipped for want of something this machine lacks:")
	if len(missing) == 0 {
		fmt.Fprintln(w, "  none")
	}
	for _, s := range missing {
		fmt.Fprintf(w, "! %s %s: %s\n", s.Package, s.Test, s.Reason)
	}
	fmt.Fprintf(w, "%d passed, %d failed, %d skipped, %d not run\n", passed, failed, len(missing), len(optIn))
	switch {
	case failed > 0:
		return 1
	case requireAll && len(missing) > 0:
		fmt.Fprintf(w, "%d tests (marked !) were skipped because this machine lacks what they need; this run requires every test (HOSTFALL_REQUIRE_ALL_TESTS=1)\n", len(missing))
		return 1
	}
	return 0
}

// printSlowest lists the n outcomes that took longest, where a run's time
// goes: the first place to look when the suite gets slow.
func printSlowest(w io.Writer, what string, outs []outcome, n int, cpu map[string]float64) {
	if n <= 0 || len(outs) == 0 {
		return
	}
	slices.SortStableFunc(outs, func(a, b outcome) int { return cmp.Compare(b.Elapsed, a.Elapsed) })
	fmt.Fprintf(w, "slowest %s:\n", what)
	for _, o := range outs[:min(n, len(outs))] {
		name := o.Package
		if o.Test != "" {
			name += " " + o.Test
		}
		if o.Stage != "" {
			name += " [" + o.Stage + "]"
		}
		if c, ok := cpu[o.Package+" "+o.Stage]; ok {
			fmt.Fprintf(w, "  %7.1fs %7.1fs cpu  %s\n", o.Elapsed, c, name)
			continue
		}
		fmt.Fprintf(w, "  %7.1fs %s\n", o.Elapsed, name)
	}
}
