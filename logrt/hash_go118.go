//go:build !go1.19

package logrt

import "hash/maphash"

// hashString is maphash.String, which Go 1.19 added.
func hashString(seed maphash.Seed, s string) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	h.WriteString(s)
	return h.Sum64()
}
