//go:build !(amd64 || arm64)

package logrt

const fpSupported = false

func fpCallers(pcs []uintptr) (int, uintptr) { return 0, 0 }

func calibrate() bool { return false }
