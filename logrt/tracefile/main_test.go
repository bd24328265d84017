package tracefile

import (
	"testing"

	"github.com/suncat-go/suncat/internal/testtmp"
)

// TestMain runs the tests under testtmp, in a temporary directory of their
// own that is removed however they end (timed out, interrupted).
func TestMain(m *testing.M) { testtmp.Main(m) }
