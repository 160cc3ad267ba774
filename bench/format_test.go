package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rgkit/rgkit/search"
)

// suiteReport is a report of the default suite as a real run on a large
// tree gives it: the rg baseline, four engines, gitgrep unavailable
// everywhere (the tree is no git work tree), grep unable to list files.
func suiteReport() *Report {
	ms := time.Millisecond
	rep := &Report{
		Machine: Machine{OS: "linux", Arch: "amd64", CPUs: 2, Go: "go1.26.8",
			Versions: map[string]string{"rg": "15.2.0", "ripgrep": "15.2.0", "gitgrep": "2.39.5", "grep": "3.8"}},
		Root: "/src", Runs: 10, Warmup: 1, Started: time.Date(2026, 12, 1, 17, 0, 0, 0, time.UTC),
		LoadAverage: [2]float64{12.5, 14.25},
		Engines: []search.Info{{Name: "rg", Version: "15.2.0", Path: "/opt/rgref/15/rg"}, {Name: "ripgrep", Version: "15.2.0"},
			{Name: "gitgrep", Version: "2.39.5"}, {Name: "grep", Version: "3.8"}, {Name: "native"}},
		Tasks: DefaultSuite(),
	}
	for ti := range rep.Tasks {
		rep.Tasks[ti].Query.Case = DefaultSuite()[ti].Query.Case
		for _, info := range rep.Engines {
			c := Cell{Task: rep.Tasks[ti].Name, Engine: info.Name, Matches: 135234, Files: 11478}
			switch {
			case info.Name == "gitgrep":
				c.Err = fmt.Errorf("%w: /src is not inside a git work tree: fatal: not a git repository (or any of the parent directories): .git", search.ErrUnavailable)
			case info.Name == "grep" && rep.Tasks[ti].Listing:
				c.Err = fmt.Errorf("grep cannot list files: %w", search.ErrUnsupported)
			default:
				for k := range 10 {
					c.Samples = append(c.Samples, Sample{Wall: time.Duration(999+100*k) * ms, FirstResult: 1234 * ms,
						CPU: 1999 * ms, PeakRSS: 123 << 20})
				}
			}
			rep.Cells = append(rep.Cells, c)
		}
	}
	return rep
}

// markdownRows splits the table lines of a markdown document into cells the
// way a markdown renderer does: at every '|' not escaped with a backslash.
func markdownRows(md string) [][]string {
	sep := regexp.MustCompile(`(^|[^\\])\|`)
	var rows [][]string
	for _, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "|") {
			continue
		}
		marked := sep.ReplaceAllString(line, "$1\x00")
		rows = append(rows, strings.Split(strings.Trim(marked, "\x00"), "\x00"))
	}
	return rows
}

func TestMarkdownTable(t *testing.T) {
	t.Parallel()
	rep := suiteReport()
	var md bytes.Buffer
	if err := rep.Write(&md, FormatMarkdown); err != nil {
		t.Fatal(err)
	}
	rows := markdownRows(md.String())

	t.Run("a pattern with | stays in one cell", func(t *testing.T) {
		if len(rows) < 3 {
			t.Fatalf("no table:\n%s", md.String())
		}
		for _, r := range rows {
			if len(r) != len(rows[0]) {
				t.Errorf("row has %d cells, the header %d: %q", len(r), len(rows[0]), r)
			}
		}
		if !strings.Contains(md.String(), "`(Read\\|Write)(At\\|From\\|To)`") {
			t.Errorf("the alternation is not shown escaped as code:\n%s", md.String())
		}
	})
	t.Run("the cell text reads back as the pattern", func(t *testing.T) {
		found := false
		for _, r := range rows {
			cell := strings.ReplaceAll(strings.TrimSpace(r[0]), `\|`, "|")
			found = found || cell == "alternation `(Read|Write)(At|From|To)`"
		}
		if !found {
			t.Errorf("no task cell reads `alternation (Read|Write)(At|From|To)`:\n%s", md.String())
		}
	})
}

func TestTableFitsAHundredColumnsAndSaysUnavailableEnginesOnce(t *testing.T) {
	t.Parallel()
	for _, f := range []Format{FormatTable, FormatMarkdown} {
		var out bytes.Buffer
		if err := suiteReport().Write(&out, f); err != nil {
			t.Fatal(err)
		}
		text := out.String()
		t.Run(fmt.Sprint("format ", f), func(t *testing.T) {
			for _, line := range strings.Split(text, "\n") {
				if n := utf8.RuneCountInString(line); n > 100 {
					t.Errorf("%d columns: %s", n, line)
				}
			}
			want := "gitgrep: unavailable (not inside a git work tree)"
			if strings.Count(text, want) != 1 {
				t.Errorf("want %q exactly once:\n%s", want, text)
			}
			if strings.Count(text, "gitgrep") != 1 {
				t.Errorf("gitgrep still has rows:\n%s", text)
			}
			if !strings.Contains(text, "×rg is against the rg row: rg 15.2.0 (/opt/rgref/15/rg)") {
				t.Errorf("the table does not say what the ratios are against:\n%s", text)
			}
			if !strings.Contains(text, "load average 12.5 → 14.2") {
				t.Errorf("the caption lacks the load average:\n%s", text)
			}
		})
	}
}

// jsonKeys collects every object key of a decoded JSON document, except the
// keys of machine.versions (engine names).
func jsonKeys(v any, path string, out map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if path != ".machine.versions" {
				out[k] = true
			}
			jsonKeys(e, path+"."+k, out)
		}
	case []any:
		for _, e := range x {
			jsonKeys(e, path, out)
		}
	}
}

func TestJSONHasOneKeyStyleAndEmptyListsNotNull(t *testing.T) {
	t.Parallel()
	rep := suiteReport()
	rep.Disagreements = nil
	var js bytes.Buffer
	if err := rep.Write(&js, FormatJSON); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	jsonKeys(doc, "", keys)
	snake := regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	for k := range keys {
		if !snake.MatchString(k) {
			t.Errorf("key %q is not snake_case", k)
		}
	}
	for _, k := range []string{"os", "cpus", "load_average", "first_result_ns", "child_peak_rss_bytes", "self_peak_rss_bytes"} {
		if !keys[k] {
			t.Errorf("no key %q", k)
		}
	}
	if d, ok := doc["disagreements"].([]any); !ok || len(d) != 0 {
		t.Errorf(`"disagreements" = %#v, want []`, doc["disagreements"])
	}
	if u, ok := doc["unavailable"].([]any); !ok || len(u) != 1 {
		t.Errorf(`"unavailable" = %#v, want gitgrep alone`, doc["unavailable"])
	}
	if b, _ := doc["baseline"].(map[string]any); b["version"] != "15.2.0" || b["path"] != "/opt/rgref/15/rg" {
		t.Errorf(`"baseline" = %#v, want rg 15.2.0 and its path`, doc["baseline"])
	}

	t.Run("a disagreement's lists are [] when empty", func(t *testing.T) {
		rep.Disagreements = []Disagreement{{Task: "t", Engine: "grep", Reference: "ripgrep", Extra: []Key{{"a", 1}}, ExtraCount: 1}}
		js.Reset()
		_ = rep.Write(&js, FormatJSON)
		if !strings.Contains(js.String(), `"missing": []`) || !strings.Contains(js.String(), `"missing_count": 0`) {
			t.Errorf("disagreement JSON:\n%s", js.String())
		}
	})
}
