// Package thirdparty decides whether the tests that need modules outside
// suncat's own go.mod run. They download those modules from the module
// proxy and test or instrument them (the third-party suites of suncat
// test, protobuf under -deps), which takes minutes and the network, so
// plain go test ./... leaves them out:
//
//	SUNCAT_SUITES=1 go test -timeout 20m ./...
//
// runs them too (.ci/run does). Set, they must run: a module that cannot
// be downloaded fails the test rather than skipping it. The same switch
// turns on a check that takes minutes on a fresh build cache for a
// reason of its own: logrt's TestCompilesUnderGo118 vets the runtime for
// five systems (compiling the standard library for each), not only for
// this one.
//
// Copy gives those tests a writable copy of a module from the proxy (the
// module cache is read-only and cannot be overlaid), and TreeSum a sum
// of a tree's files, to check that suncat left the user's files as they
// were.
//
// It imports only the standard library, and only tests import it: those of
// cmd/suncat (TestThirdPartySuites, TestThirdPartyReads,
// BenchmarkThirdPartySuites, and the
// [suites] condition of its scripts), of instrument
// (TestThirdPartyProtobuf, TestThirdPartyDeps, TestAnalysisCacheDeps)
// and of logrt.
package thirdparty
