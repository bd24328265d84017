//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package host

// TraceInUse reports whether a process is writing the trace at path;
// where there are no file locks to ask, it says no.
func TraceInUse(path string) bool { return false }
