package native

import "github.com/rgkit/rgkit/internal/testtool"

// sampleSize is how many random cases a randomised differential suite
// draws: full under RGKIT_TEST_FULL=1 (CI's second step), byDefault
// otherwise, so that go test ./... stays quick on a small machine. The
// generators are seeded, so the default run is a prefix of the full one.
func sampleSize(full, byDefault int) int {
	if testtool.Full() {
		return full
	}
	return byDefault
}
