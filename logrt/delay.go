package logrt

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// Delays slow chosen getters down, so a user can see whether a pattern is
// on the path a person waits for (SUNCAT paper, section 3.3). The delayed
// build calls SetDelays from generated code; SUNCAT_DELAY sets them at run
// time in any instrumented binary:
//
//	SUNCAT_DELAY="ids=3,7 d=5ms mode=spin"
//
// mode sleep (the default) blocks the goroutine; spin burns CPU like real
// work would. The delay is taken after the event is recorded, outside any
// lock.

// DelayEnv is the environment variable read by ParseDelayEnv
// (tracefmt.DelayEnv).
const DelayEnv = tracefmt.DelayEnv

// delays is indexed by getter id; it is written before main runs (from
// init code) and only read afterwards.
var (
	delays    []time.Duration
	delaySpin bool
)

// SetDelays makes every call of the getters ids take d longer. spin burns
// CPU instead of sleeping. It must be called before the program's
// goroutines call getters (from init code).
func SetDelays(ids []uint32, d time.Duration, spin bool) {
	var max uint32
	for _, id := range ids {
		if id > max {
			max = id
		}
	}
	ds := make([]time.Duration, max+1)
	for _, id := range ids {
		ds[id] = d
	}
	delays, delaySpin = ds, spin
}

func delay(id uint32) {
	if int(id) >= len(delays) || delays[id] <= 0 {
		return
	}
	d := delays[id]
	if !delaySpin {
		time.Sleep(d)
		return
	}
	for start := time.Now(); time.Since(start) < d; {
	}
}

// ParseDelay parses the SUNCAT_DELAY syntax.
func ParseDelay(s string) (ids []uint32, d time.Duration, spin bool, err error) {
	for _, f := range strings.Fields(s) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return nil, 0, false, fmt.Errorf("%q is not key=value", f)
		}
		switch k {
		case "ids":
			for _, x := range strings.Split(v, ",") {
				id, err := strconv.ParseUint(x, 10, 32)
				if err != nil || id == 0 {
					return nil, 0, false, fmt.Errorf("ids: %q is not a getter id", x)
				}
				ids = append(ids, uint32(id))
			}
		case "d":
			if d, err = time.ParseDuration(v); err != nil || d < 0 {
				return nil, 0, false, fmt.Errorf("d: %q is not a non-negative duration", v)
			}
		case "match": // the ids a pattern limits: parseMatchIDs
		case "mode":
			switch v {
			case "sleep":
			case "spin":
				spin = true
			default:
				return nil, 0, false, fmt.Errorf("mode: %q is not sleep or spin", v)
			}
		default:
			return nil, 0, false, fmt.Errorf("unknown key %q", k)
		}
	}
	return ids, d, spin, nil
}

func init() {
	s := os.Getenv(DelayEnv)
	if s == "" {
		return
	}
	ids, d, spin, err := ParseDelay(s)
	if err != nil {
		fmt.Fprintf(os.Stderr, "suncat: %s ignored: %v\n", DelayEnv, err)
		return
	}
	SetDelays(ids, d, spin)
	if match := parseMatchIDs(s); len(match) > 0 {
		SetDelayMatch(match, os.Getenv(DelayMatchEnv))
	}
}
