package conformance

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/rgkit/rgkit/search"
)

// RawRipgrep is the reference Engine of the conformance tests: it runs a
// real rg (the reference release, search.ReferenceVersion) with
// RipgrepArgs: plain rg flags, the pattern as written, no post-filtering.
// It is a test instrument, not one of rgkit's engines.
type RawRipgrep struct {
	// Path is the rg binary; empty means exec.LookPath("rg").
	Path string
}

var _ search.Engine = RawRipgrep{}

// Name implements search.Engine.
func (RawRipgrep) Name() string { return "rg-raw" }

func (r RawRipgrep) path() (string, error) {
	if r.Path != "" {
		return r.Path, nil
	}
	p, err := exec.LookPath("rg")
	if err != nil {
		return "", fmt.Errorf("rg not found: %w", search.ErrUnavailable)
	}
	return p, nil
}

// Available implements search.Engine.
func (r RawRipgrep) Available(ctx context.Context) (search.Info, error) {
	p, err := r.path()
	if err != nil {
		return search.Info{}, err
	}
	return search.Info{Name: r.Name(), Path: p}, nil
}

// rgValue is rg --json's {"text": ...} or {"bytes": base64} value.
type rgValue struct {
	Text  *string `json:"text"`
	Bytes *string `json:"bytes"`
}

func (v rgValue) String() string {
	if v.Text != nil {
		return *v.Text
	}
	if v.Bytes != nil {
		b, _ := base64.StdEncoding.DecodeString(*v.Bytes)
		return string(b)
	}
	return ""
}

type rgRecord struct {
	Type string `json:"type"`
	Data struct {
		Path       rgValue `json:"path"`
		Lines      rgValue `json:"lines"`
		LineNumber int     `json:"line_number"`
		Submatches []struct {
			Start int `json:"start"`
			End   int `json:"end"`
		} `json:"submatches"`
		Stats struct {
			MatchedLines int `json:"matched_lines"`
		} `json:"stats"`
	} `json:"data"`
}

// Search implements search.Engine.
func (r RawRipgrep) Search(ctx context.Context, q search.Query, sink search.Sink) (search.Stats, error) {
	rg, err := r.path()
	if err != nil {
		return search.Stats{}, err
	}
	cmd := exec.CommandContext(ctx, rg, RipgrepArgs(q)...)
	cmd.Dir = q.Root
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "RIPGREP_CONFIG_PATH=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() <= 2) {
		return search.Stats{}, fmt.Errorf("rg: %w: %s", err, stderr.String())
	}
	err = nil // exit 1 (no match) and 2 (some file failed) still carry results
	if q.Mode == search.ModeCount {
		return search.Stats{}, emitCounts(sink, out)
	}
	// A file's MatchedLines is what rg -c prints; in multiline mode that is
	// not the JSON's matched_lines (rg -c counts matches when the pattern
	// can match a line break), so rg -c is asked.
	var counts map[string]int
	if q.Multiline {
		cq := q
		cq.Mode = search.ModeCount
		col := &Collector{Mode: search.ModeCount}
		if _, err := r.Search(ctx, cq, col); err != nil {
			return search.Stats{}, err
		}
		counts = col.counts()
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var rec rgRecord
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return search.Stats{}, fmt.Errorf("rg --json: %w", err)
		}
		path := strings.TrimPrefix(rec.Data.Path.String(), "./")
		switch rec.Type {
		case "begin":
			err = sink.Begin(path)
		case "end":
			n := rec.Data.Stats.MatchedLines
			if counts != nil {
				n = counts[path]
			}
			err = sink.End(search.FileSummary{Path: path, MatchedLines: n})
		case "match", "context":
			if q.Mode != search.ModeContent {
				continue
			}
			err = emitPhysicalLines(sink, path, rec)
		}
		if err != nil {
			return search.Stats{}, err
		}
	}
	return search.Stats{}, sc.Err()
}

// emitPhysicalLines splits one rg record (several lines for a multiline
// match) into one Line per physical line, with the submatch spans clipped to
// each line, as the Sink contract asks.
func emitPhysicalLines(sink search.Sink, path string, rec rgRecord) error {
	text := rec.Data.Lines.String()
	kind := search.KindMatch
	if rec.Type == "context" {
		kind = search.KindContext
	}
	offset := 0
	for i, raw := range strings.SplitAfter(text, "\n") {
		if raw == "" {
			break
		}
		// The Line's text leaves out the line terminator ("\n" or "\r\n";
		// a lone '\r' is text). A span reaching into a "\r\n" end is cut at
		// the text's end, as every engine reports it.
		line := strings.TrimSuffix(raw, "\n")
		body := line
		if len(line) < len(raw) {
			body = strings.TrimSuffix(line, "\r")
		}
		l := search.Line{Path: path, Number: rec.Data.LineNumber + i, Text: []byte(body), Kind: kind}
		// A match on this line, or one that starts at its end (its '\n'),
		// which shows as an empty span there.
		for _, s := range rec.Data.Submatches {
			start, end := max(s.Start-offset, 0), min(s.End-offset, len(line))
			if start < end || (s.Start >= offset && s.Start-offset <= len(line)) {
				start, end = min(start, len(body)), min(end, len(body))
				l.Submatches = append(l.Submatches, search.Span{Start: start, End: max(start, end)})
			}
		}
		if len(l.Submatches) > 0 {
			l.Column = l.Submatches[0].Start + 1
		}
		if err := sink.Line(l); err != nil {
			return err
		}
		offset += len(raw)
	}
	return nil
}

// emitCounts turns rg --count --null output ("path\x00count\n") into
// Begin/End pairs.
func emitCounts(sink search.Sink, out []byte) error {
	for len(out) > 0 {
		i := bytes.IndexByte(out, 0)
		j := bytes.IndexByte(out[i+1:], '\n')
		if i < 0 || j < 0 {
			return fmt.Errorf("rg --count: malformed output %q", out)
		}
		path := strings.TrimPrefix(string(out[:i]), "./")
		n, err := strconv.Atoi(string(out[i+1 : i+1+j]))
		if err != nil {
			return fmt.Errorf("rg --count: %w", err)
		}
		if err := sink.Begin(path); err != nil {
			return err
		}
		if err := sink.End(search.FileSummary{Path: path, MatchedLines: n}); err != nil {
			return err
		}
		out = out[i+1+j+1:]
	}
	return nil
}
