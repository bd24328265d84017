//go:build !race

package logrt

const raceEnabled = false
