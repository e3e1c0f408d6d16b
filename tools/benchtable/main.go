// Command benchtable turns `go test -bench` output into one table of figures,
// each checked against its target. It reads the benchmark lines on stdin and the
// targets from a file:
//
//	# benchmark   metric    cmp  target  what it measures
//	BenchmarkStep/units=10000  ms/tick  <=  4  simulation tick, 10,000 units
//
// Every metric of every benchmark is printed; the ones with a target say whether
// it is met. Benchmarks named in the targets file that did not run are listed as
// missing, so a target cannot pass by silently not being measured.
//
// A line may carry the machine's 1-minute load average before and after it
// ran, as the metrics "load-before" and "load-after" (scripts/bench.sh adds
// them): the table shows them in a column of their own and marks the line
// "busy" when either is above -busy, that is, when other work shared the
// cores and its figures are likely worse than the code's.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
)

type target struct {
	bench, metric, cmp string
	value              float64
	what               string
}

type result struct {
	bench  string
	values map[string]float64
	order  []string
}

func main() {
	targetsPath := flag.String("targets", "bench/targets.txt", "file of targets")
	flag.Float64Var(&busyLoad, "busy", busyLoad, "a line whose load average before or after is above this is marked busy")
	flag.Parse()
	targets, err := readTargets(*targetsPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(2)
	}
	results := parseBench(os.Stdin)
	if missed := printTable(os.Stdout, results, targets); missed > 0 {
		fmt.Fprintf(os.Stdout, "\n%d target(s) not met or not measured\n", missed)
	}
}

func readTargets(path string) ([]target, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var ts []target
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) < 4 {
			return nil, fmt.Errorf("%s:%d: want: benchmark metric cmp target [what]", path, n)
		}
		v, err := strconv.ParseFloat(fs[3], 64)
		if err != nil || (fs[2] != "<=" && fs[2] != ">=") {
			return nil, fmt.Errorf("%s:%d: cmp must be <= or >= and target a number", path, n)
		}
		ts = append(ts, target{fs[0], fs[1], fs[2], v, strings.Join(fs[4:], " ")})
	}
	return ts, sc.Err()
}

var procSuffix = regexp.MustCompile(`-\d+$`)

// The load metrics of a line, and the load above which it is marked busy:
// three quarters of the cores (a benchmark itself keeps one core busy).
const loadBefore, loadAfter = "load-before", "load-after"

var busyLoad = 0.75 * float64(runtime.NumCPU())

// loadNote is the load column of r: "0.4→1.2", with " busy" when other
// work shared the cores; "" when the line carries no load.
func loadNote(r *result) string {
	before, ok1 := r.values[loadBefore]
	after, ok2 := r.values[loadAfter]
	if !ok1 || !ok2 {
		return ""
	}
	note := fmt.Sprintf("%.2f→%.2f", before, after)
	if max(before, after) > busyLoad {
		note += " busy"
	}
	return note
}

// parseBench reads lines "BenchmarkName[-P] N v1 unit1 v2 unit2 ...".
func parseBench(r io.Reader) []*result {
	var out []*result
	byName := map[string]*result{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 4 || !strings.HasPrefix(fs[0], "Benchmark") {
			continue
		}
		if _, err := strconv.ParseInt(fs[1], 10, 64); err != nil {
			continue
		}
		name := procSuffix.ReplaceAllString(fs[0], "")
		res := byName[name]
		if res == nil {
			res = &result{bench: name, values: map[string]float64{}}
			byName[name] = res
			out = append(out, res)
		}
		for i := 2; i+1 < len(fs); i += 2 {
			v, err := strconv.ParseFloat(fs[i], 64)
			if err != nil {
				break
			}
			if _, seen := res.values[fs[i+1]]; !seen {
				res.order = append(res.order, fs[i+1])
			}
			res.values[fs[i+1]] = v
		}
	}
	return out
}

func printTable(w io.Writer, results []*result, targets []target) (missed int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(w, "load: the 1-minute load average before→after each line; busy above %s (%d cores): other work shared them\n", format(busyLoad), runtime.NumCPU())
	fmt.Fprintln(tw, "benchmark\tmetric\tvalue\ttarget\tstatus\tload\twhat")
	seen := map[string]bool{}
	for _, r := range results {
		load := loadNote(r)
		for _, m := range r.order {
			if m == loadBefore || m == loadAfter {
				continue
			}
			v := r.values[m]
			tgt, status, what := "", "", ""
			for _, t := range targets {
				if t.bench == r.bench && t.metric == m {
					seen[t.bench+" "+t.metric] = true
					tgt, what = t.cmp+" "+format(t.value), t.what
					status = "met"
					if (t.cmp == "<=" && v > t.value) || (t.cmp == ">=" && v < t.value) {
						status = "MISSED"
						missed++
					}
				}
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.bench, m, format(v), tgt, status, load, what)
		}
	}
	for _, t := range targets {
		if !seen[t.bench+" "+t.metric] {
			fmt.Fprintf(tw, "%s\t%s\t-\t%s %s\tNOT RUN\t\t%s\n", t.bench, t.metric, t.cmp, format(t.value), t.what)
			missed++
		}
	}
	tw.Flush()
	return missed
}

func format(v float64) string {
	switch {
	case v == float64(int64(v)) && v < 1e12:
		return strconv.FormatInt(int64(v), 10)
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	default:
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
}
