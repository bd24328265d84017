package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(exitCode(run(os.Stdout, os.Stderr, os.Args[1:]), os.Stderr))
}

// exitCode reports err on stderr and maps it to the process exit status:
// 0 for success, 2 for misuse (a usageError), 1 for any other failure.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	var silent silentError
	if !errors.As(err, &silent) {
		fmt.Fprintf(stderr, "suncat: %v\n", err)
	}
	var u usageError
	if errors.As(err, &u) {
		return 2
	}
	var x exitError
	if errors.As(err, &x) {
		return int(x)
	}
	return 1
}
