package logrt

import (
	"strconv"
	"strings"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// A delay can be limited to the calls whose recorded value matches a
// pattern (tracefmt.Like; suncat delay --getter 'sql:SELECT Name FROM Tags%': one
// statement of all those a hooked method runs): a SQL LIKE pattern, %
// for any run of characters and _ for any one, over the value with its
// white space folded into single spaces, so a statement written over
// several lines matches as it reads on one line. At run time the key
// match of SUNCAT_DELAY names the ids it limits and SUNCAT_DELAY_MATCH
// holds the pattern:
//
//	SUNCAT_DELAY="ids=3,4 d=1ms match=3,4" SUNCAT_DELAY_MATCH="SELECT Name FROM Tags%"

// DelayMatchEnv is the environment variable that holds the pattern
// (tracefmt.DelayMatchEnv).
const DelayMatchEnv = tracefmt.DelayMatchEnv

// delayLike is the pattern and delayLikeIDs, indexed by getter id, the
// ids it limits; written before main runs, only read afterwards.
var (
	delayLike    string
	delayLikeIDs []bool
)

// SetDelayMatch limits the delays of the getters ids to the calls whose
// value matches pattern (see Like). Like SetDelays, it must be called
// before the program's goroutines call getters.
func SetDelayMatch(ids []uint32, pattern string) {
	var max uint32
	for _, id := range ids {
		if id > max {
			max = id
		}
	}
	in := make([]bool, max+1)
	for _, id := range ids {
		in[id] = true
	}
	delayLike, delayLikeIDs = pattern, in
}

// delayWanted reports whether a call of getter id returning v is
// delayed, as far as a pattern says.
func delayWanted(id uint32, v string) bool {
	if int(id) >= len(delayLikeIDs) || !delayLikeIDs[id] {
		return true
	}
	return tracefmt.Like(v, delayLike)
}

// parseMatchIDs reads the key match of SUNCAT_DELAY (the ids a pattern
// limits); ParseDelay leaves it to this.
func parseMatchIDs(s string) []uint32 {
	var ids []uint32
	for _, f := range strings.Fields(s) {
		k, v, _ := strings.Cut(f, "=")
		if k != "match" {
			continue
		}
		for _, x := range strings.Split(v, ",") {
			if id, err := strconv.ParseUint(x, 10, 32); err == nil && id > 0 {
				ids = append(ids, uint32(id))
			}
		}
	}
	return ids
}
