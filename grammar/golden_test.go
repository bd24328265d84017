package grammar

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGolden compresses every testdata/golden/*.input (a text trace) with both engines
// and compares the Full Grammar (.grammar), the lossless one
// (.lossless) and the JSON form (.json) with the golden files. With
// -update it rewrites them; on a mismatch it leaves a .got file beside
// the golden one. The JSON is also a round trip: decode, compare, encode,
// compare.
func TestGolden(t *testing.T) {
	traces, err := filepath.Glob("testdata/golden/*.input")
	if err != nil || len(traces) == 0 {
		t.Fatalf("no golden traces (%v)", err)
	}
	for _, path := range traces {
		name := strings.TrimSuffix(path, ".input")
		t.Run(filepath.Base(name), func(t *testing.T) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := ParseText(f)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			g := Build(tr, Options{})
			if ref := Build(tr, Options{Reference: true}); ref.String() != g.String() {
				t.Fatalf("engines differ:\n%s\nvs\n%s", ref, g)
			}
			js, err := json.MarshalIndent(g, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			js = append(js, '\n')
			var back Grammar
			if err := json.Unmarshal(js, &back); err != nil {
				t.Fatal(err)
			}
			if back.String() != g.String() {
				t.Errorf("JSON round trip changed the grammar:\n%s\nvs\n%s", back.String(), g)
			}
			again, _ := json.MarshalIndent(&back, "", "  ")
			if !bytes.Equal(append(again, '\n'), js) {
				t.Errorf("JSON re-encoding differs")
			}
			golden(t, name+".grammar", []byte(g.String()))
			golden(t, name+".lossless", []byte(Build(tr, Options{Lossless: true}).String()))
			golden(t, name+".json", js)
		})
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		os.WriteFile(path+".got", got, 0o644)
		t.Errorf("%s differs from the golden file; got is in %s.got:\n%s", path, path, got)
	} else {
		os.Remove(path + ".got")
	}
}
