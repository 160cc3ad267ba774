package rgfetch

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

// openPTY opens a real pseudo-terminal of the given size and returns its
// master (what a terminal emulator reads) and slave (what a program
// writes to as its stderr).
func openPTY(t *testing.T, cols, rows uint16) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		m.Close()
		t.Fatal(err)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Fatal(err)
	}
	if err := unix.IoctlSetWinsize(int(m.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: cols, Row: rows}); err != nil {
		t.Fatal(err)
	}
	return m, s
}

// throttled serves body at about rate bytes a second, in ten chunks a
// second.
func throttled(t *testing.T, body []byte, rate int) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		w.WriteHeader(http.StatusOK)
		chunk := rate / 10
		for off := 0; off < len(body); off += chunk {
			if _, err := w.Write(body[off:min(off+chunk, len(body))]); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

var rateRE = regexp.MustCompile(`([0-9.]+) (B|kB|MB|GB)/s`)

// The progress bar on a real terminal: each frame replaces the previous
// one on a single line that fits the width, the rate appears only once data
// has flowed (never an absurd first reading), and the line is cleared at
// the end.
func TestProgressBarFitsARealTerminal(t *testing.T) {
	t.Parallel()
	for _, cols := range []uint16{80, 40} {
		t.Run(fmt.Sprintf("%d columns", cols), func(t *testing.T) {
			t.Parallel()
			master, slave := openPTY(t, cols, 30)
			defer master.Close()
			var screen bytes.Buffer
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				io.Copy(&screen, master) // ends with EIO once the slave is closed
			}()

			// An incompressible rg of about 600 kB, so the download takes a
			// couple of seconds at 250 kB/s.
			pad := make([]byte, 600_000)
			rand.Read(pad)
			exe := append([]byte("#!/bin/sh\necho \"ripgrep "+DefaultVersion+"\"\nexit 0\n"), pad...)
			_, archive := releaseTarGz(t, DefaultVersion, "x86_64-unknown-linux-musl", exe)
			srv := throttled(t, archive, 250_000)

			e := newTestEnv(t)
			r := e.resolver()
			r.NoSystem, r.SHA256, r.Progress = true, sha256Hex(archive), slave
			r.Mirror, r.HTTPClient = srv.URL, loopbackOnly(t, srv.Client())
			if _, err := r.Resolve(context.Background()); err != nil {
				t.Fatal(err)
			}
			slave.Close()
			wg.Wait()

			out := screen.String()
			if strings.ContainsAny(out, "\n") {
				t.Errorf("the bar wrote a newline: %q", out)
			}
			if !strings.HasSuffix(out, "\r\x1b[K") {
				t.Errorf("the line is not cleared at the end: ...%q", out[max(0, len(out)-40):])
			}
			var frames []string
			for _, f := range strings.Split(out, "\r") {
				if f = strings.ReplaceAll(f, "\x1b[K", ""); f != "" {
					frames = append(frames, f)
				}
			}
			if len(frames) < 5 {
				t.Fatalf("only %d frames drawn: %q", len(frames), out)
			}
			for _, f := range frames {
				if w := utf8.RuneCountInString(f); w >= int(cols) {
					t.Errorf("frame is %d columns wide on a %d-column terminal, so it wraps: %q", w, cols, f)
				}
			}
			if rateRE.MatchString(frames[0]) {
				t.Errorf("the first frame shows a rate before any data has flowed: %q", frames[0])
			}
			rated := 0
			for _, f := range frames {
				m := rateRE.FindStringSubmatch(f)
				if m == nil {
					continue
				}
				rated++
				v, _ := strconv.ParseFloat(m[1], 64)
				v *= map[string]float64{"B": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9}[m[2]]
				if v > 2.5e6 { // ten times what the server sends
					t.Errorf("frame claims %s/s from a 250 kB/s server: %q", m[0], f)
				}
			}
			if rated == 0 {
				t.Errorf("no frame shows a rate: %q", frames)
			}
			t.Logf("%d frames; last: %q", len(frames), frames[len(frames)-1])
		})
	}
}
