package rg

import (
	"container/heap"
	"sync"

	"github.com/rgkit/rgkit/internal/rgcli"
	"github.com/rgkit/rgkit/search"
)

// pathOrder prints --sort path's files in order as the search goes. The
// native engine walks each directory in name order and says how far it
// has come (native.Engine.InOrder): a file's output waits only until every
// file before it is done, then it is written. rg walks in order on one
// thread and holds nothing; the search here stays parallel, and what waits
// is what the workers have finished ahead of the slowest. Before, every
// file's output was held to the end: 30 MiB at the peak for `--sort path
// -i error` over the Linux tree, against rg's 5.5. Files the walk does not
// report on (another engine's, the files named on the command line) wait
// until their PATH argument is done, as all of them did before.
type pathOrder struct {
	mu      sync.Mutex
	waiting sortedHeap
	err     error // a write failed (a reader gone): the search stops at its next file
}

// sortsInPathOrder reports --sort path (not --sortr): files in the walk's
// order, one PATH argument after another.
func (r *rgRun) sortsInPathOrder() bool {
	return r.o.Sort == rgcli.SortPath && !r.o.SortReverse
}

// holdInOrder keeps a finished file's output until the search has passed
// every file before it. (The held output is written and released under
// the same lock.)
func (r *rgRun) holdInOrder(rel string, printed bool, chunks []heldBytes, out []byte) error {
	p := &r.inOrder
	p.mu.Lock()
	defer p.mu.Unlock()
	heap.Push(&p.waiting, sortedFile{rel: rel, printed: printed, chunks: chunks, out: r.held.hold(out)})
	return p.err
}

// walkPassed is native.Engine.InOrder for --sort path, nil otherwise: the
// files the walk has passed are written out.
func (r *rgRun) walkPassed() func(upTo string) {
	if !r.sortsInPathOrder() {
		return nil
	}
	return func(upTo string) { _ = r.releaseInOrder(upTo, false) } // (an error stops the search at its next file)
}

// failed is the error a write of the files in order met, if any.
func (p *pathOrder) failed() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// releaseInOrder writes the waiting files that sort before upTo, or all
// of them (a PATH argument is done).
func (r *rgRun) releaseInOrder(upTo string, all bool) error {
	p := &r.inOrder
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.err == nil && len(p.waiting) > 0 && (all || search.ComparePaths(p.waiting[0].rel, upTo) < 0) {
		f := heap.Pop(&p.waiting).(sortedFile)
		p.err = r.writeSorted(f)
	}
	if all {
		for len(p.waiting) > 0 { // (after a failed write)
			f := heap.Pop(&p.waiting).(sortedFile)
			for _, b := range append(f.chunks, f.out) {
				r.held.release(b)
			}
		}
	}
	return p.err
}

// sortedHeap is a min-heap of files by search.ComparePaths of their rel.
type sortedHeap []sortedFile

func (h sortedHeap) Len() int           { return len(h) }
func (h sortedHeap) Less(i, j int) bool { return search.ComparePaths(h[i].rel, h[j].rel) < 0 }
func (h sortedHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *sortedHeap) Push(x any)        { *h = append(*h, x.(sortedFile)) }
func (h *sortedHeap) Pop() any {
	old := *h
	f := old[len(old)-1]
	old[len(old)-1] = sortedFile{}
	*h = old[:len(old)-1]
	return f
}
