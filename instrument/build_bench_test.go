package instrument

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
)

// Benchmarks of an instrumented build of the bus app against a plain go
// build of it, in the same run, both with a warm cache (the build cache
// and suncat's analysis cache):
//
//	go test -run '^$' -bench Build -benchtime 20x ./instrument

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
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		build()
	}
}

func BenchmarkInstrumentedBuild(b *testing.B) {
	dir, out := busApp(b), filepath.Join(b.TempDir(), "instrumented")
	build := func() {
		if _, err := Build(context.Background(), BuildOptions{Dir: dir, Output: out}); err != nil {
			b.Fatal(err)
		}
	}
	build()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		build()
	}
}
