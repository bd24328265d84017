package instrument

import (
	"go/token"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

// TestGetterRuntime: a getter of the analysis is the getter table's entry
// for it, with the same name.
func TestGetterRuntime(t *testing.T) {
	g := Getter{ID: 3, PkgPath: "example.com/bus/model", Receiver: "*Stop", Method: "Name",
		Pos: token.Position{Filename: "/src/model/stop.go", Line: 12}, Field: "name"}
	want := tracefile.Getter{ID: 3, Package: "example.com/bus/model", Receiver: "*Stop", Method: "Name",
		File: "/src/model/stop.go", Line: 12, Field: "name"}
	if got := g.Runtime(); got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if g.Runtime().Name() != g.Name() {
		t.Errorf("names differ: %s and %s", g.Runtime().Name(), g.Name())
	}
}
