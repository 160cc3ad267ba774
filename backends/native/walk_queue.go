package native

import (
	"container/heap"
	"os"
	"sync"
	"sync/atomic"

	"github.com/rgkit/rgkit/search"
)

// work is one directory to list.
type work struct {
	abs    string     // absolute path
	rel    string     // relative to Root, forward slashes ("" for Root)
	parent *ignoreDir // the ignore chain of the directory's parent
	loop   *loopLink  // the directory and its walked ancestors (FollowSymlinks only)
	depth  int        // levels below its start directory (0 for a start)
	// dev is the device of the start directory (OneFileSystem only).
	dev      uint64
	devKnown bool
	// root confines the walk below a start directory when links are not
	// followed: the directory is opened as inRoot within it, one component
	// at a time without following links, so a directory swapped for a
	// symlink mid-walk cannot lead the walk out of the tree. nil when
	// following links, where leaving the tree is the point.
	root   *walkRoot
	inRoot string
	// unreachable is a confined start directory that could not be opened
	// beneath the root: it is counted unreadable, never opened by path.
	unreachable bool
	// parentID, when check is set, is the identity of the directory this
	// one was listed in: on Linux the directory is opened by path without
	// following a final link, and its ".." must be that parent, so a
	// component swapped for a symlink mid-walk is caught without os.Root's
	// per-component opens.
	parentID dirID
	check    bool
	// pend is the directory's place among those the walk has yet to
	// finish, in a walk in path order (workQueue.ordered).
	pend *pendingDir
}

// walkRoot is a start directory held open while the walk is below it: an
// os.Root, and (Linux) its descriptor, from which each directory below is
// opened with openat2(2).
type walkRoot struct {
	*os.Root
	dir *os.File // the same directory, as a descriptor; nil if it could not be opened
	fd  int      // dir's descriptor, or -1
	// noOpenat2 is set once openat2 turned out to be unavailable.
	noOpenat2 atomic.Bool
}

func newWalkRoot(r *os.Root) *walkRoot {
	wr := &walkRoot{Root: r, fd: -1}
	if useRootFd {
		if d, err := r.Open("."); err == nil {
			wr.dir, wr.fd = d, int(d.Fd())
		}
	}
	return wr
}

func (r *walkRoot) close() {
	if r.dir != nil {
		r.dir.Close()
	}
	r.Root.Close()
}

// dirID identifies a directory (device and inode).
type dirID struct{ dev, ino uint64 }

// workQueue is the walkers' shared stack of directories. It is a LIFO, like
// rg's, so the walk goes depth-first and the pending set stays small. The
// walk ends when no directory is queued or being listed.
type workQueue struct {
	mu      sync.Mutex
	cond    sync.Cond
	items   []work
	pending int // queued or being listed
	closed  bool
	// ordered keeps the directories queued or being listed in a heap by
	// the first path below which each may still pass a file on (its own
	// path, then each of its files' as it is passed): the least of them is
	// how far a walk in path order has come (WalkOptions.inOrder).
	ordered  bool
	unlisted pendingHeap
}

// pendingDir is a directory a walk in path order has yet to finish: key is
// the first path at or after which it may still pass a file on.
type pendingDir struct {
	key   string
	index int // in the heap
}

// pendingHeap is a min-heap of pendingDirs by search.ComparePaths of their keys.
type pendingHeap []*pendingDir

func (h pendingHeap) Len() int           { return len(h) }
func (h pendingHeap) Less(i, j int) bool { return search.ComparePaths(h[i].key, h[j].key) < 0 }
func (h pendingHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}
func (h *pendingHeap) Push(x any) {
	p := x.(*pendingDir)
	p.index = len(*h)
	*h = append(*h, p)
}
func (h *pendingHeap) Pop() any {
	old := *h
	p := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return p
}

// upTo is the least key, false when nothing is pending.
func (h pendingHeap) upTo() (string, bool) {
	if len(h) == 0 {
		return "", false
	}
	return h[0].key, true
}

func (q *workQueue) lazyInit() {
	if q.cond.L == nil {
		q.cond.L = &q.mu
	}
}

func (q *workQueue) push(it work) {
	q.mu.Lock()
	q.lazyInit()
	if !q.closed {
		if q.ordered {
			it.pend = &pendingDir{key: it.rel}
			heap.Push(&q.unlisted, it.pend)
		}
		q.items = append(q.items, it)
		q.pending++
		q.cond.Signal()
	}
	q.mu.Unlock()
}

// pop waits for a directory; false means the walk is over.
func (q *workQueue) pop() (work, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.lazyInit()
	for len(q.items) == 0 && !q.closed {
		if q.pending == 0 {
			q.closed = true
			q.cond.Broadcast()
			break
		}
		q.cond.Wait()
	}
	if q.closed {
		return work{}, false
	}
	n := len(q.items) - 1
	it := q.items[n]
	q.items[n] = work{}
	q.items = q.items[:n]
	return it, true
}

// done marks a popped directory as listed. In a walk in path order it
// returns how far the walk has now come, false when that did not change
// or nothing is pending.
func (q *workQueue) done(it work) (upTo string, moved bool) {
	q.mu.Lock()
	q.lazyInit()
	q.pending--
	if q.pending == 0 && len(q.items) == 0 {
		q.closed = true
		q.cond.Broadcast()
	}
	if it.pend != nil && it.pend.index >= 0 {
		least := it.pend.index == 0
		heap.Remove(&q.unlisted, it.pend.index)
		it.pend.index = -1
		if least {
			upTo, moved = q.unlisted.upTo()
		}
	}
	q.mu.Unlock()
	return upTo, moved
}

// advance moves a directory being listed in a walk in path order on to
// the file it passes next, and returns how far the walk has now come
// (false when that did not change).
func (q *workQueue) advance(p *pendingDir, next string) (upTo string, moved bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if p == nil || p.index < 0 {
		return "", false
	}
	least := p.index == 0
	p.key = next
	heap.Fix(&q.unlisted, p.index)
	if !least && p.index != 0 {
		return "", false
	}
	return q.unlisted.upTo()
}

// close ends the walk early.
func (q *workQueue) close() {
	q.mu.Lock()
	q.lazyInit()
	q.closed = true
	q.items = nil
	q.cond.Broadcast()
	q.mu.Unlock()
}
