//go:build !linux

package logrt

// makeSlots returns n zeroed slots of the Go heap (slots_linux.go maps
// large tables for huge pages).
func makeSlots(n int) ([]flatSlot, []byte) { return make([]flatSlot, n), nil }

func freeSlots(m []byte) {}
