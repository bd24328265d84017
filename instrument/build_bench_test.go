package instrument

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Benchmarks of an instrumented build of the bus app against a plain go
// build of it, in the same run, both with a warm cache (the build cache
// and suncat's analysis cache):
//
//	go test -run '^$' -bench Build -benchtime 20x ./instrument
//
// (Build matches the bus app's pair and the protobuf pair below.)

func busApp(b *testing.B) string {
	dir, err := filepath.Abs("../testdata/busapp")
	if err != nil {
		b.Fatal(err)
	}
	return dir
}

func BenchmarkPlainBuild(b *testing.B) {
	dir, out := busApp(b), filepath.Join(b.TempDir(), "plain")
	build := func() {
		cmd := exec.Command("go", "build", "-o", out, ".")
		cmd.Dir = dir
		if o, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v\n%s", err, o)
		}
	}
	build()
	measure(b, build)
}

func BenchmarkInstrumentedBuild(b *testing.B) {
	dir, out := busApp(b), filepath.Join(b.TempDir(), "instrumented")
	build := func() {
		if _, err := Build(context.Background(), BuildOptions{Options: Options{Dir: dir}, Output: out}); err != nil {
			b.Fatal(err)
		}
	}
	build()
	measure(b, build)
}

// protoApp writes a small program using protobuf's descriptorpb into a
// temporary module (once per benchmark) and returns its directory.
func protoApp(b *testing.B) string {
	dir := b.TempDir()
	for name, text := range map[string]string{
		"go.mod":  "module example.com/protoapp\n\ngo 1.23\n\nrequire google.golang.org/protobuf v1.36.10\n",
		"main.go": "package main\n\nimport (\n\t\"fmt\"\n\n\t\"google.golang.org/protobuf/proto\"\n\t\"google.golang.org/protobuf/types/descriptorpb\"\n)\n\ntype Stop struct{ name string }\n\nfunc (s *Stop) Name() string { return s.name }\n\nfunc main() {\n\tfd := &descriptorpb.FileDescriptorProto{Name: proto.String(\"stops.proto\")}\n\tfmt.Println((&Stop{\"Pike St\"}).Name(), fd.GetName())\n}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	cmd := exec.Command("go", "mod", "tidy")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Skipf("go mod tidy (needs google.golang.org/protobuf@v1.36.10): %v\n%s", err, out)
	}
	return dir
}

// BenchmarkPlainBuildProto and BenchmarkInstrumentedBuildDeps compare a
// plain build of a protobuf-using program with one that also instruments
// protobuf's descriptor getters (-deps), warm: the analysis cache, the
// module's copy and the build cache all hit.
func BenchmarkPlainBuildProto(b *testing.B) {
	dir := protoApp(b)
	out := filepath.Join(b.TempDir(), "plain")
	build := func() {
		cmd := exec.Command("go", "build", "-o", out, ".")
		cmd.Dir = dir
		if o, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v\n%s", err, o)
		}
	}
	build()
	measure(b, build)
}

func BenchmarkInstrumentedBuildDeps(b *testing.B) {
	dir := protoApp(b)
	out := filepath.Join(b.TempDir(), "instrumented")
	build := func() {
		if _, err := Build(context.Background(), BuildOptions{Options: Options{Dir: dir, Deps: "google.golang.org/protobuf/types/descriptorpb"}, Output: out}); err != nil {
			b.Fatal(err)
		}
	}
	build()
	measure(b, build)
}

// measure runs build b.N times and reports, besides the wall time, the CPU
// time of suncat and the go commands per build (cpu-ms/op).
func measure(b *testing.B, build func()) {
	b.ResetTimer()
	start := cpuTime()
	for i := 0; i < b.N; i++ {
		build()
	}
	b.StopTimer()
	b.ReportMetric(float64(cpuTime()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}
