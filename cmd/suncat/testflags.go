package main

// goTestFlags are the flags of go test (and of test binaries) that test
// passes through as given; the others go after "--". true: the flag takes
// a value. The coverage flags are refused (parseTest). TestGoTestFlagsComplete
// checks the table against go help testflag and go help test.
var goTestFlags = map[string]bool{
	"run": true, "skip": true, "count": true, "timeout": true, "parallel": true,
	"bench": true, "benchtime": true, "cpu": true, "shuffle": true, "list": true,
	"vet": true, "p": true, "exec": true, "cpuprofile": true, "memprofile": true, "blockprofile": true,
	"mutexprofile": true, "outputdir": true, "fuzz": true, "fuzztime": true,
	"fuzzminimizetime": true, "blockprofilerate": true, "memprofilerate": true,
	"mutexprofilefraction": true, "trace": true,
	"short": false, "v": false, "failfast": false, "json": false, "benchmem": false,
	"fullpath": false, "artifacts": false, "x": false, "a": false, "c": false, "o": true,
}

// goOnlyFlags are the flags in goTestFlags that are go test's own; the
// others are the test binaries' flags, which go test also takes as
// -test.name.
var goOnlyFlags = map[string]bool{"vet": true, "p": true, "exec": true, "json": true, "x": true, "a": true, "c": true, "o": true}
