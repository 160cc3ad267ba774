package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"

	"github.com/rgkit/rgkit/internal/testtool"
)

// The WASI build (GOOS=wasip1 GOARCH=wasm go build ./cmd/rg) runs rg's
// command line inside a WebAssembly host on the directory the host
// pre-opens. These tests build the module once, run each command line in
// wazero (and a few in Node's node:wasi) with the fixture mounted at "/",
// and compare stdout, stderr and the exit status with rg 15.2.0 run
// natively in the same directory.

// builds are cmd/rg built once per GOOS for the whole test binary (the
// WebAssembly module and, to tell the port's differences from the
// library's, the native binary), in one temporary directory.
var builds struct {
	mu   sync.Mutex
	dir  string
	path map[string]string
	err  map[string]error
}

// buildRg builds cmd/rg for goos ("wasip1" is GOARCH=wasm; "" is this
// machine) once and returns its path. It is skipped with the reason
// (failed under RGKIT_REQUIRE_TOOLS=1) only when the go command is missing.
func buildRg(t *testing.T, goos string) string {
	t.Helper()
	gocmd := testtool.Need(t, "go")
	builds.mu.Lock()
	defer builds.mu.Unlock()
	if p, ok := builds.path[goos]; ok {
		return p
	}
	if err, ok := builds.err[goos]; ok {
		t.Fatal(err)
	}
	if builds.dir == "" {
		dir, err := os.MkdirTemp("", "rgkit-cmd-rg")
		if err != nil {
			t.Fatal(err)
		}
		builds.dir, builds.path, builds.err = dir, map[string]string{}, map[string]error{}
	}
	out := filepath.Join(builds.dir, "rg")
	env := append(os.Environ(), "CGO_ENABLED=0")
	if goos == "wasip1" {
		out += ".wasm"
		env = append(env, "GOOS=wasip1", "GOARCH=wasm")
	}
	cmd := exec.Command(gocmd, "build", "-trimpath", "-o", out, ".")
	cmd.Env = env
	if msg, err := cmd.CombinedOutput(); err != nil {
		builds.err[goos] = fmt.Errorf("GOOS=%s go build ./cmd/rg: %v\n%s", goos, err, msg)
		t.Fatal(builds.err[goos])
	}
	builds.path[goos] = out
	return out
}

// wazeroHost is one wazero runtime with the module compiled once (the
// compile is the slow part), shared by every subtest.
var wazeroHost struct {
	once     sync.Once
	runtime  wazero.Runtime
	compiled wazero.CompiledModule
	err      error
}

func compiledModule(t *testing.T) (wazero.Runtime, wazero.CompiledModule) {
	t.Helper()
	path := buildRg(t, "wasip1")
	wazeroHost.once.Do(func() {
		ctx := context.Background()
		bin, err := os.ReadFile(path)
		if err != nil {
			wazeroHost.err = err
			return
		}
		r := wazero.NewRuntime(ctx)
		wasi_snapshot_preview1.MustInstantiate(ctx, r)
		wazeroHost.runtime = r
		start := time.Now()
		wazeroHost.compiled, wazeroHost.err = r.CompileModule(ctx, bin)
		t.Logf("wazero compiled the %d-byte module in %v (once per test binary)", len(bin), time.Since(start).Round(time.Millisecond))
	})
	if wazeroHost.err != nil {
		t.Fatal(wazeroHost.err)
	}
	return wazeroHost.runtime, wazeroHost.compiled
}

func TestMain(m *testing.M) {
	code := m.Run()
	if wazeroHost.runtime != nil {
		wazeroHost.runtime.Close(context.Background())
	}
	if builds.dir != "" {
		os.RemoveAll(builds.dir)
	}
	os.Exit(code)
}

// stdinFile is c's stdin as the host sees it: a pipe holding text (what
// rg reads when no path is given), or nil for none (rg sees /dev/null
// natively and a character device in the module, and searches the
// working directory either way).
func stdinFile(t *testing.T, text string) *os.File {
	t.Helper()
	if text == "" {
		return nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() { w.WriteString(text); w.Close() }()
	t.Cleanup(func() { r.Close() })
	return r
}

// runWazero runs the module in wazero with dir mounted at "/".
func runWazero(t *testing.T, dir string, c wasiCase) (string, string, int) {
	t.Helper()
	r, compiled := compiledModule(t)
	var out, errOut bytes.Buffer
	cfg := wazero.NewModuleConfig().WithName("").
		WithArgs(append([]string{"rg"}, c.args...)...).
		WithFSConfig(wazero.NewFSConfig().WithDirMount(dir, "/")).
		WithStdout(&out).WithStderr(&errOut).
		WithSysWalltime().WithSysNanotime()
	if in := stdinFile(t, c.stdin); in != nil {
		cfg = cfg.WithStdin(in)
	}
	mod, err := r.InstantiateModule(context.Background(), compiled, cfg)
	code := 0
	var exit *sys.ExitError
	switch {
	case errors.As(err, &exit):
		code = int(exit.ExitCode())
	case err != nil:
		t.Fatalf("wazero: %v", err)
	default:
		mod.Close(context.Background())
	}
	return out.String(), errOut.String(), code
}

// runNative runs a program natively in dir with c's stdin.
func runNative(t *testing.T, dir string, argv []string, c wasiCase) (string, string, int) {
	t.Helper()
	cmd := exec.Command(argv[0], append(argv[1:], c.args...)...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/nonexistent", "HOME=" + dir}
	if in := stdinFile(t, c.stdin); in != nil {
		cmd.Stdin = in
	}
	return testtool.Run(t, cmd)
}

// wasiCase is one command line, with stdin text when set.
type wasiCase struct {
	args  []string
	stdin string
}

func (c wasiCase) name() string {
	n := strings.Join(c.args, " ")
	if c.stdin != "" {
		n = "stdin|" + n
	}
	return n
}

// wasiTree writes the fixture: a git repository (an empty .git is enough
// for rg) with .gitignore and .ignore rules, hidden files, nested
// directories, Unicode, a binary file and context lines.
func wasiTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	testtool.WriteTree(t, dir, map[string]string{
		".gitignore":      "*.log\nbuild/\n",
		".ignore":         "secret.txt\n",
		".rgignore":       "notes.md\n",
		"notes.md":        "foo notes\n",
		"src/.gitignore":  "gen/\n",
		"src/gen/x.go":    "package gen // foo\n",
		"a.txt":           "hello world\nfoo bar\nFoo baz\nfoobar\n",
		"ctx.txt":         "one\ntwo\nthree foo\nfour\nfive\nsix\nseven foo\neight\n",
		"src/main.go":     "package main\n\nfunc main() {\n\tprintln(\"foo\")\n}\n",
		"src/lib/util.py": "def foo():\n    return 'FOO'\n",
		"docs/readme.md":  "# Grüße\nnaïve café foo\n日本語 foo\n",
		"build/out.txt":   "foo in a build directory\n",
		"debug.log":       "foo logged\n",
		"secret.txt":      "foo secret\n",
		".hidden/h.txt":   "hidden foo\n",
		"bin.dat":         "foo\x00binary\n",
		"nonl.txt":        "foo without newline",
	})
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Links (followed only with -L) and a file larger than a read buffer
	// with its matches at both ends.
	if err := os.Symlink("a.txt", filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("src", filepath.Join(dir, "srclink")); err != nil {
		t.Fatal(err)
	}
	big := "foo first\n" + strings.Repeat("filler line without the word\n", 40000) + "foo last\n"
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	// Distinct modification times, newest last in name order, for --sort
	// modified.
	var names []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			names = append(names, p)
		}
		return err
	})
	slices.Sort(names)
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, p := range names {
		if err := os.Chtimes(p, base, base.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// wasiCases are representative command lines: output shapes and modes,
// case and word matching, context, globs, types, the ignore rules, stdin,
// named and missing paths, and errors in rg's words.
func wasiCases() []wasiCase {
	var cs []wasiCase
	for _, flags := range [][]string{
		{}, {"-n"}, {"-i"}, {"-w"}, {"-x", "-i"}, {"-c"}, {"--count-matches"}, {"-l"}, {"--files-without-match"},
		{"-o", "-b"}, {"--column", "-n"}, {"--vimgrep"}, {"--heading", "-n"}, {"-0", "-l"},
		{"--json"}, {"-A1"}, {"-B1"}, {"-C1", "-n"}, {"-m1"}, {"-r", "X"},
		{"-g", "*.go"}, {"-g", "!*.txt"}, {"-t", "py"}, {"-T", "txt"}, {"--hidden"}, {"--no-ignore"},
		{"-u"}, {"-uu"}, {"-S"}, {"--color", "always"}, {"-p"}, {"--trim", "-n"},
		{"-v", "-c"}, {"-q"}, {"--max-filesize", "12"}, {"--sortr", "path", "-l"}, {"-L", "-n"},
		{"--sortr", "modified", "-l"}, {"-j1", "-c"}, {"--stats", "-c"},
	} {
		args := append([]string{"--sort", "path"}, flags...)
		cs = append(cs, wasiCase{args: append(args, "foo")})
	}
	for _, args := range [][]string{
		{"--sort", "path", "--files"}, {"--sort", "path", "--files", "--hidden"}, {"--sort", "path", "--files", "-g", "*.md"},
		{"--sort", "path", "-n", "foo", "src"}, {"--sort", "path", "-n", "foo", "./docs", "a.txt"},
		{"-F", "-e", "foo bar", "-e", "Foo"}, {"--passthru", "-n", "foo", "ctx.txt"},
		{"-n", "foo", "build/out.txt"}, {"-n", "foo", "link.txt", "srclink"}, {"-c", "filler", "big.txt"}, {"foo", "bin.dat"}, {"-n", "foo", "nonl.txt"},
		{"-U", "-n", "foo\\nFoo", "a.txt"}, {"-i", "-o", "GRÜSSE|café", "docs/readme.md"},
		{"-n", "foo", "missing.txt", "a.txt"}, {"(", "a.txt"}, {"--bogus"}, {"-g", "[", "foo"},
		{"--sort", "path", "nomatch"}, {"--type-list"},
	} {
		cs = append(cs, wasiCase{args: args})
	}
	for _, args := range [][]string{{"a"}, {"-n", "a"}, {"-c", "a"}, {"--json", "b"}, {"-n", "foo", "-", "a.txt"}} {
		cs = append(cs, wasiCase{args: args, stdin: "a\nb\nab\nfoo\n"})
	}
	return cs
}

// canonical sorts the lines of output whose order rg leaves to its
// threads (no --sort), and masks the timings of --json and --stats.
func canonical(s string, c wasiCase) string {
	for _, a := range c.args {
		if strings.HasPrefix(a, "--sort") {
			return maskElapsed(s)
		}
	}
	lines := strings.SplitAfter(maskElapsed(s), "\n")
	slices.Sort(lines)
	return strings.Join(lines, "")
}

// statsSeconds are --stats' timing lines.
var statsSeconds = regexp.MustCompile(`(?m)^[0-9.]+ seconds( spent searching| total)?$`)

func maskElapsed(s string) string {
	s = statsSeconds.ReplaceAllString(s, "T seconds$1")
	for _, key := range []string{`"elapsed":{`, `"elapsed_total":{`} {
		for i := 0; ; {
			j := strings.Index(s[i:], key)
			if j < 0 {
				break
			}
			start := i + j + len(key)
			end := strings.IndexByte(s[start:], '}')
			if end < 0 {
				break
			}
			s = s[:start] + "T" + s[start+end:]
			i = start
		}
	}
	return s
}

// TestWASIModuleMatchesRg15 runs every case in wazero and natively with
// rg 15.2.0. Where the answers differ, the module must answer exactly as
// cmd/rg built for this machine does: the difference is then the
// library's (the CLI differential in cmd/rgkit lists those), not the
// port's. The log counts the cases identical to rg 15.2.0.
func TestWASIModuleMatchesRg15(t *testing.T) {
	t.Parallel()
	rg := testtool.ReferenceRg(t)
	compiledModule(t)
	native := buildRg(t, "")
	dir := wasiTree(t)
	var mu sync.Mutex
	var same, library []string
	cases := wasiCases()
	t.Cleanup(func() {
		t.Logf("%d of %d command lines identical to rg 15.2.0; %d differ as native cmd/rg does: %q", len(same), len(cases), len(library), library)
	})
	for _, c := range cases {
		t.Run(c.name(), func(t *testing.T) {
			t.Parallel()
			wantOut, wantErr, wantCode := runNative(t, dir, []string{rg}, c)
			gotOut, gotErr, gotCode := runWazero(t, dir, c)
			if canonical(gotOut, c) == canonical(wantOut, c) && gotErr == wantErr && gotCode == wantCode {
				mu.Lock()
				same = append(same, c.name())
				mu.Unlock()
				return
			}
			libOut, libErr, libCode := runNative(t, dir, []string{native}, c)
			if canonical(gotOut, c) == canonical(libOut, c) && gotErr == libErr && gotCode == libCode {
				mu.Lock()
				library = append(library, c.name())
				mu.Unlock()
				return
			}
			t.Errorf("wasm: exit %d\n%s%s\nnative cmd/rg: exit %d\n%s%s\nrg 15.2.0: exit %d\n%s%s", gotCode, gotOut, gotErr, libCode, libOut, libErr, wantCode, wantOut, wantErr)
		})
	}
}

// TestWASIModuleUnderNode runs a sample of the cases (every fifth, and
// those reading stdin) with cmd/rg/wasi/run.mjs in Node's node:wasi, which
// pre-opens the working directory at its own path, and compares them as
// TestWASIModuleMatchesRg15 does.
func TestWASIModuleUnderNode(t *testing.T) {
	t.Parallel()
	node := testtool.Need(t, "node")
	rg := testtool.ReferenceRg(t)
	module := buildRg(t, "wasip1")
	native := buildRg(t, "")
	script, err := filepath.Abs(filepath.Join("wasi", "run.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	dir := wasiTree(t)
	for i, c := range wasiCases() {
		if i%5 != 0 && c.stdin == "" {
			continue
		}
		t.Run(c.name(), func(t *testing.T) {
			t.Parallel()
			gotOut, gotErr, gotCode := runNative(t, dir, []string{node, script, module}, c)
			wantOut, wantErr, wantCode := runNative(t, dir, []string{rg}, c)
			if canonical(gotOut, c) == canonical(wantOut, c) && gotErr == wantErr && gotCode == wantCode {
				return
			}
			libOut, libErr, libCode := runNative(t, dir, []string{native}, c)
			if canonical(gotOut, c) != canonical(libOut, c) || gotErr != libErr || gotCode != libCode {
				t.Errorf("node: exit %d\n%s%s\nnative cmd/rg: exit %d\n%s%s\nrg 15.2.0: exit %d\n%s%s", gotCode, gotOut, gotErr, libCode, libOut, libErr, wantCode, wantOut, wantErr)
			}
		})
	}
}

// TestWASIRefusesARelativeWorkingDirectory: a tree that Node pre-opens
// as "." leaves Go's WASI port a working directory of "." against which
// most paths resolve to nothing, so rg says how to mount it instead of
// searching with its ignore files unread. (wazero maps a "." mount to "/".)
func TestWASIRefusesARelativeWorkingDirectory(t *testing.T) {
	t.Parallel()
	node := testtool.Need(t, "node")
	module := buildRg(t, "wasip1")
	const host = `
process.emitWarning = () => {};
const { WASI } = await import('node:wasi');
const { readFile } = await import('node:fs/promises');
const wasi = new WASI({ version: 'preview1', args: ['rg', 'foo'], env: {}, preopens: { '.': process.cwd() }, returnOnExit: true });
const m = await WebAssembly.compile(await readFile(process.argv[1]));
process.exitCode = wasi.start(await WebAssembly.instantiate(m, wasi.getImportObject()));
`
	out, errOut, code := runNative(t, wasiTree(t), []string{node, "--input-type=module", "-e", host, module}, wasiCase{})
	if code != 2 || out != "" || !strings.Contains(errOut, `pre-open the directory to search at an absolute guest path such as "/"`) {
		t.Errorf("exit %d, stdout %q, stderr %q: want exit 2 and how to mount the tree", code, out, errOut)
	}
}
