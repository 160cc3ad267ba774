package backends_test

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rgkit/rgkit/internal/conformance"
	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
)

// The conformance tests share one corpus and one run of each engine per
// case: building the corpus (git init, symlinks, a FIFO) and running five
// engines over two hundred cases are the costly parts, and every test of
// this package reads the same answers. TestConformance fills the memo; a
// test run alone (-run) fills what it needs itself.

// TestMain removes the shared corpus (conformance.Shared) after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	conformance.RemoveShared()
	os.Exit(code)
}

// runEngine runs one engine directly on a normalised query.
func runEngine(t *testing.T, b search.Engine, q search.Query, firstPath string) outcome {
	t.Helper()
	return engineOutcome(b, q, firstPath)
}

// engineOutcome is runEngine without a test (the memo outlives the test
// that fills it).
func engineOutcome(b search.Engine, q search.Query, firstPath string) outcome {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	col := &conformance.Collector{Mode: q.Mode}
	_, err := b.Search(ctx, q, col)
	o := outcome{err: err, render: col.Render(), files: col.Files(), violate: col.Violations()}
	if firstPath != "" {
		o.lines = col.MatchLines(firstPath)
	}
	switch {
	case errors.Is(err, search.ErrUnavailable) && len(o.render) == 0:
		// Allowed: e.g. git grep outside a git work tree. The Chain moves on.
		o.status = "unavailable"
	case errors.Is(err, search.ErrUnsupported):
		o.status = "unsupported"
		if len(o.render) > 0 {
			o.status = "ERR"
			o.err = fmt.Errorf("returned ErrUnsupported after emitting %d records: %w", len(o.render), err)
		}
	case err != nil:
		o.status = "ERR"
	default:
		o.status = "ok"
	}
	return o
}

// caseOutcomes memoises runCase: engine name + "\x00" + case name -> a
// func returning the outcome, computed once.
var caseOutcomes sync.Map

// runCase is runEngine for conformance case cs over the shared corpus c,
// run once per engine and case and shared by every test that asks (the
// engines are deterministic over a corpus nobody changes). The outcome's
// lines are those of the case's one named path, if it names one. The
// caller must not modify the outcome's slices.
func runCase(c conformance.Corpus, b search.Engine, cs conformance.Case) (outcome, error) {
	f, _ := caseOutcomes.LoadOrStore(b.Name()+"\x00"+cs.Name, sync.OnceValues(func() (outcome, error) {
		q, err := search.Normalize(c.Query(cs))
		if err != nil {
			return outcome{}, err
		}
		first := ""
		if len(cs.Query.Paths) == 1 {
			first = q.Paths[0]
		}
		return engineOutcome(b, q, first), nil
	}))
	return f.(func() (outcome, error))()
}

// conformanceSetup returns the shared corpus and the available engines,
// after checking the reference rg; without it (or git) the test is skipped
// with the reason (failed under RGKIT_REQUIRE_TOOLS=1). An engine that
// cannot run here is left out with a log line, and fails the test under
// RGKIT_REQUIRE_TOOLS=1: CI must compare every engine.
func conformanceSetup(t *testing.T) (conformance.Corpus, []engineUnderTest, string) {
	t.Helper()
	testtool.Need(t, "git")
	refPath := testtool.ReferenceRg(t)
	c, err := conformance.Shared()
	if err != nil {
		t.Fatal(err)
	}
	var engines []engineUnderTest
	for _, e := range sharedConformanceEngines(refPath) {
		info, err := e.b.Available(context.Background())
		if err != nil {
			if testtool.Required() {
				t.Errorf("RGKIT_REQUIRE_TOOLS=1: engine %s unavailable: %v", e.b.Name(), err)
			}
			t.Logf("engine %s unavailable: %v", e.b.Name(), err)
			continue
		}
		t.Logf("engine %s: %s %s %s", e.b.Name(), info.Path, info.Version, info.Flavor)
		if e.b.Name() == "ripgrep" {
			ripgrepIsReference.Store(info.Version == search.ReferenceVersion)
		}
		engines = append(engines, e)
	}
	for f, why := range c.Features.Skipped {
		t.Logf("corpus: %s: %s", f, why)
	}
	return c, engines, referenceEngine
}

// sharedEngines holds conformanceEngines per reference path, for
// sharedConformanceEngines.
var sharedEngines sync.Map

// sharedConformanceEngines is conformanceEngines(ref), made once per test
// binary: an engine remembers what it probed (rg --version, git --version
// and its PCRE probe, grep --version), so the tests that share one set run
// each probe once instead of once per test. The security tests keep fresh
// engines (conformanceEngines), probed under the environment they set.
func sharedConformanceEngines(ref string) []engineUnderTest {
	e, _ := sharedEngines.LoadOrStore(ref, sync.OnceValue(func() []engineUnderTest { return conformanceEngines(ref) }))
	return e.(func() []engineUnderTest)()
}

// chainSampleEvery thins the Chain tests by default: of the cases an engine
// answers itself, only every chainSampleEvery-th goes through the Chain
// (a different quarter per engine), while every case the engine refuses or
// cannot run still does, since that is where the Chain's own logic acts.
// The Chain adds nothing per case but sorting and paging, which the sample
// exercises in every mode and every tree. RGKIT_TEST_FULL=1 runs them all.
const chainSampleEvery = 8

// columnSampleEvery thins the two slowest columns of the matrix by default:
// git grep and system grep each answer one case in columnSampleEvery (a
// different third each, chosen by the case's name so that every test picks
// the same cells), while the native engine and the reference answer every
// case. These two columns cost four fifths of the matrix's CPU (a git or
// grep process or two per case, 50–85 ms each on a small machine);
// RGKIT_TEST_FULL=1 (CI's second step) runs every cell.
const columnSampleEvery = 3

// ripgrepIsReference says the ripgrep engine runs the reference rg release
// (the default run, rg 15.2.0 first on PATH): its column then answers one
// case in two by default, since the same rg answers every case as the
// reference and what the column adds is rgkit's own part (the command
// line, the JSON decoder, the records turned into Lines). With an older rg
// (CI's rg 14 and rg 13 passes), where the engine does more of the work
// itself, every case runs.
var ripgrepIsReference atomic.Bool

// cellSampled reports whether engine answers case name in this run.
func cellSampled(engine, name string) bool {
	if testtool.Full() {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	switch engine {
	case "gitgrep":
		return h.Sum32()%columnSampleEvery == 0
	case "grep":
		return h.Sum32()%columnSampleEvery == 1
	case "ripgrep":
		return !ripgrepIsReference.Load() || h.Sum32()%2 == 1
	}
	return true
}

// skipUnsampledCell skips a subtest whose (engine, case) cell is sampled out.
func skipUnsampledCell(t *testing.T, engine, name string) {
	t.Helper()
	if !cellSampled(engine, name) {
		t.Skipf("%s answers a sample of the cases by default (cellSampled; %s=1 runs all)", engine, testtool.FullEnv)
	}
}

// inChainSample reports whether case i (of the engine at index shift) runs
// through the Chain, given the engine's direct outcome.
func inChainSample(t *testing.T, i, shift int, direct outcome) {
	t.Helper()
	if testtool.Full() || direct.status != "ok" || (i+shift)%chainSampleEvery == 0 {
		return
	}
	t.Skipf("sampled out (1 in %d of the cases the engine answers runs by default; %s=1 runs all)", chainSampleEvery, testtool.FullEnv)
}
