package native

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/rgkit/rgkit/search"
)

// Reader reads whole files into pooled buffers, so a search allocates a
// buffer per worker rather than per file. The zero value is ready to use.
//
// Whole-file read(2) into a reused buffer rather than mmap, by measurement
// (BenchmarkRead, Go source tree, warm cache): for files under 256 KiB, 99%
// of that tree's files, read is 1.9x faster than open+mmap+munmap with every page
// touched; for the larger ones mmap is 1.8x faster, but they hold a third
// of the bytes, so it would save 1-2% of a search's CPU, and a file truncated
// while mapped faults (SIGBUS) instead of failing a read. rg, too, reads
// rather than maps when it recurses.
type Reader struct {
	// MaxPooled is the largest buffer kept for reuse; bigger ones are left to
	// the garbage collector so one huge file does not pin memory. 0 = 4 MiB.
	MaxPooled int
	pool      bufferPool
}

// bufferPool keeps released buffers for the next reads. Unlike a
// sync.Pool it is not emptied by every garbage collection, which with a
// small heap comes every few megabytes read: each worker's buffer was
// allocated, cleared and freed again many times a second. It holds at most
// maxFree buffers, each at most MaxPooled bytes.
type bufferPool struct {
	mu   sync.Mutex
	free []*[]byte
}

// maxFree bounds the buffers kept: a few per worker.
const maxFree = 8

func (p *bufferPool) Get() any {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.free)
	if n == 0 {
		return nil
	}
	b := p.free[n-1]
	p.free[n-1] = nil
	p.free = p.free[:n-1]
	return b
}

func (p *bufferPool) Put(b *[]byte) {
	if cap(*b) == 0 {
		// Never used (a mapped file's): kept, it would hand the next read
		// an empty buffer while a grown one waited in the pool, and the
		// pool would come to hold maxFree grown buffers for a few workers.
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.free) < maxFree {
		p.free = append(p.free, b)
	}
}

// Buffer holds one file's contents until Release.
type Buffer struct {
	Data []byte
	buf  *[]byte
	r    *Reader
	// mapped: Data is a mapping of the file (a large one, see mapMin),
	// unmapped at Release; reading it faults if the file is truncated
	// meanwhile (see FileSearcher.File).
	mapped bool
	// Absent: the file was read in chunks and none held a literal a match
	// needs (see Source.read); Data is empty.
	Absent bool
	// nul is where the probe of a large file found its first NUL byte
	// (offset in the data as searched, after a UTF-8 byte order mark), -1
	// when it has none, -2 when no probe ran.
	nul int
}

// probe is what a read of a large file looks for before mapping it, and
// what it learns (see Source.read).
type probe struct {
	pre *prefilter // the literals a match needs
	nul int        // learnt: as Buffer.nul
}

// errNoCandidate is how the system reader says a probed file holds no
// candidate.
var errNoCandidate = errors.New("no candidate")

// probeChunk is the size of the chunks a large file is probed in: rg's own
// read buffer, small enough to stay in the core's cache between the copy
// and the scan.
const probeChunk = 64 << 10

// Release returns the buffer to the pool; Data must not be used afterwards.
func (b *Buffer) Release() {
	if b.mapped {
		unmapData(b.Data)
		b.mapped, b.Data = false, nil
		return
	}
	if b.buf == nil {
		return
	}
	limit := b.r.MaxPooled
	if limit == 0 {
		limit = 4 << 20
	}
	if cap(*b.buf) <= limit {
		b.r.pool.Put(b.buf)
	}
	b.buf, b.Data = nil, nil
}

// releaser returns, for a mapped buffer, the SearchOptions.Release that
// drops the pages of the mapping a search has moved past (they are read
// back from the page cache if touched again); nil otherwise.
func (b *Buffer) releaser() func(int) {
	if !b.mapped {
		return nil
	}
	data, done := b.Data, 0
	return func(n int) {
		n &^= pageSize - 1
		if n < done {
			done = 0 // a new pass over the data (the NUL check came first)
		}
		if n > done && n <= len(data) {
			dropPages(data[done:n])
			done = n
		}
	}
}

// mapMin is the smallest file mapped into memory instead of read (Linux,
// Source.mapLarge): reading such a file into a pooled buffer grows the
// pool's buffers to its size, and reading the largest ones would allocate,
// clear and then free tens of megabytes on the heap (a 24 MB header in the Linux tree held by each
// worker, plus the garbage collector's headroom, tripled peak memory); a
// mapping is paged in from the page cache and returned whole at Release.
// At 1 MiB, the pooled buffers of a search of the Linux tree grew to a
// megabyte each on its 180 files of 256 KiB to 1 MiB, and the heap with
// them (peak RSS 27 MiB against rg's 8); at 256 KiB a buffer stays under
// 300 KiB, and mapping is the faster way to read such a file anyway (see
// Reader).
const mapMin = 256 << 10

// unknownSizeBuffer is the first buffer size for a file of unknown size.
const unknownSizeBuffer = 64 << 10

// buffer returns a pooled buffer with room for size+1 bytes (the extra
// byte lets a read see end of file without growing). A negative size means
// unknown (a walk that did not stat the file): the read then grows the
// buffer as needed.
func (r *Reader) buffer(size int64) *[]byte {
	bp, _ := r.pool.Get().(*[]byte)
	if bp == nil {
		bp = new([]byte)
	}
	if size < 0 {
		size = unknownSizeBuffer - 1
	}
	want := int(size) + 1
	if cap(*bp) < want {
		*bp = make([]byte, 0, want+want/8)
	}
	*bp = (*bp)[:0]
	return bp
}

// Source opens the files of one search root. Files are opened beneath the
// root, so a directory swapped for a symbolic link during the walk cannot
// lead outside it: on Linux with one openat2(2)
// RESOLVE_BENEATH call per file, elsewhere through os.Root. Links that stay
// inside the root are followed, as os.Root follows them.
type Source struct {
	r    *Reader
	root *os.Root
	sys  *sourceSys // the OS-specific fast path
	// mapLarge: Read maps a large file instead of reading it (see mapMin);
	// set only for a caller that survives the file being truncated while
	// it is searched (FileSearcher.File turns the fault into an error).
	mapLarge bool
	// confined: opened beneath a caller's handle (OpenBeneath); files are
	// never opened by their absolute path, even when Read is asked to follow.
	confined bool
}

// Open returns a Source for the directory root. A root that cannot be
// opened (no read permission: a directory of mode 0711 can still be
// passed through) gives a Source that opens every file by its absolute
// path, so a file named below it is still searched and a walk of it
// reports the directory it could not list.
func (r *Reader) Open(root string) (*Source, error) {
	rt, err := os.OpenRoot(root)
	if errors.Is(err, fs.ErrPermission) {
		return &Source{r: r, sys: newSourceSys(nil)}, nil
	}
	if err != nil {
		return nil, err
	}
	s := &Source{r: r, root: rt}
	s.sys = newSourceSys(rt)
	return s, nil
}

// OpenBeneath returns a Source for the directory held open as root (the
// caller keeps it open until the Source is closed): every file is opened
// beneath it, links followed only while they stay inside, whatever Read's
// follow says, so no path string is resolved from "/" again.
func (r *Reader) OpenBeneath(root *os.Root) (*Source, error) {
	rt, err := root.OpenRoot(".")
	if err != nil {
		return nil, err
	}
	s := &Source{r: r, root: rt, confined: true}
	s.sys = newSourceSys(rt)
	return s, nil
}

// OpenFor returns the Source for q's files: beneath q.Confine when set,
// else at q.Root.
func (r *Reader) OpenFor(q search.Query) (*Source, error) {
	if q.Confine != nil {
		return r.OpenBeneath(q.Confine)
	}
	return r.Open(q.Root)
}

// Close releases the root directory.
func (s *Source) Close() error {
	s.sys.close()
	if s.root == nil {
		return nil
	}
	return s.root.Close()
}

// Read reads all of f; f.Size, when not negative, sizes the buffer. With follow set (the search follows links, or the
// file was named explicitly, which rg follows) the file is opened by its
// absolute path instead, as rg would open it.
func (s *Source) Read(f File, follow bool) (Buffer, error) {
	return s.read(f, follow, nil)
}

// read with pre set is Read for a search that can skip a file in which pre finds
// none of its literals. A file large enough to be mapped is first read a
// chunk at a time through a small buffer, as rg reads every file, and
// mapped only if a chunk holds a candidate; Buffer.Absent reports that none
// did (Data is then empty). Scanning a mapping touches each page of the
// page cache through a fault and a page-table entry, and dropping them
// again flushes the TLB of every core the search runs on: for a rare
// literal in the Linux tree's 378 MB of register headers that cost six
// times rg's whole search. Only the Linux reader maps, so only it probes.
// The same reads find the file's first NUL byte (rg's binary rule needs
// it before the search), so the mapping is then searched in one pass, not
// scanned for a NUL first and paged in a second time.
func (s *Source) read(f File, follow bool, pre *prefilter) (Buffer, error) {
	return s.readWith(f, follow, pre, s.mapLarge)
}

// readWith is read, mapping a large file when mapLarge is set: the caller
// then turns a fault (the file truncated meanwhile) into an error.
func (s *Source) readWith(f File, follow bool, pre *prefilter, mapLarge bool) (Buffer, error) {
	var p *probe
	if pre != nil && mapLarge {
		p = &probe{pre: pre, nul: -2}
	}
	var bp *[]byte
	switch {
	case mapLarge && f.Size >= mapMin && p != nil:
		bp = s.r.buffer(probeChunk) // the chunks; mapped if a candidate shows
	case mapLarge && f.Size >= mapMin:
		bp = new([]byte) // mapped, or read if that fails
	default:
		bp = s.r.buffer(f.Size)
	}
	var err error
	follow = follow && !s.confined
	if !follow {
		data, mapped, handled, err := s.sys.read(f, *bp, f.Size, mapLarge, p)
		nul := -2
		if p != nil {
			nul = p.nul
		}
		if mapped {
			s.r.pool.Put(bp)
			return Buffer{Data: data, mapped: true, nul: nul}, nil
		}
		if errors.Is(err, errNoCandidate) {
			*bp = data[:0]
			b, _ := s.finish(bp, nil)
			b.Absent = true
			return b, nil
		}
		if handled {
			*bp = data
			b, err := s.finish(bp, err)
			b.nul = nul
			return b, err
		}
	}
	var fh *os.File
	if follow || s.root == nil {
		fh, err = os.Open(f.Abs)
	} else {
		fh, err = s.root.Open(filepath.FromSlash(f.Path))
	}
	if err != nil {
		return s.finish(bp, err)
	}
	if mapLarge {
		// A file opened by its path (named on the command line, or reached
		// through a followed link) is mapped when large, as a walked one is:
		// read into the heap, a 200 MB log named on the command line took
		// twice its size in memory and 100 times as long to search.
		if m, ok := mapLargeOpen(fh); ok {
			fh.Close()
			s.r.pool.Put(bp)
			return Buffer{Data: m, mapped: true, nul: -2}, nil
		}
	}
	*bp, err = readAll(fh, *bp)
	fh.Close()
	return s.finish(bp, err)
}

func (s *Source) finish(bp *[]byte, err error) (Buffer, error) {
	if err != nil {
		s.r.pool.Put(bp)
		return Buffer{}, err
	}
	return Buffer{Data: *bp, buf: bp, r: s.r, nul: -2}, nil
}

// readAll appends everything f holds to buf.
func readAll(f io.Reader, buf []byte) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}
