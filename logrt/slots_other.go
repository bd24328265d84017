//go:build !linux

package logrt

import "unsafe"

// hugeSlots is the size from which Linux maps a table's slots
// (slots_linux.go); here every table is of the Go heap.
const hugeSlots = 2 << 20 / int(unsafe.Sizeof(flatSlot{}))

// makeSlots returns n zeroed slots of the Go heap (slots_linux.go maps
// large tables for huge pages).
func makeSlots(n int) ([]flatSlot, []byte) { return make([]flatSlot, n), nil }

func freeSlots(m []byte) {}
