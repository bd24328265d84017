package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoRuntimeImport checks that suncat does not link the runtime that
// it compiles into instrumented programs (logrt, and logrt/testhook,
// which imports it): its init would run in every suncat command. Of the
// logrt tree, suncat may link only what is written for it: the format
// definitions and names (tracefmt), the reader (tracefile) and the
// control client (host).
func TestNoRuntimeImport(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	const logrt = "github.com/suncat-go/suncat/logrt"
	allowed := map[string]bool{logrt + "/tracefmt": true, logrt + "/tracefile": true, logrt + "/host": true}
	seen := 0
	for _, pkg := range strings.Fields(string(out)) {
		if pkg != logrt && !strings.HasPrefix(pkg, logrt+"/") {
			continue
		}
		if !allowed[pkg] {
			t.Errorf("suncat links %s, which is compiled into instrumented programs", pkg)
		}
		seen++
	}
	if seen == 0 {
		t.Fatalf("go list -deps lists no package of %s; is it listing suncat?\n%s", logrt, out)
	}
}
