package render

import (
	"testing"
	"time"
)

// A notice said again while it shows counts instead of stacking a line per
// key press; another notice, or the same one after it faded, is a new line;
// four lines at most.
func TestAddNotice(t *testing.T) {
	t0 := time.Unix(100, 0)
	gold := func(at time.Duration) notice { return notice{text: "Not enough gold.", err: true, at: t0.Add(at)} }
	var ns []notice
	for i := range 5 {
		ns = addNotice(ns, gold(time.Duration(i)*200*time.Millisecond))
	}
	if len(ns) != 1 || ns[0].times != 5 || !ns[0].at.Equal(t0.Add(800*time.Millisecond)) {
		t.Fatalf("five presses: %+v, want one line said 5 times, refreshed", ns)
	}
	ns = addNotice(ns, notice{text: "Nothing selected.", at: t0.Add(time.Second)})
	ns = addNotice(ns, gold(2*time.Second))
	if len(ns) != 3 || ns[2].times != 1 {
		t.Fatalf("after another notice: %+v, want a new gold line", ns)
	}
	ns = addNotice(ns, gold(2*time.Second+noticeTime))
	if len(ns) != 4 || ns[3].times != 1 {
		t.Fatalf("the same after it faded: %+v, want a new line", ns)
	}
	ns = addNotice(ns, notice{text: "x", at: t0.Add(20 * time.Second)})
	if len(ns) != 4 || ns[3].text != "x" {
		t.Fatalf("a fifth line: %+v, want the newest four", ns)
	}
}
