package testtmp

import (
	"os/exec"
	"syscall"
)

// dieWithParent kills the child when the parent dies, so that a killed
// test binary leaves no test running.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
