package instrument

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestBuildConcurrent builds one module twice at the same time (two
// terminals running suncat run, say): each build has its own work
// directory, both binaries run, and no work directory is left behind.
func TestBuildConcurrent(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":  "module example.com/conc\n\ngo 1.22\n",
		"main.go": "package main\n\ntype S struct{ n string }\n\nfunc (s *S) N() string { return s.n }\n\nfunc main() { println((&S{\"ok\"}).N()) }\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, errs[i] = Build(context.Background(), BuildOptions{Options: Options{Dir: dir}, Output: filepath.Join(out, string(rune('a'+i)))})
		}(i)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("build %d: %v", i, err)
		}
		cmd := exec.Command(filepath.Join(out, string(rune('a'+i))))
		cmd.Env = append(os.Environ(), "SUNCAT_TRACE="+t.TempDir()+"/", "SUNCAT_CONTROL=off")
		if o, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(o), "ok") {
			t.Fatalf("binary %d: %v\n%s", i, err, o)
		}
	}
	work, err := cacheDir("work")
	if err != nil {
		t.Fatal(err)
	}
	left, _ := filepath.Glob(filepath.Join(work, dirHash(dir)+"-*"))
	if len(left) > 0 {
		t.Errorf("work directories left behind: %v", left)
	}
	// -o naming a directory puts the binary in it, as go build does.
	res, err := Build(context.Background(), BuildOptions{Options: Options{Dir: dir}, Output: out})
	if err != nil {
		t.Fatal(err)
	}
	if res.Output != filepath.Join(out, "conc") {
		t.Errorf("-o %s: output %s, want %s", out, res.Output, filepath.Join(out, "conc"))
	}
	if _, err := os.Stat(res.Output); err != nil {
		t.Error(err)
	}
}

func TestExecName(t *testing.T) {
	for path, want := range map[string]string{
		"example.com/tool":            "tool",
		"example.com/tool/v4":         "tool",
		"example.com/tool/cmd/server": "server",
		"example.com/tool/v10":        "tool",
		"example.com/tool/v1":         "v1",
		"example.com/tool/v0":         "v0",
		"example.com/tool/v02":        "v02",
		"example.com/tool/vx":         "vx",
		"v2":                          "v2",
		"tool":                        "tool",
	} {
		if got := execName(path); got != want {
			t.Errorf("execName(%q) = %q, want %q", path, got, want)
		}
	}
}
