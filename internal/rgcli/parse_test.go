package rgcli

import (
	"errors"
	"slices"
	"testing"
)

func mustParse(t *testing.T, args ...string) *Options {
	t.Helper()
	o, err := Parse(args)
	if err != nil {
		t.Fatalf("Parse(%q): %v", args, err)
	}
	return o
}

func TestParseBundlesAndValues(t *testing.T) {
	t.Parallel()
	o := mustParse(t, "-inC2", "foo", "a", "b")
	if o.Case != CaseInsensitive || o.LineNumber == nil || !*o.LineNumber || o.Context == nil || *o.Context != 2 {
		t.Errorf("-inC2: %+v", o)
	}
	if !slices.Equal(o.Patterns, []string{"foo"}) || !slices.Equal(o.Paths, []string{"a", "b"}) {
		t.Errorf("pattern %q paths %q", o.Patterns, o.Paths)
	}
	for _, args := range [][]string{{"-A3", "x"}, {"-A", "3", "x"}, {"-A=3", "x"}, {"--after-context=3", "x"}, {"--after-context", "3", "x"}} {
		if o := mustParse(t, args...); o.After == nil || *o.After != 3 {
			t.Errorf("%q: after %v", args, o.After)
		}
	}
	o = mustParse(t, "-uuu", "x")
	if !o.NoIgnore || !o.Hidden || !o.Binary {
		t.Errorf("-uuu: %+v", o)
	}
}

func TestParsePatternsAndPaths(t *testing.T) {
	t.Parallel()
	o := mustParse(t, "-e", "a", "-e", "b", "x", "y")
	if !slices.Equal(o.Patterns, []string{"a", "b"}) || !slices.Equal(o.Paths, []string{"x", "y"}) {
		t.Errorf("-e: patterns %q paths %q", o.Patterns, o.Paths)
	}
	o = mustParse(t, "--", "-x", "-y")
	if !slices.Equal(o.Patterns, []string{"-x"}) || !slices.Equal(o.Paths, []string{"-y"}) {
		t.Errorf("--: patterns %q paths %q", o.Patterns, o.Paths)
	}
	o = mustParse(t, "-f", "pats", "x")
	if len(o.Patterns) != 0 || !slices.Equal(o.Paths, []string{"x"}) {
		t.Errorf("-f: patterns %q paths %q", o.Patterns, o.Paths)
	}
	o = mustParse(t, "--files", "dir")
	if o.Mode != ModeFiles || !slices.Equal(o.Paths, []string{"dir"}) {
		t.Errorf("--files takes no pattern: %+v", o)
	}
}

func TestParseLastFlagWins(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want Case
	}{
		{[]string{"-i", "-s", "x"}, CaseSensitive},
		{[]string{"-s", "-i", "x"}, CaseInsensitive},
		{[]string{"-i", "-S", "x"}, CaseSmart},
		{[]string{"-S", "-i", "x"}, CaseInsensitive},
	} {
		if o := mustParse(t, tc.args...); o.Case != tc.want {
			t.Errorf("%q: case %v, want %v", tc.args, o.Case, tc.want)
		}
	}
	if o := mustParse(t, "-c", "-l", "x"); o.Mode != ModeFilesWithMatches {
		t.Errorf("-c -l: mode %v", o.Mode)
	}
	if o := mustParse(t, "--files", "-l", "x"); o.Mode != ModeFilesWithMatches {
		t.Errorf("--files -l: the later mode wins in rg 15 (whatever its source's comment says), got %v", o.Mode)
	}
	if o := mustParse(t, "-l", "--files"); o.Mode != ModeFiles {
		t.Errorf("-l --files: %v", o.Mode)
	}
	if o := mustParse(t, "-c", "-o", "x"); o.Mode != ModeCountMatches {
		t.Errorf("-c -o counts matches, got %v", o.Mode)
	}
	if o := mustParse(t, "--heading", "--no-heading", "x"); *o.Heading {
		t.Error("--no-heading after --heading")
	}
	if o := mustParse(t, "--hidden", "--no-hidden", "x"); o.Hidden {
		t.Error("--no-hidden after --hidden")
	}
	if o := mustParse(t, "-x", "-w", "x"); o.LineRegexp || !o.Word {
		t.Error("-w after -x")
	}
	if o := mustParse(t, "--sort", "path", "--sortr", "modified", "x"); o.Sort != SortModified || !o.SortReverse {
		t.Errorf("--sortr after --sort: %v %v", o.Sort, o.SortReverse)
	}
	if o := mustParse(t, "--json", "--no-json", "x"); o.Mode != ModeStandard {
		t.Errorf("--no-json: %v", o.Mode)
	}
	// --crlf and --null-data each set the line terminator: the later wins.
	if o := mustParse(t, "--null-data", "--crlf", "x"); o.NullData || !o.CRLF {
		t.Errorf("--crlf after --null-data: null data %v, crlf %v", o.NullData, o.CRLF)
	}
	if o := mustParse(t, "--crlf", "--null-data", "x"); !o.NullData || o.CRLF {
		t.Errorf("--null-data after --crlf: null data %v, crlf %v", o.NullData, o.CRLF)
	}
}

func TestParseErrorsInRgsWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-A", "x", "foo"}, "error parsing flag -A: value is not a valid number: invalid digit found in string"},
		{[]string{"--max-count=-1", "foo"}, "error parsing flag --max-count: value is not a valid number: invalid digit found in string"},
		{[]string{"-m", "99999999999999999999", "foo"}, "error parsing flag -m: value is not a valid number: number too large to fit in target type"},
		{[]string{"--bogus"}, "unrecognized flag --bogus"},
		{[]string{"-Z"}, "unrecognized flag -Z"},
		{[]string{"--color=sometimes", "x"}, "error parsing flag --color: choice 'sometimes' is unrecognized"},
		{[]string{"x", "-A"}, "missing value for flag -A: missing argument for option '-A'"},
		{[]string{"--hidden=yes", "x"}, `invalid CLI arguments: unexpected argument for option '--hidden': "yes"`},
		{[]string{}, "ripgrep requires at least one pattern to execute a search"},
		{[]string{"--max-filesize", "99999999999G", "x"}, "error parsing flag --max-filesize: invalid size: size too big in '99999999999G'"},
		{[]string{"--max-filesize", "1Q", "x"}, "error parsing flag --max-filesize: invalid size: invalid format for size '1Q', which should be a non-empty sequence of digits followed by an optional 'K', 'M' or 'G' suffix"},
	} {
		_, err := Parse(tc.args)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Parse(%q) = %v; want %q", tc.args, err, tc.want)
		}
	}
}

func TestUnescape(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{`a\tb`: "a\tb", `\x00`: "\x00", `\\`: `\`, `\q`: `\q`, `plain`: "plain", `\x4`: `\x4`} {
		if got := Unescape(in); got != want {
			t.Errorf("Unescape(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPaletteAppliesColorsInOrder(t *testing.T) {
	t.Parallel()
	o := mustParse(t, "--colors", "match:none", "--colors", "match:fg:blue", "--colors", "match:style:underline", "--colors", "path:fg:0x10,20,30", "x")
	p := o.Palette()
	if got := p.Match.Escape(); got != "\x1b[0m\x1b[4m\x1b[34m" {
		t.Errorf("match escape %q", got)
	}
	if got := p.Path.Escape(); got != "\x1b[0m\x1b[38;2;16;20;30m" {
		t.Errorf("path escape %q", got)
	}
	if _, err := Parse([]string{"--colors", "bogus:fg:red", "x"}); err == nil {
		t.Error("an unknown color target must be refused")
	}
}

func TestConfigArgs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := dir + "/rgrc"
	if err := writeFile(path, "# comment\n--smart-case\n\n  --hidden  \n"); err != nil {
		t.Fatal(err)
	}
	env := func(k string) string {
		if k == "RIPGREP_CONFIG_PATH" {
			return path
		}
		return ""
	}
	got, err := ConfigArgs(env, []string{"x"})
	if err != nil || !slices.Equal(got, []string{"--smart-case", "--hidden"}) {
		t.Errorf("ConfigArgs = %q, %v", got, err)
	}
	if got, _ := ConfigArgs(env, []string{"--no-config", "x"}); got != nil {
		t.Errorf("--no-config: %q", got)
	}
	if got, _ := ConfigArgs(func(string) string { return "" }, nil); got != nil {
		t.Errorf("unset: %q", got)
	}
}

func TestConfigArgsMissingFileIsAWarning(t *testing.T) {
	t.Parallel()
	path := t.TempDir() + "/no-such-rc"
	args, err := ConfigArgs(func(k string) string {
		if k == "RIPGREP_CONFIG_PATH" {
			return path
		}
		return ""
	}, []string{"x"})
	var cre *ConfigReadError
	if args != nil || !errors.As(err, &cre) {
		t.Fatalf("ConfigArgs = %q, %v; want no arguments and a *ConfigReadError", args, err)
	}
	want := "failed to read the file specified in RIPGREP_CONFIG_PATH: " + path + ": No such file or directory (os error 2)"
	if err.Error() != want {
		t.Errorf("message %q, want rg's %q", err.Error(), want)
	}
}

func TestNoIgnoreSetsFiveSwitchesLikeRg(t *testing.T) {
	t.Parallel()
	o := mustParse(t, "--no-ignore", "--ignore-vcs", "x")
	if !o.NoIgnoreDot || !o.NoIgnoreExclude || !o.NoIgnoreGlobal || !o.NoIgnoreParent || o.NoIgnoreVCS || o.NoIgnoreFiles {
		t.Errorf("--no-ignore --ignore-vcs: dot %v exclude %v global %v parent %v vcs %v files %v",
			o.NoIgnoreDot, o.NoIgnoreExclude, o.NoIgnoreGlobal, o.NoIgnoreParent, o.NoIgnoreVCS, o.NoIgnoreFiles)
	}
	o = mustParse(t, "-u", "--ignore", "x")
	if o.NoIgnore || o.NoIgnoreDot || o.NoIgnoreVCS {
		t.Errorf("-u --ignore: %+v", o)
	}
}

func TestTypeFlagsKeepTheirOrder(t *testing.T) {
	t.Parallel()
	o := mustParse(t, "-tgo", "--type-add", "web:*.html", "-Tweb", "--type-clear", "go", "x")
	want := []TypeOp{{TypeSelect, "go"}, {TypeAdd, "web:*.html"}, {TypeNegate, "web"}, {TypeClear, "go"}}
	if !slices.Equal(o.TypeOps, want) || !o.HasTypeDefs() {
		t.Errorf("TypeOps = %+v, want %+v", o.TypeOps, want)
	}
	if o := mustParse(t, "-tgo", "x"); o.HasTypeDefs() {
		t.Error("-t alone changes no definition")
	}
	if o := mustParse(t, "-U", "--stop-on-nonmatch", "x"); o.Multiline || !o.StopOnNonmatch {
		t.Error("--stop-on-nonmatch turns -U off, as in rg")
	}
}
