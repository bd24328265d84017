package model

import (
	"strings"
	"testing"
)

// TestObserversAreNeverRemoved shows the planted leak in isolation:
// registering one observer per navigation, as every detail screen does,
// makes navigation k notify k observers.
func TestObserversAreNeverRemoved(t *testing.T) {
	c := NewCity()
	var v ViewState
	calls := 0
	for k := 1; k <= 5; k++ {
		v.Observe(func(*Stop) { calls++ })
		calls = 0
		v.SetCurrent(c.Stops[k-1])
		if calls != k {
			t.Errorf("navigation %d notified %d observers, want %d", k, calls, k)
		}
		if v.Observers() != k {
			t.Errorf("navigation %d: Observers() = %d, want %d", k, v.Observers(), k)
		}
		if v.Current() != c.Stops[k-1] {
			t.Errorf("navigation %d: Current() is not the stop just set", k)
		}
	}
}

// TestVisitSerializesTheWholeList checks the second planted bug: each
// visit rewrites the whole list, each stop with its routes and each route
// with all its stops.
func TestVisitSerializesTheWholeList(t *testing.T) {
	c := NewCity()
	var v ViewState
	first := "1000:10[Capitol Hill;Pike St & 3rd Ave;Pine St & 4th Ave;University St;]" +
		"40[Fremont Ave;Westlake Center;Pike St & 3rd Ave;Pioneer Square;]\n"
	v.SetCurrent(c.Stops[0])
	if v.Saved != first {
		t.Errorf("saved after one visit:\n%q\nwant\n%q", v.Saved, first)
	}
	v.SetCurrent(c.Stops[1])
	v.SetCurrent(c.Stops[0])
	lines := strings.SplitAfter(v.Saved, "\n")
	if len(lines) != 4 || lines[3] != "" {
		t.Fatalf("saved after three visits has %d lines, want 3:\n%s", len(lines)-1, v.Saved)
	}
	if lines[0] != first || lines[2] != first || !strings.HasPrefix(lines[1], "1007:10[") {
		t.Errorf("saved after three visits:\n%s", v.Saved)
	}
	if len(v.Recent) != 3 {
		t.Errorf("%d recent stops, want 3 (every visit is kept)", len(v.Recent))
	}
}

// TestCity checks the data the README's counts rely on: 8 stops, 4 routes
// of 4 stops, the links both ways, and arrivals that are the same on every
// run.
func TestCity(t *testing.T) {
	c := NewCity()
	if len(c.Stops) != 8 || len(c.Routes) != 4 {
		t.Fatalf("%d stops and %d routes, want 8 and 4", len(c.Stops), len(c.Routes))
	}
	codes := map[string]bool{}
	for _, s := range c.Stops {
		if s.Name() == "" || codes[s.Code()] {
			t.Errorf("stop %q has an empty name or a duplicate code %q", s.Name(), s.Code())
		}
		codes[s.Code()] = true
		for _, r := range s.Routes() {
			found := false
			for _, st := range r.Stops() {
				found = found || st == s
			}
			if !found {
				t.Errorf("route %s serves %q but does not list it", r.ShortName(), s.Name())
			}
		}
	}
	for _, r := range c.Routes {
		if len(r.Stops()) != 4 || r.LongName() == "" {
			t.Errorf("route %s: %d stops, long name %q", r.ShortName(), len(r.Stops()), r.LongName())
		}
	}
	again := NewCity()
	for i, s := range c.Stops {
		as, bs := c.Arrivals(s), again.Arrivals(again.Stops[i])
		if len(as) != len(s.Routes()) || len(as) != len(bs) {
			t.Fatalf("stop %q: %d and %d arrivals for %d routes", s.Name(), len(as), len(bs), len(s.Routes()))
		}
		for j, a := range as {
			stops := a.Route().Stops()
			if a.Headsign() != stops[len(stops)-1].Name() {
				t.Errorf("stop %q: arrival %d goes to %q, not its route's last stop", s.Name(), j, a.Headsign())
			}
			if a.Minutes() != bs[j].Minutes() || a.Minutes() < 1 || a.Minutes() > 20 {
				t.Errorf("stop %q: arrival %d in %d then %d minutes", s.Name(), j, a.Minutes(), bs[j].Minutes())
			}
		}
	}
}
