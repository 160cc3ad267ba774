package rgfetch

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
)

// versionMemoEntries bounds the memo file: a machine has a handful of rg
// binaries, and the oldest answer is dropped first.
const versionMemoEntries = 16

// versionMemo remembers what `rg --version` answered for a binary, on disk,
// keyed by the file's identity: device, inode, size, modification time and
// inode change time. `rgkit grep` hands its command line to rg 15 and must
// know the version first; without the memo every search starts rg twice,
// which on a short query costs as much as the search. The change time is
// the kernel's (no utime call can set it), so a binary replaced, rewritten
// or renamed over always misses and is asked again. Where no change time is
// available (Windows), the memo is off. Only the system rg and the override
// use it; an install's smoke test always runs the binary it installed.
type versionMemo struct {
	path string // the memo file; "" = off
}

// defaultVersionMemo is the memo in the user's cache directory, or off when
// there is none.
func defaultVersionMemo(app string) versionMemo {
	dir, err := os.UserCacheDir()
	if err != nil || dir == "" {
		return versionMemo{}
	}
	return versionMemo{path: filepath.Join(dir, app, "rg-versions")}
}

// version returns rg's version for path: the memo's answer when the file is
// the one it remembers, otherwise probe's, which is then remembered.
func (m versionMemo) version(ctx context.Context, path string, probe func(context.Context, string) (string, error)) (string, error) {
	if m.path == "" {
		return probe(ctx, path)
	}
	id, ok := fileIdentity(path)
	if !ok {
		return probe(ctx, path)
	}
	key := id + "\t" + path
	lines := m.read()
	for _, l := range lines {
		if k, v, ok := cutLast(l); ok && k == key {
			return v, nil
		}
	}
	v, err := probe(ctx, path)
	if err != nil {
		return v, err
	}
	// The binary may have changed while it ran: remember the answer only
	// for the identity it still has.
	if after, ok := fileIdentity(path); ok && after == id {
		m.write(append(lines, key+"\t"+v))
	}
	return v, nil
}

// cutLast splits "identity\tpath\tversion" into its key and version.
func cutLast(line string) (key, version string, ok bool) {
	i := strings.LastIndexByte(line, '\t')
	if i < 0 {
		return "", "", false
	}
	return line[:i], line[i+1:], true
}

func (m versionMemo) read() []string {
	data, err := os.ReadFile(m.path)
	if err != nil || len(data) > 64<<10 {
		return nil
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if l := sc.Text(); strings.Count(l, "\t") == 2 {
			lines = append(lines, l)
		}
	}
	return lines
}

// write replaces the memo atomically; a memo that cannot be written is
// simply not kept (the next run asks rg again).
func (m versionMemo) write(lines []string) {
	if len(lines) > versionMemoEntries {
		lines = lines[len(lines)-versionMemoEntries:]
	}
	dir := filepath.Dir(m.path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	f, err := os.CreateTemp(dir, ".rg-versions-*")
	if err != nil {
		return
	}
	defer os.Remove(f.Name())
	_, werr := f.WriteString(strings.Join(lines, "\n") + "\n")
	if cerr := f.Close(); werr != nil || cerr != nil {
		return
	}
	_ = os.Rename(f.Name(), m.path)
}
