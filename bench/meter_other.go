//go:build !linux && !darwin

package bench

import "github.com/rgkit/rgkit/search"

// defaultMeter measures only what engines report on this OS: wall time is
// taken by Run; CPU and memory come from the engine's child-process usage.
type defaultMeter struct{}

type engineMeasurement struct{}

func (defaultMeter) Start() Measurement { return engineMeasurement{} }

func (engineMeasurement) Stop(usage search.Stats) Sample {
	return Sample{CPU: usage.ProcessCPU, PeakRSS: usage.ProcessPeakRSS}
}
