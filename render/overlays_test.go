package render

import (
	"strings"
	"testing"
	"time"

	"hostfall/client"
)

// No notice outlives its cause: a wait ends with its word, with a new host,
// with the player's away notice, or at the latest waitGrace after it ran
// out; a host that was away reads that another took over, not that a host
// left.
func TestBannersEndWithTheirCause(t *testing.T) {
	t0 := time.Unix(1000, 0)
	wait := client.Event{Kind: client.EvWaiting, Name: "Ann", Seconds: 3}
	for _, c := range []struct {
		name string
		end  *client.Event // nil: no word ends it
		at   time.Duration // when lines are read
	}{
		{"wait over", &client.Event{Kind: client.EvWaitOver, Name: "Ann"}, time.Second},
		{"new host", &client.Event{Kind: client.EvHostChanged, Name: "Bo"}, time.Second},
		{"away", &client.Event{Kind: client.EvNotice, Name: "Ann", Text: "Ann is away: their units hold until they are back"}, time.Second},
		{"left", &client.Event{Kind: client.EvPlayerLeft, Name: "Ann"}, time.Second},
		{"this player left", &client.Event{Kind: client.EvLeft}, time.Second},
		{"no word", nil, 3*time.Second + waitGrace + time.Millisecond},
	} {
		var b banners
		a := &App{}
		b.onEvent(wait, t0, a)
		if got := b.lines(t0); len(got) != 1 || !strings.Contains(got[0].text, "Waiting for Ann") {
			t.Fatalf("%s: the wait is not shown: %v", c.name, got)
		}
		if c.end != nil {
			b.onEvent(*c.end, t0.Add(c.at/2), a)
		}
		now := t0.Add(c.at)
		b.expire(now)
		for _, l := range b.lines(now) {
			if strings.Contains(l.text, "Waiting for") {
				t.Errorf("%s: %q still shown %v after the wait began", c.name, l.text, c.at)
			}
		}
	}
	var b banners
	b.onEvent(client.Event{Kind: client.EvHostChanged, Name: "Ann", Text: "You were away too long — Ann took over hosting"}, t0, &App{})
	if got := b.lines(t0); len(got) != 1 || strings.Contains(got[0].text, "Host left") {
		t.Errorf("a host that was away reads %v", got)
	}
}
