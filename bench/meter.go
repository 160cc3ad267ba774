package bench

import "github.com/rgkit/rgkit/search"

// Meter measures the resources one run uses.
type Meter interface {
	Start() Measurement
}

// Measurement is a run in progress.
type Measurement interface {
	// Stop ends the measurement; usage is what the engine reported about its
	// child processes (zero for in-process engines).
	Stop(usage search.Stats) Sample
}
