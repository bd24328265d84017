//go:build race

package logrt

// raceEnabled says that the race detector is on: a P's shard then also
// takes its lock (pinned.go).
const raceEnabled = true
