//go:build !(amd64 || arm64)

package logrt

const fpSupported = false

func fpCallers(pcs []uintptr, root *uintptr) int { return 0 }

func calibrate() bool { return false }
