package instrument

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt"
)

// TestThirdPartyProtobuf instruments a real module from the module proxy,
// google.golang.org/protobuf, builds its protoc-gen-go command, runs it,
// and checks the trace holds calls of protobuf's generated proto2 getters.
func TestThirdPartyProtobuf(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads and analyzes google.golang.org/protobuf")
	}
	const mod = "google.golang.org/protobuf@v1.36.10"
	out, err := exec.Command("go", "mod", "download", "-json", mod).Output()
	if err != nil {
		t.Skipf("cannot download %s: %v", mod, err)
	}
	var info struct{ Dir string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		t.Fatalf("go mod download: %s", out)
	}
	// The module cache is read-only and cannot be overlaid: work on a copy.
	src := filepath.Join(t.TempDir(), "protobuf")
	copyTree(t, info.Dir, src)
	bin := filepath.Join(t.TempDir(), "protoc-gen-go")
	res, err := Build(context.Background(), BuildOptions{Dir: src, Package: "./cmd/protoc-gen-go", Output: bin})
	if err != nil {
		t.Fatal(err)
	}
	proto2 := 0
	for _, g := range res.Analysis.Getters {
		if strings.HasPrefix(g.Field, "*") && strings.HasPrefix(g.Method, "Get") {
			proto2++
		}
	}
	if proto2 < 5 {
		t.Errorf("only %d proto2 GetX getters found in %d getters", proto2, len(res.Analysis.Getters))
	}
	traces := t.TempDir()
	cmd := exec.Command(bin, "--version")
	cmd.Env = append(os.Environ(), logrt.TraceEnv+"="+traces+"/", "SUNCAT_CONTROL=off")
	if o, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(o), "v1.36.10") {
		t.Fatalf("instrumented protoc-gen-go --version: %v\n%s", err, o)
	}
	files, _ := filepath.Glob(filepath.Join(traces, "*.suncat"))
	if len(files) != 1 {
		t.Fatalf("traces: %v", files)
	}
	tr, err := logrt.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Events) == 0 {
		t.Fatal("no events recorded")
	}
	for _, e := range tr.Events {
		st := tr.StackOf(e.Stack)
		if !strings.HasPrefix(st.Frames[0].File, src) {
			t.Fatalf("first frame %s:%d is not in the module's own files", st.Frames[0].File, st.Frames[0].Line)
		}
	}
}

func copyTree(t *testing.T, from, to string) {
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
