package conformance

import (
	"os"
	"sync"
)

// The corpus is read-only once built, and building one runs git several
// times, so the tests of a package share one: Shared builds it the first
// time it is asked, in a fresh temporary directory, and the package's
// TestMain calls RemoveShared after the tests.

var shared struct {
	mu    sync.Mutex
	built bool
	c     Corpus
	err   error
}

// Shared returns the process's shared corpus, building it on first use.
// Callers must not change it.
func Shared() (Corpus, error) {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if !shared.built {
		shared.built = true
		dir, err := os.MkdirTemp("", "rgkit-corpus-")
		if err != nil {
			shared.err = err
			return Corpus{}, err
		}
		shared.c, shared.err = Build(dir)
		shared.c.Dir = dir
	}
	return shared.c, shared.err
}

// RemoveShared deletes the shared corpus, if one was built.
func RemoveShared() {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.built && shared.c.Dir != "" {
		os.RemoveAll(shared.c.Dir)
	}
	shared.built, shared.c, shared.err = false, Corpus{}, nil
}
