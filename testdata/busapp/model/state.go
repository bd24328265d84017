package model

import "strings"

// ViewState is the state shared by the screens, like the data-bound view
// state of the original app: screens observe the current stop and re-read
// its name whenever it changes.
type ViewState struct {
	current   *Stop
	observers []func(*Stop)
	Recent    []*Stop
	Saved     string // the serialized recently-viewed list
}

// Observe registers f to be called whenever the current stop changes.
//
// BUG (planted, like the paper's OneBusAway leak): nothing ever removes an
// observer, so every detail screen ever opened keeps re-reading the stop
// name on every later navigation.
func (v *ViewState) Observe(f func(*Stop)) { v.observers = append(v.observers, f) }

// SetCurrent makes s the current stop, notifies the observers, and
// records the visit.
func (v *ViewState) SetCurrent(s *Stop) {
	v.current = s
	for _, f := range v.observers {
		f(s)
	}
	v.visit(s)
}

// Current returns the current stop.
func (v *ViewState) Current() *Stop { return v.current }

// Observers returns how many observers are registered.
func (v *ViewState) Observers() int { return len(v.observers) }

// visit adds s to the recently-viewed list and saves the list.
//
// BUG (planted): the whole list is serialized on every navigation, each
// stop with all its routes and each route with all its stops, so the work
// grows with the length of the list.
func (v *ViewState) visit(s *Stop) {
	v.Recent = append(v.Recent, s)
	var b strings.Builder
	for _, r := range v.Recent {
		b.WriteString(r.Code())
		b.WriteByte(':')
		for _, route := range r.Routes() {
			b.WriteString(route.ShortName())
			b.WriteByte('[')
			for _, st := range route.Stops() {
				b.WriteString(st.Name())
				b.WriteByte(';')
			}
			b.WriteByte(']')
		}
		b.WriteByte('\n')
	}
	v.Saved = b.String()
}
