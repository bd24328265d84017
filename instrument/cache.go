package instrument

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// The analysis is cached by the content of the module's files, so a second
// build of unchanged sources runs neither go list nor SSA. The key hashes
// every .go file of the main module (outside testdata, vendor and nested
// modules), go.mod, go.sum, vendor/modules.txt, the options and the
// environment that changes what the go command sees. Dependencies are
// identified by go.sum: a module version's files never change. Only package patterns
// that are directories (".", "./cmd/app") inside a module that is not part
// of a go.work workspace are cached; anything else is analyzed every time.
// With -deps, vendor/ is hashed too, and a go.mod that replaces a module
// by a local directory is not cached.

// analysisVersion changes whenever the classifier's results would.
const analysisVersion = "suncat-analysis-21-dep-hints"

// cacheKey returns the key of the analysis for opt, or false when the
// analysis cannot be cached.
func cacheKey(opt Options) (string, bool) {
	if len(opt.Patterns) == 0 {
		return "", false
	}
	if w := os.Getenv("GOWORK"); w != "" && w != "off" {
		return "", false
	}
	root, ok := patternsRoot(opt)
	if !ok {
		return "", false
	}
	// The patterns are relative to the working directory: ./... from
	// cmd/a is not ./... from the root, nor "." in cmd/a "." in cmd/b.
	rel, err := filepath.Rel(root, opt.Dir)
	if err != nil {
		return "", false
	}
	p := filepath.ToSlash(rel) + "\x00" + strings.Join(opt.Patterns, "\x00")
	if opt.Deps != "" {
		// With -deps, a dependency replaced by a local directory may
		// change without go.sum seeing it: not cached. Vendored
		// dependencies are hashed with the module's files.
		gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
		if err != nil || hasLocalReplace(gomod) {
			return "", false
		}
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%v\x00%s\x00%s\x00%q\x00%s\x00%v\x00", analysisVersion, root, p, opt.Funcs, re(opt.Match), re(opt.Skip), opt.BuildFlags, opt.Deps, opt.Tests)
	if opt.Reads || opt.Calls != "" {
		// Plain builds keep their keys (and cached analyses).
		fmt.Fprintf(h, "events\x00%v\x00%s\x00", opt.Reads, opt.Calls)
	}
	if opt.Loops {
		fmt.Fprintf(h, "loops\x00")
	}
	for _, k := range []string{"GOOS", "GOARCH", "GOFLAGS", "CGO_ENABLED", "GOEXPERIMENT"} {
		fmt.Fprintf(h, "%s=%s\x00", k, os.Getenv(k))
	}
	fmt.Fprintf(h, "%s/%s\x00", runtime.GOOS, runtime.GOARCH)
	err = hashModule(h, root, opt.Deps != "")
	if err != nil {
		return "", false
	}
	if err := hashFile(h, root, filepath.Join(root, "vendor", "modules.txt")); err != nil && !os.IsNotExist(err) {
		return "", false
	}
	return hex.EncodeToString(h.Sum(nil)), true
}

// patternsRoot returns the root of the one module that opt's patterns
// name packages of, or false when they are not all relative paths in one
// module (./..., ./x/... and . stand for the packages under a directory
// of the module, all of whose files cacheKey hashes).
func patternsRoot(opt Options) (string, bool) {
	root := ""
	for _, p := range opt.Patterns {
		if p != "." && p != ".." && !strings.HasPrefix(p, "./") && !strings.HasPrefix(p, "../") {
			return "", false
		}
		d := strings.TrimSuffix(strings.TrimSuffix(p, "..."), "/")
		if strings.Contains(d, "...") {
			return "", false
		}
		r, ok := moduleRoot(filepath.Join(opt.Dir, d))
		if !ok || root != "" && r != root {
			return "", false
		}
		root = r
	}
	return root, true
}

// hashModule hashes the module's Go files, go.mod and go.sum into h, not
// those of testdata, vendor (unless deps: -deps may instrument vendored
// packages), hidden or _ directories, nor of nested modules.
func hashModule(h io.Writer, root string, deps bool) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path == filepath.Join(root, "vendor") && deps {
				return nil // -deps may instrument vendored packages
			}
			if path != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if path != root {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir // a nested module
				}
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") && name != "go.mod" && name != "go.sum" {
			return nil
		}
		return hashFile(h, root, path)
	})
}

// moduleRoot returns the root of the module holding dir, or false when
// there is none or a go.work file is above dir (workspaces are not cached).
func moduleRoot(dir string) (string, bool) {
	root := ""
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.work")); err == nil {
			return "", false
		}
		if root == "" {
			if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
				root = d
			}
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return root, root != ""
}

// hasLocalReplace reports whether go.mod text replaces a module by a
// directory (a path starting with ./, ../ or /), erring on the side of yes.
func hasLocalReplace(gomod []byte) bool {
	for _, line := range strings.Split(string(gomod), "\n") {
		_, rhs, ok := strings.Cut(line, "=>")
		if !ok {
			continue
		}
		rhs = strings.Trim(strings.TrimSpace(rhs), `"`)
		if strings.HasPrefix(rhs, "./") || strings.HasPrefix(rhs, "../") || strings.HasPrefix(rhs, "/") || rhs == "." || rhs == ".." || filepath.IsAbs(rhs) {
			return true
		}
	}
	return false
}

func re(r interface{ String() string }) string {
	if r == nil || fmt.Sprint(r) == "<nil>" {
		return ""
	}
	return r.String()
}

func hashFile(h io.Writer, root, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	rel, _ := filepath.Rel(root, path)
	fmt.Fprintf(h, "%s\x00", rel)
	_, err = io.Copy(h, f)
	return err
}

func cachePath(key string) (string, error) {
	dir, err := cacheDir("analysis")
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, key+".json"), nil
}

func loadCached(key string) (*Analysis, bool) {
	p, err := cachePath(key)
	if err != nil {
		return nil, false
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, false
	}
	var a Analysis
	if json.Unmarshal(data, &a) != nil {
		return nil, false
	}
	return &a, true
}

func storeCached(key string, a *Analysis) {
	p, err := cachePath(key)
	if err != nil {
		return
	}
	data, err := json.Marshal(a)
	if err != nil {
		return
	}
	// A temporary file of its own, so concurrent builds never mix writes.
	f, err := os.CreateTemp(filepath.Dir(p), "tmp-*.json")
	if err != nil {
		return
	}
	_, err = f.Write(data)
	if err2 := f.Close(); err == nil {
		err = err2
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
	}
}
