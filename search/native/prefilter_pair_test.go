package native

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestPairScanFindsWhatAPlainSearchFinds checks the two-byte scan, alone
// and as indexRare's fallback where the rare byte is dense, against
// bytes.Index on random text made of the literal's own bytes (so the rare
// byte is everywhere and partial occurrences abound), from every kind of
// start, with occurrences at the ends of the data and across eight-byte
// words.
func TestPairScanFindsWhatAPlainSearchFinds(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(13, 1))
	for _, l := range []string{"PM_RESUME", "ab", "UU", "_SUSPEND", "xyzzy", "ErrUnexpectedEOF"} {
		t.Run(l, func(t *testing.T) {
			t.Parallel()
			m, err := Compile(MatchOptions{Pattern: l})
			if err != nil || m.pre == nil || len(m.pre.finders) != 1 {
				t.Fatalf("%q: not one literal (%v)", l, err)
			}
			f := m.pre.finders[0]
			if !f.usePair {
				t.Fatalf("%q: no pair scan", l)
			}
			alphabet := []byte(l + "\n ")
			for i := 0; i < 3000; i++ {
				size := rng.IntN(pairBlock * 3)
				if i%2 == 0 {
					size = rng.IntN(70)
				}
				data := make([]byte, size)
				for j := range data {
					data[j] = alphabet[rng.IntN(len(alphabet))]
				}
				for k := rng.IntN(3); k > 0 && len(data) >= len(l); k-- {
					copy(data[rng.IntN(len(data)-len(l)+1):], l)
				}
				from := 0
				if len(data) > 0 && i%3 == 0 {
					from = rng.IntN(len(data))
				}
				want := bytes.Index(data[from:], []byte(l))
				if want >= 0 {
					want += from
				}
				if got := f.pair.index(&f, data, from, len(data)); got != want {
					t.Fatalf("pair scan for %q in %q from %d: %d, want %d", l, data, from, got, want)
				}
				if got := f.index(data, from); got != want {
					t.Fatalf("finder for %q in %q from %d: %d, want %d", l, data, from, got, want)
				}
			}
		})
	}
}

// TestPairScanFolds checks the folded lanes: an ASCII letter matches in
// either case, any other byte only itself (no byte but 'U' becomes 'u'
// with bit 0x20 set).
func TestPairScanFolds(t *testing.T) {
	t.Parallel()
	l := lit{s: "pm_re", fold: true}
	p, ok := newPairScan(l)
	if !ok {
		t.Fatal("no pair scan for a five-byte literal")
	}
	f := finder{lit: l.s, fold: true}
	for _, c := range []struct {
		text string
		want int
	}{
		{"xx PM_RE", 3}, {"pM_rE", 0}, {"pm\x7fre pm_re", 6}, {"PM_R", -1}, {strings.Repeat("pm_r", 9) + "E", 32},
	} {
		if got := p.index(&f, []byte(c.text), 0, len(c.text)); got != c.want {
			t.Errorf("%q: %d, want %d", c.text, got, c.want)
		}
	}
}
