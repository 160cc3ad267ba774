package conformance

import "strings"

// Exception is a documented, tested difference between one engine and the
// reference (rgkit's ripgrep engine) on one case. The differential test
// skips it; TestConformanceExceptions asserts that the difference is exactly
// the one recorded in backends/testdata/conformance/exceptions, so it fails
// when the exception disappears or changes.
type Exception struct {
	Engine string // Backend.Name()
	Case   string // Case.Name
	Why    string // the reason, as it appears in the README table
	Bug    bool   // a defect to fix (true) rather than an accepted semantic difference
}

// Exceptions is the table of accepted differences, each asserted exactly by
// TestConformanceExceptions. Keep it in step with README.md's exceptions
// table. "ripgrep-older" is the ripgrep engine running an rg older than
// the reference: it then only prunes files and the native matcher answers,
// so it shares the native engine's exceptions.
func Exceptions() []Exception {
	// None since the native matcher finds rg's empty matches inside a
	// multi-byte character (dialect/empty-pattern, dialect/empty-loop).
	return nil
}

// ExceptionFor returns the exception for (engine, case), if any.
func ExceptionFor(engine, cs string) (Exception, bool) {
	for _, e := range Exceptions() {
		if e.Engine == engine && e.Case == cs {
			return e, true
		}
	}
	return Exception{}, false
}

// GoldenName is the file name of an exception's recorded difference.
func (e Exception) GoldenName() string {
	return e.Engine + "__" + strings.ReplaceAll(e.Case, "/", "_") + ".diff"
}
