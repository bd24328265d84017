package prioritize

import (
	"reflect"
	"testing"
)

func TestRunLabels(t *testing.T) {
	for _, tc := range []struct {
		paths, want []string
		args        [][]string
	}{
		{
			[]string{"/t/tool-1-20261123T090435.476956073.suncat", "/t/tool-2-20261123T090436.476956073.suncat"},
			[]string{"-n 400", "-n 800"}, [][]string{{"-n", "400"}, {"-n", "800"}},
		},
		{
			[]string{"/t/a-1-20261123T090435.476956073.suncat", "/t/a-2-20261123T090436.476956073.suncat", "/t/b-3-20261123T090437.476956073.suncat"},
			[]string{"a x", "a y", "b"}, [][]string{{"x"}, {"y"}, {"z"}},
		},
		{
			[]string{"/t/a-1-20261123T090435.476956073.suncat", "/t/a-2-20261123T090436.476956073.suncat"},
			[]string{"a (run 1)", "a (run 2)"}, [][]string{{"same"}, {"same"}},
		},
		{[]string{"/t/tool.inst-5507-20261123T090435.476956073.suncat"}, []string{"tool.inst"}, nil},
		{[]string{"/t/n400.suncat", "/t/n800.suncat"}, []string{"n400", "n800"}, nil},
		{
			[]string{"/t/a-1-20261123T090435.476956073.suncat", "/t/b-2-20261123T090436.476956073.suncat", "/t/a-3-20261123T090437.476956073.suncat"},
			[]string{"a (run 1)", "b", "a (run 2)"}, nil,
		},
		{[]string{"/t/x.trace"}, []string{"x.trace"}, nil},
	} {
		runs := make([]runOf, len(tc.paths))
		for i, p := range tc.paths {
			runs[i].path = p
			if tc.args != nil {
				runs[i].args = tc.args[i]
			}
		}
		if got := runLabels(runs); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("runLabels(%q) = %q, want %q", tc.paths, got, tc.want)
		}
	}
	// An ordinal is no input size: runs told apart only by it are sized
	// by position.
	if _, ok := LabelSize("tool (run 3)"); ok {
		t.Errorf("LabelSize takes the run ordinal for a size")
	}
	if n, ok := LabelSize("n400 (run 2)"); !ok || n != 400 {
		t.Errorf("LabelSize(n400 (run 2)) = %v %v", n, ok)
	}
}
