//go:build go1.19

package logrt

import "hash/maphash"

func hashString(seed maphash.Seed, s string) uint64 { return maphash.String(seed, s) }
