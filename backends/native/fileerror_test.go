package native_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rgkit/rgkit/backends/native"
	"github.com/rgkit/rgkit/search"
)

// errorRecorder is a FileErrorSink that keeps what it hears.
type errorRecorder struct {
	search.Sink
	mu   sync.Mutex
	errs []search.FileError
}

func (r *errorRecorder) FileError(e search.FileError) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, e)
	return nil
}

// TestFileErrorsReachTheCaller: every entry the search could not read
// (here, with links followed: a link to nowhere and a link back to an
// ancestor, which any user, root too, meets) reaches a FileErrorSink as a
// FileError naming it and its cause, is kept in Result.FileErrors,
// counted in Stats.Unreadable and named in the warning the agent tools
// show. The readable files are still searched.
func TestFileErrorsReachTheCaller(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a", "b", "f.txt"), []byte("needle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, to := range map[string]string{"a/b/up": "..", "a/gone": "nowhere"} {
		if err := os.Symlink(to, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	chain := &search.Chain{Engines: []search.Engine{native.New()}}
	sink := &errorRecorder{Sink: search.Discard}
	res, err := chain.Search(context.Background(), search.Query{Pattern: "needle", Root: dir, FollowSymlinks: true}, sink)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.FilesMatched != 1 {
		t.Errorf("files matched = %d, want 1 (a.b/f.txt)", res.Stats.FilesMatched)
	}
	slices.SortFunc(sink.errs, func(a, b search.FileError) int { return strings.Compare(a.Path, b.Path) })
	if len(sink.errs) != 2 {
		t.Fatalf("the sink heard %v, want the broken link and the loop", sink.errs)
	}
	loop, gone := sink.errs[0], sink.errs[1]
	if gone.Path != "a/gone" || !gone.Walk || !errors.Is(gone.Err, fs.ErrNotExist) {
		t.Errorf("broken link: %+v, want a/gone, from the walk, not exist", gone)
	}
	var le *search.LoopError
	if loop.Path != "a/b/up" || !errors.As(loop.Err, &le) || le.Ancestor != "a" {
		t.Errorf("loop: %+v, want a/b/up leading to its ancestor a", loop)
	}
	if len(res.FileErrors) != 2 || res.Stats.Unreadable != 2 {
		t.Errorf("Result.FileErrors = %v, Stats.Unreadable = %d; want both", res.FileErrors, res.Stats.Unreadable)
	}
	if !slices.ContainsFunc(res.Warnings, func(w string) bool {
		return strings.HasPrefix(w, "2 files could not be read: ") && strings.Contains(w, "a/gone (") && strings.Contains(w, "a/b/up (")
	}) {
		t.Errorf("warnings %q do not say that 2 files could not be read, and which", res.Warnings)
	}
}

// TestFileErrorsStopWhenTheSinkSaysSo: a FileErrorSink that returns
// ErrStop ends the search like any Sink method.
func TestFileErrorsStopWhenTheSinkSaysSo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i := range 50 {
		if err := os.Symlink("nowhere", filepath.Join(dir, "gone"+string(rune('a'+i%26))+string(rune('a'+i/26)))); err != nil {
			t.Fatal(err)
		}
	}
	heard := 0
	sink := stopAtFirstError{n: &heard}
	_, err := (&search.Chain{Engines: []search.Engine{native.New()}}).Search(context.Background(),
		search.Query{Pattern: "x", Root: dir, FollowSymlinks: true}, sink)
	if err != nil {
		t.Fatal(err)
	}
	if heard == 0 || heard > 2 { // two workers may each be reporting one
		t.Errorf("the sink heard %d errors after asking to stop at the first", heard)
	}
}

type stopAtFirstError struct {
	search.SinkFuncs
	n *int
}

func (s stopAtFirstError) FileError(search.FileError) error {
	*s.n++
	return search.ErrStop
}
