//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package logrt

// serveControl: there are no unix sockets in package syscall here, so
// there is no control channel; marks can still come from code (Mark).
func serveControl(tracePath string) {}
