package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

var versionCmd = &command{
	name:  "version",
	args:  "",
	short: "print suncat's version and the Go version it was built with",
	order: 90,
	long: `
Version prints suncat's module version (or "devel" for a build from a
source tree), its VCS revision when known, and the Go version.
`,
}

func init() {
	versionCmd.run = runVersion
	register(versionCmd)
}

func runVersion(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(versionCmd, stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected arguments")
	}
	version, rev := "devel", ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			version = v
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				rev = " " + s.Value[:12]
			}
		}
	}
	fmt.Fprintf(stdout, "suncat %s%s %s %s/%s\n", version, rev, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return nil
}
