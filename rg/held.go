package rg

import (
	"fmt"
	"io"
	"os"
	"sync"
)

// heldInMemory is how much of the files' output --sort holds in memory;
// the rest waits in a temporary file. rg sorts by path by walking in order
// and holds nothing; the search here is parallel and sorts at the end, so
// its output must wait somewhere: `--sort path -i error` over the Linux
// tree held 22 MB of it, 52 MiB at the peak against rg's 5.5 (now 30),
// and a search printing every line would hold the tree.
const heldInMemory = 2 << 20

// heldOutput keeps the output of the files --sort holds until the end:
// in memory up to heldInMemory bytes, then in an unlinked temporary file,
// so that memory stays bounded whatever the output's size. If no
// temporary file can be made, the output stays in memory, as before.
// A file's output is held in chunks of sortChunk bytes as it is printed
// (rgSink.chunks), so no buffer grows with a file that prints megabytes.
type heldOutput struct {
	mu       sync.Mutex // a worker holds a file's chunks while another's are written out
	inMemory int64
	spill    *os.File // nil until the memory is used up
	spillErr error    // the temporary file could not be made: memory only
	end      int64    // the spill file's size
	inFile   int      // held outputs in the spill file not yet released
	remove   string   // the spill file's name when it could not be unlinked open (Windows)
}

// heldBytes is one file's held output: in memory, or at [off, off+n) of
// the spill file.
type heldBytes struct {
	mem    []byte
	off, n int64
}

// hold keeps a copy of out.
func (h *heldOutput) hold(out []byte) heldBytes {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.holdLocked(out)
}

func (h *heldOutput) holdLocked(out []byte) heldBytes {
	if h.inMemory+int64(len(out)) <= heldInMemory || h.spillErr != nil {
		h.inMemory += int64(len(out))
		return heldBytes{mem: append([]byte(nil), out...)}
	}
	if h.spill == nil {
		f, err := os.CreateTemp("", "rg-sort-*")
		if err != nil {
			h.spillErr = err
			return h.holdLocked(out)
		}
		if os.Remove(f.Name()) != nil {
			h.remove = f.Name() // removed at close instead
		}
		h.spill = f
	}
	if _, err := h.spill.WriteAt(out, h.end); err != nil {
		// (a full disk, say: this file's output stays in memory)
		h.inMemory += int64(len(out))
		return heldBytes{mem: append([]byte(nil), out...)}
	}
	b := heldBytes{off: h.end, n: int64(len(out))}
	h.end += b.n
	h.inFile++
	return b
}

// release forgets b, written out: its memory is free for what is held
// next, and the spill file is reused from its start once nothing in it is
// waiting.
func (h *heldOutput) release(b heldBytes) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case b.mem != nil:
		h.inMemory -= int64(len(b.mem))
	case b.n > 0:
		if h.inFile--; h.inFile == 0 {
			h.end = 0
		}
	}
}

// writeTo writes b's bytes to w, reading them back from the spill file
// when they are there.
func (h *heldOutput) writeTo(w io.Writer, b heldBytes) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if b.mem != nil || b.n == 0 {
		_, err := w.Write(b.mem)
		return err
	}
	buf := make([]byte, min(b.n, 64<<10))
	for off, end := b.off, b.off+b.n; off < end; {
		n, err := h.spill.ReadAt(buf[:min(int64(len(buf)), end-off)], off)
		if n == 0 && err != nil {
			return fmt.Errorf("reading back the sorted output: %w", err)
		}
		if _, err := w.Write(buf[:n]); err != nil {
			return err
		}
		off += int64(n)
	}
	return nil
}

// close removes the spill file.
func (h *heldOutput) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.spill == nil {
		return
	}
	h.spill.Close()
	if h.remove != "" {
		os.Remove(h.remove)
	}
	h.spill = nil
}
