// Package model holds the bus data: stops, routes and arrivals. All text
// is read through small getter methods, the ones suncat instruments.
package model

import (
	"fmt"
	"math/rand"
)

// A Stop is a bus stop.
type Stop struct {
	code   string
	name   string
	routes []*Route
}

// Name returns the stop's name.
func (s *Stop) Name() string { return s.name }

// Code returns the stop's code.
func (s *Stop) Code() string { return s.code }

// Routes returns the routes that serve the stop.
func (s *Stop) Routes() []*Route { return s.routes }

// A Route is a bus route: a number and the stops it serves.
type Route struct {
	short string
	long  string
	stops []*Stop
}

// ShortName returns the route's number.
func (r *Route) ShortName() string { return r.short }

// LongName returns the route's description.
func (r *Route) LongName() string { return r.long }

// Stops returns the stops of the route in order.
func (r *Route) Stops() []*Stop { return r.stops }

// An Arrival is a bus expected at a stop.
type Arrival struct {
	route    *Route
	headsign string
	minutes  int
}

// Headsign returns where the bus goes.
func (a *Arrival) Headsign() string { return a.headsign }

// Route returns the arrival's route.
func (a *Arrival) Route() *Route { return a.route }

// Minutes returns the minutes until the bus arrives.
func (a *Arrival) Minutes() int { return a.minutes }

// A City is the whole data set.
type City struct {
	Stops  []*Stop
	Routes []*Route
}

// NewCity builds a small deterministic city: 8 stops and 4 routes of 4
// stops each.
func NewCity() *City {
	names := []string{"Pike St & 3rd Ave", "Pine St & 4th Ave", "Westlake Center", "University St",
		"Pioneer Square", "International District", "Capitol Hill", "Fremont Ave"}
	c := &City{}
	for i, n := range names {
		c.Stops = append(c.Stops, &Stop{code: fmt.Sprintf("%d", 1000+i*7), name: n})
	}
	routes := []struct {
		short, long string
		stops       []int
	}{
		{"10", "Capitol Hill - Downtown", []int{6, 0, 1, 3}},
		{"40", "Fremont - Downtown", []int{7, 2, 0, 4}},
		{"49", "Broadway - Downtown", []int{6, 1, 2, 3}},
		{"70", "University District - Downtown", []int{3, 2, 4, 5}},
	}
	for _, r := range routes {
		route := &Route{short: r.short, long: r.long}
		for _, i := range r.stops {
			route.stops = append(route.stops, c.Stops[i])
			c.Stops[i].routes = append(c.Stops[i].routes, route)
		}
		c.Routes = append(c.Routes, route)
	}
	return c
}

// Arrivals returns the next buses at s, the same for the same stop.
func (c *City) Arrivals(s *Stop) []*Arrival {
	r := rand.New(rand.NewSource(int64(len(s.name))))
	var as []*Arrival
	for _, route := range s.routes {
		last := route.stops[len(route.stops)-1]
		as = append(as, &Arrival{route: route, headsign: last.name, minutes: 1 + r.Intn(20)})
	}
	return as
}
