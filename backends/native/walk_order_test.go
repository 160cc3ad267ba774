package native

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/rgkit/rgkit/search"
)

// orderTree is a tree whose names tell a walk in path order from one in
// byte order and from one that lists a directory's files before its
// subdirectories: "a/..." before "a-b" and "a.go", "B" before "a", files
// between subdirectories, directories several levels deep, and an .ignore'd
// file that must never be passed on.
func orderTree(t *testing.T, seed uint64) (root string, want []string) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, seed))
	names := []string{"a", "a-b", "a.go", "B", "b", "z", "a0", "_", "~x"}
	fx := fixture{".ignore": "ignored\n", "ignored": "x"}
	var add func(dir string, depth int)
	add = func(dir string, depth int) {
		for _, n := range names {
			p := n
			if dir != "" {
				p = dir + "/" + n
			}
			switch k := r.IntN(4); {
			case k == 0 && depth < 3:
				add(p, depth+1)
			case k <= 2:
				fx[p] = "x"
				want = append(want, p)
			}
		}
	}
	add("", 0)
	want = append(want, ".ignore")
	root = t.TempDir()
	fx.build(t, root)
	slices.SortFunc(want, search.ComparePaths)
	return root, want
}

// TestWalkInPathOrderSaysHowFarItHasCome: a walk with inOrder passes every
// file on, and whenever it says it has come up to a path, every file that
// sorts before that path has been passed on and its callback has returned,
// however the workers' callbacks are delayed.
func TestWalkInPathOrderSaysHowFarItHasCome(t *testing.T) {
	t.Parallel()
	for seed := range uint64(6) {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			t.Parallel()
			root, want := orderTree(t, seed)
			for _, workers := range []int{1, 2, 4} {
				var mu sync.Mutex
				done := map[string]bool{}
				var passed []string
				marks := 0
				r := rand.New(rand.NewPCG(seed, uint64(workers)))
				o := WalkOptions{Root: root, Workers: workers, Hidden: true, inOrder: func(upTo string) {
					mu.Lock()
					defer mu.Unlock()
					marks++
					for _, f := range want {
						if search.ComparePaths(f, upTo) >= 0 {
							break
						}
						if !done[f] {
							t.Errorf("workers %d: told the walk came up to %q before %q was done", workers, upTo, f)
						}
					}
				}}
				_, err := Walk(context.Background(), o, func(f File) error {
					mu.Lock()
					d := time.Duration(r.IntN(200)) * time.Microsecond
					passed = append(passed, f.Path)
					mu.Unlock()
					time.Sleep(d)
					mu.Lock()
					done[f.Path] = true
					mu.Unlock()
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				slices.SortFunc(passed, search.ComparePaths)
				if !slices.Equal(passed, want) {
					t.Errorf("workers %d passed\n%q\nwant\n%q", workers, passed, want)
				}
				if marks == 0 {
					t.Errorf("workers %d: inOrder was never called", workers)
				}
			}
		})
	}
}
