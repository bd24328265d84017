package logrt

import (
	"testing"
	"time"
)

func TestParseDelay(t *testing.T) {
	cases := []struct {
		in   string
		ids  []uint32
		d    time.Duration
		spin bool
		err  string
	}{
		{in: "ids=3,7 d=5ms mode=spin", ids: []uint32{3, 7}, d: 5 * time.Millisecond, spin: true},
		{in: "d=1s ids=1", ids: []uint32{1}, d: time.Second},
		{in: "ids=0", err: `ids: "0" is not a getter id`},
		{in: "ids=x", err: `ids: "x" is not a getter id`},
		{in: "d=-1ms", err: `d: "-1ms" is not a non-negative duration`},
		{in: "d=soon", err: `d: "soon" is not a non-negative duration`},
		{in: "mode=fast", err: `mode: "fast" is not sleep or spin`},
		{in: "ids", err: `"ids" is not key=value`},
		{in: "speed=1", err: `unknown key "speed"`},
	}
	for _, tc := range cases {
		ids, d, spin, err := ParseDelay(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%q: error %v, want %s", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || d != tc.d || spin != tc.spin || len(ids) != len(tc.ids) {
			t.Errorf("%q: got %v %v %v %v", tc.in, ids, d, spin, err)
			continue
		}
		for i := range ids {
			if ids[i] != tc.ids[i] {
				t.Errorf("%q: ids %v, want %v", tc.in, ids, tc.ids)
			}
		}
	}
}

// TestDelayApplies checks that a delayed getter takes at least its delay
// and that other getters are not delayed at all (no recording: state off).
func TestDelayApplies(t *testing.T) {
	defer SetDelays(nil, 0, false)
	for _, spin := range []bool{false, true} {
		SetDelays([]uint32{5}, 20*time.Millisecond, spin)
		start := time.Now()
		delay(5)
		if el := time.Since(start); el < 20*time.Millisecond {
			t.Errorf("spin=%v: delayed call took %v, want at least 20ms", spin, el)
		}
		start = time.Now()
		for i := 0; i < 100; i++ {
			delay(4)
			delay(6)
		}
		if el := time.Since(start); el >= 20*time.Millisecond {
			t.Errorf("spin=%v: 200 undelayed calls took %v", spin, el)
		}
	}
}
