package bench

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rgkit/rgkit/search"
)

// chartReport has what made the old chart unreadable: one noisy run (769 ms
// among medians under 100 ms), an engine that never ran (gitgrep), a bar of
// 1.5 ms beside bars of 80 ms, and a task grep cannot do.
func chartReport() *Report {
	ms := time.Millisecond
	rep := &Report{
		Machine: Machine{OS: "linux", Arch: "amd64", CPUs: 2, Go: "go1.26", Versions: map[string]string{"ripgrep": "15.2.0"}},
		Root:    "/src",
		Runs:    3,
		Engines: []search.Info{{Name: "ripgrep", Version: "15.2.0"}, {Name: "gitgrep", Version: "2.39.5"}, {Name: "native"}, {Name: "grep", Version: "3.8"}},
		Tasks:   []Task{{Name: "rare literal"}, {Name: "no-literal regex"}},
		Started: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC),
	}
	walls := [][][]time.Duration{
		{{40 * ms, 35 * ms, 769 * ms}, nil, {1500 * time.Microsecond, 1400 * time.Microsecond, 1600 * time.Microsecond}, {70 * ms, 60 * ms, 80 * ms}},
		{{90 * ms, 85 * ms, 95 * ms}, nil, {60 * ms, 50 * ms, 70 * ms}, nil},
	}
	for ti := range rep.Tasks {
		for ei := range rep.Engines {
			c := Cell{}
			for _, w := range walls[ti][ei] {
				c.Samples = append(c.Samples, Sample{Wall: w})
			}
			switch {
			case rep.Engines[ei].Name == "gitgrep":
				c.Err = fmt.Errorf("%w: not inside a git work tree", search.ErrUnavailable)
			case c.Samples == nil:
				c.Err = search.ErrUnsupported
			}
			rep.Cells = append(rep.Cells, c)
		}
	}
	return rep
}

func chart(t *testing.T, rep *Report, o ChartOptions) string {
	t.Helper()
	var b bytes.Buffer
	if err := rep.WriteSVG(&b, o); err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(b.Bytes()))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
	}
	return b.String()
}

// texts are the contents of the chart's <text class="class"> elements.
func texts(svg, class string) []string {
	re := regexp.MustCompile(`<text class="` + class + `"[^>]*>([^<]*)<`)
	var out []string
	for _, m := range re.FindAllStringSubmatch(svg, -1) {
		out = append(out, m[1])
	}
	return out
}

func axisMax(t *testing.T, svg string) float64 {
	t.Helper()
	m := regexp.MustCompile(`data-axis-max-ms="([0-9.e+-]+)"`).FindStringSubmatch(svg)
	if m == nil {
		t.Fatal("the chart does not say its axis maximum")
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	return v
}

func TestSVGChart(t *testing.T) {
	t.Parallel()
	for _, scale := range []Scale{ScaleLinear, ScaleLog} {
		svg := chart(t, chartReport(), ChartOptions{Scale: scale})
		name := map[Scale]string{ScaleLinear: "linear", ScaleLog: "log"}[scale]
		t.Run(name+"/labelled axis, groups and caption", func(t *testing.T) {
			for _, want := range []string{"wall time (" + name + " scale)", ">rare literal<", ">no-literal regex<", "linux/amd64, 2 CPUs, go1.26, rg 15.2.0"} {
				if !strings.Contains(svg, want) {
					t.Errorf("chart lacks %q", want)
				}
			}
		})
		t.Run(name+"/the axis is chosen from the medians and the noisy whisker is clipped", func(t *testing.T) {
			if m := axisMax(t, svg); m < 90 || m > 2.5*90 {
				t.Errorf("axis max %g ms; want between the largest median (90 ms) and 2.5× it, not the 769 ms run", m)
			}
			if n := strings.Count(svg, `class="clipped"`); n != 1 {
				t.Errorf("%d clipped-whisker marks, want 1 (the 769 ms run)", n)
			}
		})
		t.Run(name+"/a note says what the whiskers are", func(t *testing.T) {
			if note := strings.Join(texts(svg, "note"), " "); !strings.Contains(note, "min–max of 3 runs") {
				t.Errorf("note = %q", note)
			}
		})
		t.Run(name+"/the legend has only the engines that ran", func(t *testing.T) {
			if got := strings.Join(texts(svg, "legend"), ","); got != "ripgrep 15.2.0,native,grep 3.8" {
				t.Errorf("legend = %s", got)
			}
		})
		t.Run(name+"/every bar is labelled with its median", func(t *testing.T) {
			bars := strings.Count(svg, `class="bar"`)
			got := strings.Join(texts(svg, "value"), ",")
			if bars != 5 || got != "40ms,1.5ms,70ms,90ms,60ms" {
				t.Errorf("%d bars labelled %s; want 5 labelled 40ms,1.5ms,70ms,90ms,60ms", bars, got)
			}
		})
	}
	t.Run("the scale is log when medians span more than 20×", func(t *testing.T) {
		if svg := chart(t, chartReport(), ChartOptions{}); !strings.Contains(svg, `data-scale="log"`) {
			t.Error("1.5 ms beside 90 ms (60×) drew a linear axis")
		}
		close := chartReport()
		close.Cell(0, 2).Samples = []Sample{{Wall: 30 * time.Millisecond}}
		if svg := chart(t, close, ChartOptions{}); !strings.Contains(svg, `data-scale="linear"`) {
			t.Error("medians within 3× drew a log axis")
		}
	})
}

// renderFrame is the browser window each chart is seen in (a larger chart
// is clipped, as in a window of that size).
const renderFrameW, renderFrameH = 1000, 700

// render shows the charts in one headless Chromium, side by side, each in
// its own renderFrameW×renderFrameH frame at the top left (as a window of
// that size opened on the .svg file shows it), and returns each frame's
// picture. One browser for all: a Chromium start is about 2 s of CPU.
// RGKIT_KEEP_CHART=FILE keeps the screenshot.
func render(t *testing.T, svgs ...string) []image.Image {
	t.Helper()
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("RGKIT_REQUIRE_TOOLS") == "1" {
			t.Fatal("chromium not installed, and RGKIT_REQUIRE_TOOLS=1")
		}
		t.Skip("chromium not installed (apt-get install chromium): cannot render the chart")
	}
	dir := t.TempDir()
	var page strings.Builder
	page.WriteString("<!DOCTYPE html><html><head><style>body{margin:0;width:max-content}" +
		"div{float:left;overflow:hidden;width:" + strconv.Itoa(renderFrameW) + "px;height:" + strconv.Itoa(renderFrameH) + "px}" +
		"img{display:block}</style></head><body>")
	for i, svg := range svgs {
		name := fmt.Sprintf("chart%d.svg", i)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(svg), 0o644); err != nil {
			t.Fatal(err)
		}
		page.WriteString(`<div><img src="` + name + `"></div>`)
	}
	page.WriteString("</body></html>\n")
	htmlPath := filepath.Join(dir, "charts.html")
	if err := os.WriteFile(htmlPath, []byte(page.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	pngPath := filepath.Join(dir, "charts.png")
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+filepath.Join(dir, "profile"), fmt.Sprintf("--window-size=%d,%d", renderFrameW*len(svgs), renderFrameH),
		"--screenshot="+pngPath, "file://"+htmlPath)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	b, err := os.ReadFile(pngPath)
	if err != nil {
		t.Fatal(err)
	}
	if dst := os.Getenv("RGKIT_KEEP_CHART"); dst != "" {
		_ = os.WriteFile(dst, b, 0o644)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	sub, ok := img.(interface {
		SubImage(image.Rectangle) image.Image
	})
	if !ok {
		t.Fatalf("screenshot is a %T, which cannot be cut into frames", img)
	}
	if got, want := img.Bounds().Size(), image.Pt(renderFrameW*len(svgs), renderFrameH); got != want {
		t.Fatalf("screenshot is %v, want %v", got, want)
	}
	frames := make([]image.Image, len(svgs))
	for i := range svgs {
		frames[i] = sub.SubImage(image.Rect(i*renderFrameW, 0, (i+1)*renderFrameW, renderFrameH).Add(img.Bounds().Min))
	}
	return frames
}

// colourPixels counts the pixels of each colour in the picture. The
// colours are parsed once, not per pixel (a 1000×700 screenshot is 700,000
// pixels).
func colourPixels(img image.Image, colours []string) []int {
	want := make([][3]uint32, len(colours))
	for i, hex := range colours {
		want[i] = parseHex(hex)
	}
	n := make([]int, len(colours))
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			for i, c := range want {
				if near(r, g, bl, c) {
					n[i]++
				}
			}
		}
	}
	return n
}

// TestSVGRendersInABrowser renders the chart in headless Chromium and checks
// the picture: each engine that ran shows its bars, the one that never ran
// has no colour in it, and a 1.5 ms bar beside second-long ones is seen.
// Both charts are rendered by one Chromium (render), each in its own frame.
func TestSVGRendersInABrowser(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	tiny := &Report{Machine: Machine{OS: "linux"}, Runs: 1, Root: "/src",
		Engines: []search.Info{{Name: "ripgrep"}, {Name: "native"}},
		Tasks:   []Task{{Name: "t"}},
		Cells:   []Cell{{Samples: []Sample{{Wall: 1000 * ms}}}, {Samples: []Sample{{Wall: 1500 * time.Microsecond}}}}}
	imgs := render(t, chart(t, chartReport(), ChartOptions{}), chart(t, tiny, ChartOptions{Scale: ScaleLinear}))

	t.Run("each engine that ran shows its bars", func(t *testing.T) {
		seen := colourPixels(imgs[0], engineColors[:4])
		for ei, name := range []string{"ripgrep", "gitgrep", "native", "grep"} {
			if name == "gitgrep" {
				if seen[ei] > 0 {
					t.Errorf("gitgrep never ran but its colour covers %d pixels (legend?)", seen[ei])
				}
				continue
			}
			if seen[ei] < 100 {
				t.Errorf("the rendered chart shows almost no %s bar (%d pixels of its colour)", name, seen[ei])
			}
		}
	})

	t.Run("a 1.5 ms bar beside second-long ones on a linear axis", func(t *testing.T) {
		n := colourPixels(imgs[1], engineColors[:2])
		// The legend swatch is 12×12 = 144 pixels; the bar is 18 wide.
		if n[1] < 144+2*18 {
			t.Errorf("the 1.5 ms bar is not visible: %d pixels of its colour, the legend swatch alone has 144", n[1])
		}
	})
}

// parseHex is "#rrggbb" as three 8-bit channels.
func parseHex(hex string) [3]uint32 {
	var c [3]uint32
	_, _ = fmt.Sscanf(hex, "#%02x%02x%02x", &c[0], &c[1], &c[2])
	return c
}

// near reports whether a 16-bit RGB pixel is within 12 of colour c in
// each 8-bit channel.
func near(r, g, b uint32, c [3]uint32) bool {
	d := func(a, b uint32) uint32 {
		a >>= 8
		if a > b {
			return a - b
		}
		return b - a
	}
	return d(r, c[0]) < 12 && d(g, c[1]) < 12 && d(b, c[2]) < 12
}
