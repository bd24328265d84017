package instrument

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/internal/thirdparty"
	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// TestThirdPartyProtobuf instruments a real module from the module proxy,
// google.golang.org/protobuf, builds its protoc-gen-go command, runs it,
// and checks the trace holds calls of protobuf's generated proto2 getters.
func TestThirdPartyProtobuf(t *testing.T) {
	thirdparty.Require(t, "google.golang.org/protobuf")
	if testing.Short() {
		t.Skip("downloads and analyzes google.golang.org/protobuf")
	}
	src := thirdparty.Copy(t, "google.golang.org/protobuf@v1.36.10")
	bin := filepath.Join(t.TempDir(), "protoc-gen-go")
	res, err := Build(context.Background(), BuildOptions{Options: Options{Dir: src}, Package: "./cmd/protoc-gen-go", Output: bin})
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
	cmd.Env = append(os.Environ(), tracefmt.TraceEnv+"="+traces+"/", "SUNCAT_CONTROL=off")
	if o, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(o), "v1.36.10") {
		t.Fatalf("instrumented protoc-gen-go --version: %v\n%s", err, o)
	}
	files, _ := filepath.Glob(filepath.Join(traces, "*.suncat"))
	if len(files) != 1 {
		t.Fatalf("traces: %v", files)
	}
	tr, err := tracefile.ReadFile(files[0])
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

// TestThirdPartyDeps builds protobuf's protoc-gen-go as a tool from a
// module that requires protobuf (the module cache copy, not a checkout),
// with -deps on the descriptor, plugin and protogen packages: they are
// copied out of the module cache and redirected. The instrumented
// compiler plugin then generates Go code for a small .proto request, and
// the trace must hold the descriptor getters' calls with stacks naming the
// module cache's files and lines.
func TestThirdPartyDeps(t *testing.T) {
	thirdparty.Require(t, "google.golang.org/protobuf")
	if testing.Short() {
		t.Skip("analyzes and compiles part of google.golang.org/protobuf")
	}
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":   "module example.com/tools\n\ngo 1.23\n\nrequire google.golang.org/protobuf v1.36.10\n",
		"tools.go": "//go:build tools\n\npackage tools\n\nimport _ \"google.golang.org/protobuf/cmd/protoc-gen-go\"\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tidy := exec.Command("go", "mod", "tidy")
	tidy.Dir = dir
	if out, err := tidy.CombinedOutput(); err != nil {
		t.Fatalf("go mod tidy (needs google.golang.org/protobuf@v1.36.10): %v\n%s", err, out)
	}
	before := thirdparty.TreeSum(t, dir)
	bin := filepath.Join(t.TempDir(), "protoc-gen-go")
	res, err := Build(context.Background(), BuildOptions{
		Options: Options{Dir: dir, Deps: "google.golang.org/protobuf/types/descriptorpb,google.golang.org/protobuf/types/pluginpb,google.golang.org/protobuf/compiler/protogen"},
		Package: "google.golang.org/protobuf/cmd/protoc-gen-go", Output: bin,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Analysis.Getters) < 20 {
		t.Errorf("only %d getters in protobuf's descriptor, plugin and protogen packages", len(res.Analysis.Getters))
	}
	if after := thirdparty.TreeSum(t, dir); after != before {
		t.Errorf("the module's files changed:\n%s\nbecame\n%s", before, after)
	}

	traces := t.TempDir()
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader(string(codeGeneratorRequest()))
	cmd.Env = append(os.Environ(), tracefmt.TraceEnv+"="+traces+"/", "SUNCAT_CONTROL=off")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("instrumented protoc-gen-go: %v", err)
	}
	if !strings.Contains(string(out), "type Stop struct") || !strings.Contains(string(out), "stops.pb.go") {
		t.Fatalf("protoc-gen-go did not generate stops.pb.go with type Stop:\n%q", out)
	}
	files, _ := filepath.Glob(filepath.Join(traces, "*.suncat"))
	if len(files) != 1 {
		t.Fatalf("traces: %v", files)
	}
	tr, err := tracefile.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range tr.Events {
		g := tr.Getters[e.Getter-1]
		if g.Method != "GetName" || g.Receiver != "*FileDescriptorProto" || e.Value != "stops.proto" {
			continue
		}
		f := tr.StackOf(e.Stack).Frames[0]
		if !strings.Contains(f.File, "/google.golang.org/protobuf@v1.36.10/types/descriptorpb/descriptor.pb.go") {
			t.Fatalf("first frame of GetName at %s:%d, want the module cache's descriptor.pb.go", f.File, f.Line)
		}
		src, err := os.ReadFile(f.File)
		if err != nil {
			t.Fatal(err)
		}
		if line := strings.Split(string(src), "\n")[f.Line-1]; !strings.Contains(line, "return *x.Name") {
			t.Fatalf("%s:%d is %q, not GetName's return", f.File, f.Line, line)
		}
		found = true
	}
	if !found {
		t.Fatalf("no (*FileDescriptorProto).GetName event with \"stops.proto\" in %d events", len(tr.Events))
	}
}

// codeGeneratorRequest encodes, in protobuf's wire format, a request to
// generate Go code for
//
//	// stops.proto
//	syntax = "proto3";
//	package stops;
//	option go_package = "example.com/stops";
//	message Stop { string name = 1; }
func codeGeneratorRequest() []byte {
	str := func(field int, s string) []byte { return msg(field, []byte(s)) }
	fieldName := cat(str(1, "name"), varint(3, 1), varint(4, 1), varint(5, 9), str(10, "name"))
	message := cat(str(1, "Stop"), msg(2, fieldName))
	file := cat(str(1, "stops.proto"), str(2, "stops"), msg(4, message), msg(8, str(11, "example.com/stops")), str(12, "proto3"))
	return cat(str(1, "stops.proto"), msg(15, file))
}

func cat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

func uvarint(v uint64) []byte {
	var b []byte
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func varint(field int, v uint64) []byte { return cat(uvarint(uint64(field)<<3), uvarint(v)) }

func msg(field int, data []byte) []byte {
	return cat(uvarint(uint64(field)<<3|2), uvarint(uint64(len(data))), data)
}
