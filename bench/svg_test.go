package bench

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rgkit/rgkit/search"
)

func chartReport() *Report {
	ms := time.Millisecond
	rep := &Report{
		Machine: Machine{OS: "linux", Arch: "amd64", CPUs: 2, Go: "go1.26", Versions: map[string]string{"ripgrep": "13.0.0"}},
		Root:    "/src",
		Runs:    3,
		Engines: []search.Info{{Name: "ripgrep", Version: "13.0.0"}, {Name: "native"}, {Name: "grep", Version: "3.8"}},
		Tasks:   []Task{{Name: "rare literal"}, {Name: "no-literal regex"}},
		Started: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC),
	}
	walls := [][]time.Duration{{40 * ms, 35 * ms, 60 * ms}, {900 * ms, 1100 * ms}}
	for ti := range rep.Tasks {
		for ei := range rep.Engines {
			var s []Sample
			for _, w := range walls[ti] {
				s = append(s, Sample{Wall: w * time.Duration(ei+1)})
			}
			rep.Cells = append(rep.Cells, Cell{Samples: s})
		}
	}
	rep.Cell(1, 2).Samples, rep.Cell(1, 2).Err = nil, search.ErrUnsupported
	return rep
}

func TestSVGIsWellFormedWithAxesLegendAndCaption(t *testing.T) {
	for _, log := range []bool{false, true} {
		var b bytes.Buffer
		if err := chartReport().WriteSVG(&b, ChartOptions{Log: log}); err != nil {
			t.Fatal(err)
		}
		dec := xml.NewDecoder(bytes.NewReader(b.Bytes()))
		for {
			if _, err := dec.Token(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("log=%v: not well-formed XML: %v", log, err)
			}
		}
		svg := b.String()
		scale := map[bool]string{false: "linear", true: "log"}[log]
		for _, want := range []string{
			"wall time (" + scale + " scale)",            // labelled axis
			">ripgrep 13.0.0<", ">native<", ">grep 3.8<", // legend
			">rare literal<", ">no-literal regex<", // groups
			"linux/amd64, 2 CPUs, go1.26, rg 13.0.0", // caption: machine and versions
		} {
			if !strings.Contains(svg, want) {
				t.Errorf("log=%v: chart lacks %q", log, want)
			}
		}
		// Five bars drawn (one cell unsupported), each with a hover title.
		if n := strings.Count(svg, "<rect x="); n != 5+3 { // + 3 legend swatches
			t.Errorf("log=%v: %d rects, want 5 bars and 3 legend swatches", log, n)
		}
	}
}

// TestSVGRendersInABrowser renders the chart in headless Chromium and checks
// the picture holds each engine's bar colour: the chart is what a person
// sees, not just well-formed text.
func TestSVGRendersInABrowser(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed (apt-get install chromium): cannot render the chart")
	}
	dir := t.TempDir()
	svgPath := filepath.Join(dir, "chart.svg")
	f, err := os.Create(svgPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := chartReport().WriteSVG(f, ChartOptions{Log: true}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	pngPath := filepath.Join(dir, "chart.png")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--window-size=900,600",
		"--screenshot="+pngPath, "file://"+svgPath)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	pf, err := os.Open(pngPath)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	img, err := png.Decode(pf)
	if err != nil {
		t.Fatal(err)
	}
	if dst := os.Getenv("RGKIT_KEEP_CHART"); dst != "" {
		b, _ := os.ReadFile(pngPath)
		_ = os.WriteFile(dst, b, 0o644)
	}
	seen := map[string]int{}
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			for i, hex := range engineColors[:3] {
				if near(r, g, b, hex) {
					seen[[]string{"ripgrep", "native", "grep"}[i]]++
				}
			}
		}
	}
	for _, name := range []string{"ripgrep", "native", "grep"} {
		if seen[name] < 100 {
			t.Errorf("the rendered chart shows almost no %s bar (%d pixels of its colour)", name, seen[name])
		}
	}
}

func near(r, g, b uint32, hex string) bool {
	var hr, hg, hb uint32
	_, _ = fmtSscanf(hex, &hr, &hg, &hb)
	d := func(a, b uint32) uint32 {
		a >>= 8
		if a > b {
			return a - b
		}
		return b - a
	}
	return d(r, hr) < 12 && d(g, hg) < 12 && d(b, hb) < 12
}

func fmtSscanf(hex string, r, g, b *uint32) (int, error) {
	return fmt.Sscanf(hex, "#%02x%02x%02x", r, g, b)
}
