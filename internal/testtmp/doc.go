// Package testtmp runs a package's tests with a temporary directory of
// their own, which a parent process removes when they end, however they
// end: passed, failed, timed out (the testing package's panic at
// -test.timeout skips every deferred call and t.Cleanup, so t.TempDir
// alone leaves its directories behind) or interrupted. A test package
// calls it from TestMain:
//
//	func TestMain(m *testing.M) { testtmp.Main(m) }
//
// The test binary re-executes itself as a child whose TMPDIR (and TMP,
// TEMP) is a new directory suncat-test-<pid>-* under the temporary
// directory; t.TempDir, os.MkdirTemp("", ...) and the go commands the
// tests run all write there. The parent forwards interrupt, terminate
// and quit signals to the child, waits for it, removes the directory and
// exits with the child's status. Directories left by a parent that was
// killed outright (SIGKILL) are removed by the next run.
//
// CheckMode checks a test's private folders and files; ShortDir gives a
// temporary folder short enough for a Unix socket's path.
//
// It imports only the standard library and only tests import it: the
// TestMain functions of cmd/suncat, instrument, logrt, logrt/host,
// logrt/testhook, logrt/tracefile and tui.
package testtmp
