package instrument

import (
	"context"
	"os"
	"path/filepath"
	"strings"
)

// modFileDir says whether the go command, run in dir with flags, would be
// free to edit the main module's go.mod or go.sum: GOFLAGS holds -mod=mod
// and neither flags nor GOFLAGS choose another -mod or a -modfile. It then
// returns the module's directory, whose go.mod and go.sum the build must
// use through a copy (see copyModFile); otherwise "". Outside a module and
// in a workspace (where the go command refuses -mod=mod itself) it
// returns "".
func modFileDir(ctx context.Context, dir string, flags []string) string {
	goflags := strings.Fields(os.Getenv("GOFLAGS"))
	if !hasFlag(goflags, "mod", "mod") || hasFlag(goflags, "modfile", "") || hasFlag(flags, "mod", "") || hasFlag(flags, "modfile", "") {
		return ""
	}
	v, err := goEnv(ctx, dir, "GOMOD", "GOWORK")
	if err != nil || v[0] == "" || v[0] == os.DevNull || (v[1] != "" && v[1] != "off") {
		return ""
	}
	return filepath.Dir(v[0])
}

// hasFlag reports whether args set the go command flag name (with one or
// two dashes), to value if value is not "".
func hasFlag(args []string, name, value string) bool {
	for _, a := range args {
		a = strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		if a == name && value == "" {
			return true
		}
		if v, ok := strings.CutPrefix(a, name+"="); ok && (value == "" || v == value) {
			return true
		}
	}
	return false
}

// copyModFile copies the go.mod and go.sum of the module at moddir into
// work and returns the go command flags that use the copy: the go command
// then resolves and records what it must in the copy, never in the
// user's files. A module without go.sum gets an empty one.
func copyModFile(moddir, work string) ([]string, error) {
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(moddir, name))
		if err != nil && !(name == "go.sum" && os.IsNotExist(err)) {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(work, name), data, 0o644); err != nil {
			return nil, err
		}
	}
	return []string{"-modfile", filepath.Join(work, "go.mod")}, nil
}

// useModCopy makes opt's go commands read a copy of the module's go.mod
// and go.sum when they would be free to edit them (see modFileDir); done
// removes the copy.
func useModCopy(ctx context.Context, opt *Options) (done func(), err error) {
	moddir := modFileDir(ctx, opt.Dir, opt.BuildFlags)
	if moddir == "" {
		return func() {}, nil
	}
	work, err := os.MkdirTemp("", "suncat-mod-")
	if err != nil {
		return nil, err
	}
	more, err := copyModFile(moddir, work)
	if err != nil {
		os.RemoveAll(work)
		return nil, err
	}
	opt.BuildFlags = append(opt.BuildFlags[:len(opt.BuildFlags):len(opt.BuildFlags)], more...)
	return func() { os.RemoveAll(work) }, nil
}
