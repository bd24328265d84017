package prioritize

import "fmt"

// An OptionError says that the value of one of the Options does not do.
// Option names the field (Split, Goroutines, Run); Err describes the value,
// which it starts with, so that a caller can put its own name for the
// option in front (suncat names the flag).
type OptionError struct {
	Option string
	Err    error
}

func (e *OptionError) Error() string { return e.Option + " " + e.Err.Error() }
func (e *OptionError) Unwrap() error { return e.Err }

func optionError(option, format string, args ...any) error {
	return &OptionError{Option: option, Err: fmt.Errorf(format, args...)}
}
