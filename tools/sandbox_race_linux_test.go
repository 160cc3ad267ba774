//go:build linux

package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/backends/ripgrep"
	"github.com/rgkit/rgkit/internal/testtool"
	"github.com/rgkit/rgkit/search"
)

// The outside directory's files carry these: neither may ever appear in a
// tool's result. common.txt exists on both sides, so that an engine that
// reads the outside copy under the inside name is caught by its content.
const (
	outsideMarker = "OUTSIDE_MARKER_7f3a"
	outsideName   = "zz_outside_only"
)

// swapRace is a workspace whose directory swap is exchanged, in a loop,
// with a symbolic link to a directory outside the root
// (renameat2(RENAME_EXCHANGE): at every instant "swap" is either the real
// directory or the link, never missing).
type swapRace struct {
	root, swap, link, outside string
}

func newSwapRace(t *testing.T) swapRace {
	t.Helper()
	parent := t.TempDir()
	r := swapRace{
		root:    filepath.Join(parent, "ws"),
		outside: filepath.Join(parent, "outside"),
		link:    filepath.Join(parent, "link"),
	}
	r.swap = filepath.Join(r.root, "swap")
	for _, d := range []string{r.root, r.swap, r.outside} {
		mustMkdir(t, d)
	}
	writeFile(t, filepath.Join(r.root, "top.txt"), "needle top\n")
	writeFile(t, filepath.Join(r.swap, "common.txt"), "needle inside\n")
	writeFile(t, filepath.Join(r.swap, "inside.txt"), "needle inside too\n")
	writeFile(t, filepath.Join(r.outside, "common.txt"), "needle "+outsideMarker+"\n")
	writeFile(t, filepath.Join(r.outside, outsideName+".txt"), "needle "+outsideMarker+"\n")
	if err := os.Symlink(r.outside, r.link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	if err := unix.Renameat2(unix.AT_FDCWD, r.swap, unix.AT_FDCWD, r.link, unix.RENAME_EXCHANGE); err != nil {
		t.Skipf("renameat2(RENAME_EXCHANGE) unavailable here: %v", err)
	}
	r.exchange(t) // back to the start
	return r
}

func (r swapRace) exchange(t *testing.T) {
	t.Helper()
	if err := unix.Renameat2(unix.AT_FDCWD, r.swap, unix.AT_FDCWD, r.link, unix.RENAME_EXCHANGE); err != nil {
		t.Fatalf("renameat2: %v", err)
	}
}

// start exchanges swap and the link until the returned stop is called;
// stop leaves swap a real directory and returns how many exchanges ran.
func (r swapRace) start(t *testing.T) (stop func() int64) {
	t.Helper()
	var n atomic.Int64
	done := make(chan struct{})
	var wg sync.WaitGroup
	var swapErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			if err := unix.Renameat2(unix.AT_FDCWD, r.swap, unix.AT_FDCWD, r.link, unix.RENAME_EXCHANGE); err != nil {
				swapErr = err
				return
			}
			n.Add(1)
		}
	}()
	return func() int64 {
		close(done)
		wg.Wait()
		if swapErr != nil {
			t.Fatalf("renameat2: %v", swapErr)
		}
		if fi, err := os.Lstat(r.swap); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			r.exchange(t)
		}
		return n.Load()
	}
}

// leaks reports whether a tool's answer (text, structured result or error)
// shows an outside file's content or name.
func leaks(out Output, err error) bool {
	s := out.Text
	if out.Structured != nil {
		b, _ := json.Marshal(out.Structured)
		s += string(b)
	}
	if err != nil {
		s += err.Error()
	}
	return strings.Contains(s, outsideMarker) || strings.Contains(s, outsideName)
}

// raceEngine is one engine configuration of the tools.
type raceEngine struct {
	name string
	opts func(t *testing.T) Options
}

// raceEngines are the configurations raced. The default chain ("auto")
// answers the tools' confined queries in-process (the Chain goes straight
// to the native engine), so it makes as many calls as the others.
func raceEngines() []raceEngine {
	noRg := func(context.Context) (string, error) { return "", errors.New("no rg in this test") }
	return []raceEngine{
		{"auto", func(t *testing.T) Options { return Options{} }},
		{"native", func(t *testing.T) Options {
			return Options{Locate: noRg, Searcher: &search.Chain{Engines: []search.Engine{native.New()}}}
		}},
		{"ripgrep", func(t *testing.T) Options {
			rg := testtool.Need(t, "rg")
			locate := func(context.Context) (string, error) { return rg, nil }
			return Options{Locate: locate, Searcher: &search.Chain{Engines: []search.Engine{ripgrep.New(locate)}}}
		}},
	}
}

// Issue 11, item 4 (b): a directory inside the root exchanged with a link
// to an outside directory while the tools run. Whatever the engine, no
// call may show an outside file's content or name: 1000 calls per tool on
// every configuration by default, 2000 under RGKIT_TEST_FULL=1 (see
// raceCalls; half of Grep's and Glob's with path "swap").
func TestSandboxSwapRaceShowsNothingOutside(t *testing.T) {
	perTool := raceCalls()
	for _, e := range raceEngines() {
		t.Run(e.name, func(t *testing.T) {
			r := newSwapRace(t)
			ws, err := NewWorkspace(r.root, e.opts(t))
			if err != nil {
				t.Fatal(err)
			}
			defer ws.Close()
			ctx := t.Context()
			type call struct {
				tool string
				do   func() (Output, error)
			}
			calls := []call{
				{"Grep", func() (Output, error) {
					return ws.Grep(ctx, GrepInput{Pattern: "needle", OutputMode: GrepContent})
				}},
				{"Grep path=swap", func() (Output, error) {
					return ws.Grep(ctx, GrepInput{Pattern: "needle", Path: "swap", OutputMode: GrepContent})
				}},
				{"Glob", func() (Output, error) { return ws.Glob(ctx, GlobInput{Pattern: "**/*.txt"}) }},
				{"Glob path=swap", func() (Output, error) { return ws.Glob(ctx, GlobInput{Pattern: "*", Path: "swap"}) }},
				{"Read", func() (Output, error) { return ws.Read(ctx, ReadInput{FilePath: "swap/common.txt"}) }},
			}
			rounds := map[string]int{"Grep": perTool / 2, "Grep path=swap": perTool / 2,
				"Glob": perTool / 2, "Glob path=swap": perTool / 2, "Read": perTool}
			// The calls run on a few goroutines, so that calls overlap each
			// other and the swaps; each tool's counts are kept apart.
			var mu sync.Mutex
			leaked, answered := map[string]int{}, map[string]int{}
			firstErr := map[string]error{} // what a call that showed nothing said, for the failure message
			jobs := make(chan call)
			var wg sync.WaitGroup
			stop := r.start(t)
			for range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for c := range jobs {
						out, err := c.do()
						leak := leaks(out, err)
						mu.Lock()
						if leak {
							if leaked[c.tool] == 0 {
								t.Logf("%s leaked: %q %v", c.tool, out.Text, err)
							}
							leaked[c.tool]++
						}
						if err == nil && (strings.Contains(out.Text, "common.txt") || strings.Contains(out.Text, "needle inside")) {
							answered[c.tool]++
						} else if firstErr[c.tool] == nil {
							firstErr[c.tool] = fmt.Errorf("error %v, output %.200q", err, out.Text)
						}
						mu.Unlock()
					}
				}()
			}
			for i := 0; i < perTool; i++ {
				for _, c := range calls {
					if i < rounds[c.tool] {
						jobs <- c
					}
				}
			}
			close(jobs)
			wg.Wait()
			swaps := stop()
			total := 0
			for _, n := range answered {
				total += n
			}
			if total == 0 {
				// A race test whose calls all fail proves nothing.
				t.Errorf("%s: no call showed the inside files (%d swaps); the first call of each tool said: %v", e.name, swaps, firstErr)
			}
			if swaps == 0 {
				t.Fatal("the swap never ran")
			}
			for _, c := range calls {
				t.Logf("%s on %s: %d calls, %d showed the inside files, %d leaked", c.tool, e.name, rounds[c.tool], answered[c.tool], leaked[c.tool])
				if leaked[c.tool] > 0 {
					t.Errorf("%s on %s: outside content or names in %d of %d calls (%d swaps)",
						c.tool, e.name, leaked[c.tool], rounds[c.tool], swaps)
				}
			}
		})
	}
}

// The control for the race test: the same race does lead a path-string
// reader outside (so the test above can fail), both a plain open of
// root/swap/common.txt and the bare rg binary searching root/swap.
func TestSandboxSwapRaceLeaksWithoutConfinement(t *testing.T) {
	const tries = 5000
	t.Run("open by path", func(t *testing.T) {
		r := newSwapRace(t)
		stop := r.start(t)
		defer stop()
		for i := 0; i < tries; i++ {
			if b, err := os.ReadFile(filepath.Join(r.swap, "common.txt")); err == nil && strings.Contains(string(b), outsideMarker) {
				return
			}
		}
		t.Errorf("%d path opens during the race never reached the outside file", tries)
	})
	t.Run("bare rg", func(t *testing.T) {
		rg := testtool.Need(t, "rg")
		r := newSwapRace(t)
		stop := r.start(t)
		defer stop()
		for i := 0; i < tries/5; i++ {
			out, _ := exec.CommandContext(t.Context(), rg, "--no-config", "needle", r.swap).Output()
			if strings.Contains(string(out), outsideMarker) {
				return
			}
		}
		t.Errorf("%d rg runs during the race never printed the outside file", tries/5)
	})
}

// raceCalls is how many calls each tool gets per engine configuration:
// 2000 under RGKIT_TEST_FULL=1, 1000 by default (before confinement, one
// Grep in 4 to 20 leaked, so a regression shows in either), and
// RGKIT_RACE_CALLS=N for a deeper run.
func raceCalls() int {
	if n, err := strconv.Atoi(os.Getenv("RGKIT_RACE_CALLS")); err == nil && n > 0 {
		return n
	}
	if testtool.Full() {
		return 2000
	}
	return 1000
}
