package rgfetch

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/term"
)

// progressBar draws one line on a terminal: the asset, a bar, the bytes
// received and, once data flows, the rate. Every frame starts with a
// carriage return and erases to the end of the line, and is cut to one
// column less than the terminal's width (measured on every frame, so a
// resized window is honoured): writing into the last column makes some
// terminals wrap, which would stack frames instead of replacing them.
type progressBar struct {
	out   io.Writer
	width func() int // columns; <= 0 when unknown
	name  string
	total int64 // -1 when the server sent no Content-Length
	now   func() time.Time

	n         int64
	firstAt   time.Time // when the first bytes arrived; zero until then
	firstN    int64     // bytes counted by that first write
	lastDraw  time.Time
	drawn     bool
	throttle  time.Duration
	minRateAt time.Duration // how long data must flow before a rate is shown
}

// newProgressBar returns a bar when w is a terminal, else nil.
func newProgressBar(w io.Writer, name string, total int64, now func() time.Time) *progressBar {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	fd := int(f.Fd())
	return &progressBar{
		out: f, name: name, total: total, now: now, throttle: 100 * time.Millisecond, minRateAt: 300 * time.Millisecond,
		width: func() int {
			cols, _, err := term.GetSize(fd)
			if err != nil {
				return 0
			}
			return cols
		},
	}
}

// Write counts p and redraws at most every throttle interval.
func (b *progressBar) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	t := b.now()
	b.n += int64(len(p))
	if b.firstAt.IsZero() {
		// The first read may deliver bytes that were buffered before the
		// clock started (headers and body in one packet); the rate counts
		// only what arrives after it.
		b.firstAt, b.firstN = t, b.n
	}
	if b.drawn && t.Sub(b.lastDraw) < b.throttle && b.n != b.total {
		return len(p), nil
	}
	b.lastDraw, b.drawn = t, true
	fmt.Fprint(b.out, "\r"+b.frame(t)+"\x1b[K")
	return len(p), nil
}

// Finish erases the line, leaving the cursor where the bar began.
func (b *progressBar) Finish() {
	if b.drawn {
		fmt.Fprint(b.out, "\r\x1b[K")
	}
}

// frame renders the line for time t, fitted to the terminal.
func (b *progressBar) frame(t time.Time) string {
	cols := b.width()
	if cols <= 0 {
		cols = 80
	}
	room := cols - 1
	amount := humanBytes(b.n)
	pct := ""
	if b.total > 0 {
		amount += "/" + humanBytes(b.total)
		pct = fmt.Sprintf("%3d%%", b.n*100/b.total)
	}
	rate := ""
	if el := t.Sub(b.firstAt); el >= b.minRateAt && b.n > b.firstN {
		rate = humanBytes(int64(float64(b.n-b.firstN)/el.Seconds())) + "/s"
	}
	// Parts in order of importance: what is dropped first when space runs
	// out is the name, then the bar, then the rate.
	line := strings.Join(nonEmpty([]string{pct, amount, rate}), " ")
	// The full asset name, else its short form (ripgrep-15.2.0), else none;
	// each kept only if a bar of minBar columns still fits beside it.
	const minBar = 12
	name := ""
	for _, n := range []string{b.name, shortAsset(b.name)} {
		if len(n)+1+minBar+1+len(line) <= room {
			name = n
			break
		}
	}
	barRoom := room - len(line) - 1
	if name != "" {
		barRoom -= len(name) + 1
	}
	bar := ""
	if b.total > 0 && barRoom >= minBar {
		inner := min(barRoom-2, 40)
		filled := int(int64(inner) * b.n / b.total)
		bar = "[" + strings.Repeat("=", filled) + strings.Repeat(" ", inner-filled) + "]"
	}
	out := strings.Join(nonEmpty([]string{name, bar, line}), " ")
	if len(out) > room {
		out = strings.Join(nonEmpty([]string{pct, amount}), " ")
	}
	return cut(out, room)
}

// shortAsset cuts a release asset name to its project and version:
// ripgrep-15.2.0-x86_64-unknown-linux-musl.tar.gz -> ripgrep-15.2.0.
func shortAsset(name string) string {
	parts := strings.SplitN(name, "-", 3)
	if len(parts) < 3 {
		return name
	}
	return parts[0] + "-" + parts[1]
}

func nonEmpty(parts []string) []string {
	out := parts[:0:0]
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// cut shortens s to at most n runes.
func cut(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// humanBytes formats a byte count with decimal units, as download tools do.
func humanBytes(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	case n < 1000*1000*1000:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%.1f GB", float64(n)/1e9)
}
