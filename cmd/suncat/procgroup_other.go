//go:build !unix

package main

import (
	"os"
	"os/exec"
)

// ownGroup does nothing where there are no process groups.
func ownGroup(cmd *exec.Cmd) {}

// signalGroup sends s to cmd.
func signalGroup(cmd *exec.Cmd, s os.Signal) { cmd.Process.Signal(s) }

// ownedByMe reports true: where there are no unix owners, the temporary
// directory is the user's own.
func ownedByMe(fi os.FileInfo) bool { return true }
