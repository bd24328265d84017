//go:build unix

package main

import (
	"os"
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, so that a signal
// for it can reach everything it starts (go test's test binaries).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends s to cmd's process group (see ownGroup).
func signalGroup(cmd *exec.Cmd, s os.Signal) {
	if sig, ok := s.(syscall.Signal); ok {
		syscall.Kill(-cmd.Process.Pid, sig)
		return
	}
	cmd.Process.Signal(s)
}

// ownedByMe reports whether this user owns the file fi describes.
func ownedByMe(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
