package prioritize

import (
	"testing"

	"github.com/suncat-go/suncat/logrt"
)

// TestWheres: terminals whose call sites read the same (one getter
// called from one line, reached by two paths) are told apart by the frame
// where their stacks part; the others read as Where says.
func TestWheres(t *testing.T) {
	fr := func(fn, file string, line int) logrt.Frame { return logrt.Frame{Func: fn, File: file, Line: line} }
	getter := fr("example.com/viper.(*Viper).ConfigFileUsed", "/m/viper.go", 10)
	caller := fr("example.com/viper.ConfigFileUsed", "/m/viper.go", 448)
	ts := []*Terminal{
		{Name: "(*Viper).ConfigFileUsed", Frames: []logrt.Frame{getter, caller, fr("main.main", "/m/main.go", 456)}},
		{Name: "(*Viper).ConfigFileUsed", Frames: []logrt.Frame{getter, caller, fr("main.main", "/m/main.go", 457)}},
		{Name: "(*Viper).ConfigFileUsed", Frames: []logrt.Frame{getter, fr("main.other", "/m/main.go", 9)}},
		{Name: "(*Stop).Name", Frames: []logrt.Frame{getter, caller, fr("main.main", "/m/main.go", 456)}},
	}
	want := []string{
		"viper.ConfigFileUsed (viper.go:448) from main.main (main.go:456)",
		"viper.ConfigFileUsed (viper.go:448) from main.main (main.go:457)",
		"main.other (main.go:9)",
		"viper.ConfigFileUsed (viper.go:448)", // another getter: its name tells it apart
	}
	got := Wheres(ts)
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("terminal %d: %q, want %q", i, got[i], want[i])
		}
	}
}
