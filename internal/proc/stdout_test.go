package proc

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestStdoutHandoffWriteFallback: should os/exec write to Stdout instead
// of calling ReadFrom, the callback still reads everything, in order, and
// then io.EOF once Run calls finish; after the callback returns, writes
// are dropped instead of blocking.
func TestStdoutHandoffWriteFallback(t *testing.T) {
	t.Run("everything arrives", func(t *testing.T) {
		h := newStdoutHandoff()
		got := make(chan string, 1)
		go func() {
			src := &stdoutReader{r: <-h.to}
			b, _ := io.ReadAll(src)
			h.returned(src)
			got <- string(b)
		}()
		var want strings.Builder
		for i := range 100 {
			chunk := strings.Repeat(string(rune('a'+i%26)), 1000)
			want.WriteString(chunk)
			if n, err := h.Write([]byte(chunk)); n != len(chunk) || err != nil {
				t.Fatalf("Write = %d, %v", n, err)
			}
		}
		h.finish()
		if g := <-got; g != want.String() {
			t.Errorf("the callback read %d bytes, want %d", len(g), want.Len())
		}
	})
	t.Run("a callback that returned early", func(t *testing.T) {
		h := newStdoutHandoff()
		go func() {
			src := &stdoutReader{r: <-h.to}
			_, _ = src.Read(make([]byte, 1))
			h.returned(src)
		}()
		for range 10 {
			if n, err := h.Write(make([]byte, 1<<16)); n != 1<<16 || err != nil {
				t.Fatalf("Write = %d, %v", n, err)
			}
		}
		h.finish()
	})
	t.Run("no output at all", func(t *testing.T) {
		h := newStdoutHandoff()
		h.finish()
		b, err := io.ReadAll(&stdoutReader{r: <-h.to})
		if len(b) != 0 || err != nil {
			t.Errorf("read %q, %v; want nothing", b, err)
		}
	})
}

// TestStdoutReaderCap: at most max bytes reach the callback, onCap is
// called once when more come, and the callback then sees io.EOF.
func TestStdoutReaderCap(t *testing.T) {
	for _, c := range []struct {
		name   string
		size   int
		capped bool
	}{{"under the cap", 99, false}, {"at the cap", 100, false}, {"one past the cap", 101, true}, {"far past it", 10000, true}} {
		t.Run(c.name, func(t *testing.T) {
			calls := 0
			src := &stdoutReader{r: bytes.NewReader(make([]byte, c.size)), max: 100, onCap: func() { calls++ }}
			b, err := io.ReadAll(src)
			if err != nil || len(b) != min(c.size, 100) {
				t.Errorf("read %d bytes, %v; want %d", len(b), err, min(c.size, 100))
			}
			if src.capped != c.capped || calls != map[bool]int{true: 1}[c.capped] {
				t.Errorf("capped = %v after %d onCap calls, want %v", src.capped, calls, c.capped)
			}
			if !src.eof {
				t.Error("the end was not recorded")
			}
		})
	}
}
