//go:build !linux && !darwin

package bench

import (
	"os"

	"github.com/rgkit/rgkit/search"
)

// defaultMeter measures only what engines report on this OS: wall time is
// taken by Run; CPU and memory come from the engine's child-process usage.
type defaultMeter struct{}

type engineMeasurement struct{}

func (defaultMeter) Start() Measurement { return engineMeasurement{} }

func (engineMeasurement) Stop(usage search.Stats) Sample {
	return Sample{CPU: usage.ProcessCPU}
}

// childPeakRSS is unknown here.
func childPeakRSS(*os.ProcessState) int64 { return 0 }

// loadAverage is unknown here.
func loadAverage() float64 { return 0 }

// watchRSS has nothing to sample here.
func watchRSS(int) (stop func() int64) { return func() int64 { return 0 } }
