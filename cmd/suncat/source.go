package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/suncat-go/suncat/prioritize"
)

// maxSourceFile is the largest source file suncat reads.
const maxSourceFile = 4 << 20

// readSource reads a Go source file named in a stack: only .go files, at
// most maxSourceFile bytes. The findings read the loops around the
// frames with it (userSources), the report shows them.
func readSource(path string) ([]byte, error) {
	if !strings.HasSuffix(path, ".go") {
		return nil, fmt.Errorf("%s: not a Go file", path)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.Size() > maxSourceFile {
		return nil, fmt.Errorf("%s: over %d bytes", path, maxSourceFile)
	}
	return os.ReadFile(path)
}

// userSources is how prioritize reads the user's files for one command:
// each once (prioritize.Sources), so a command makes one and passes it to
// every summary and comparison it computes.
func userSources() *prioritize.Sources {
	return prioritize.NewSources(readSource)
}
