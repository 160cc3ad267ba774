package native

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rgkit/rgkit/search"
)

// truncatingCtx truncates the file at path the first time the search asks
// whether it was cancelled (Err), from inside the count.
type truncatingCtx struct {
	context.Context
	path string
	once sync.Once
}

func (c *truncatingCtx) Err() error {
	c.once.Do(func() { os.Truncate(c.path, 0) })
	return nil
}

// CountFile maps a large file (see TestLargeFileMemoryIsBounded); one cut
// short while it is counted is an error for that file, not a crash.
func TestCountFileSurvivesAFileTruncatedMidCount(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "big.txt")
	if err := os.WriteFile(path, []byte(strings.Repeat("foo\n", 3<<20)), 0o644); err != nil { // 12 MiB: interrupts come every 4 MiB
		t.Fatal(err)
	}
	q, err := search.Normalize(search.Query{Pattern: "foo", Root: root})
	if err != nil {
		t.Fatal(err)
	}
	ctx := &truncatingCtx{Context: context.Background(), path: path}
	n, err := countingSearcher(t, ctx, q).CountFile("big.txt")
	if !errors.Is(err, errTruncated) {
		t.Fatalf("CountFile = %d, %v; want the truncation reported", n, err)
	}
}

// countingSearcher is a FileSearcher for q over a Source that maps nothing
// itself, as the ripgrep engine's count uses; the Source closes with t.
func countingSearcher(t *testing.T, ctx context.Context, q search.Query) *FileSearcher {
	t.Helper()
	m, err := Compile(MatchOptionsFor(q))
	if err != nil {
		t.Fatal(err)
	}
	src, err := (&Reader{}).Open(q.Root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return NewFileSearcher(ctx, q, m, search.Discard, src)
}
