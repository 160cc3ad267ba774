package main

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rgkit/rgkit/internal/testtool"
)

// The hostile-input suite: files and patterns built to hurt (unreadable
// files, loops, a line of half a million matches, an all-NUL file of
// hundreds of megabytes, a 1 MB pattern, 100,000 literals), each run
// through rg 15.2.0 and through `rgkit grep --backend native` as real
// processes, compared on stdout, stderr and the exit status, with the
// peak memory of rgkit's process held near rg's where a file or pattern
// is large. Nothing is committed: every input is generated here.

// hostileRun is one process's answer.
type hostileRun struct {
	out, err []byte
	code     int
	peakRSS  int64 // bytes
}

// nobody is the unprivileged user the permission cases run as when the
// tests run as root (a root process reads a file of mode 000).
const nobody = 65534

// hostileBins copies rgkit and rg 15.2.0 into a directory every user can
// read and run (the build's and the reference's directories are private
// to root), and returns their paths.
func hostileBins(t *testing.T) (rgkit, rg string) {
	t.Helper()
	rgRef := testtool.ReferenceRg(t)
	dir := openDir(t)
	rgkit, rg = filepath.Join(dir, "rgkit"), filepath.Join(dir, "rg")
	if err := copyExecutable(rgkitBin(t), rgkit); err != nil {
		t.Fatal(err)
	}
	if err := copyExecutable(rgRef, rg); err != nil {
		t.Fatal(err)
	}
	return rgkit, rg
}

// openDir is a temporary directory that every user can enter and read.
func openDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runHostile runs exe with args in dir and returns its answer; asNobody
// drops to the unprivileged user first when the test runs as root.
func runHostile(t *testing.T, dir string, asNobody bool, exe string, args ...string) hostileRun {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "LC_ALL=C"}
	if asNobody && os.Geteuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("%s %q: %v", exe, args, err)
	}
	r := hostileRun{out: out.Bytes(), err: errOut.Bytes(), code: cmd.ProcessState.ExitCode()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.peakRSS = ru.Maxrss << 10
	}
	return r
}

// sortedLines is text's lines in order: both programs search files in
// parallel, so their order of files (and of messages) is not fixed.
func sortedLines(b []byte) []string {
	lines := strings.Split(string(b), "\n")
	slices.Sort(lines)
	return lines
}

// sameAnswer fails t unless rgkit's answer is rg's, up to the order of
// lines.
func sameAnswer(t *testing.T, args []string, rg, got hostileRun) {
	t.Helper()
	if got.code != rg.code {
		t.Errorf("rgkit grep %q: exit %d, rg 15.2.0: %d\nrgkit stderr:\n%s\nrg stderr:\n%s", args, got.code, rg.code, got.err, rg.err)
	}
	if !slices.Equal(sortedLines(got.out), sortedLines(rg.out)) {
		t.Errorf("rgkit grep %q: stdout\n%s\nrg 15.2.0:\n%s", args, clip(got.out), clip(rg.out))
	}
	if !slices.Equal(sortedLines(got.err), sortedLines(rg.err)) {
		t.Errorf("rgkit grep %q: stderr\n%s\nrg 15.2.0:\n%s", args, clip(got.err), clip(rg.err))
	}
}

// besideRg runs each command line through rg and through rgkit grep
// --backend native in dir, as a subtest, and hands both answers to check.
func besideRg(t *testing.T, dir string, asNobody bool, rg, rgkit string, cases [][]string, check func(t *testing.T, args []string, rg, got hostileRun)) {
	t.Helper()
	for _, args := range cases {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			want := runHostile(t, dir, asNobody, rg, args...)
			got := runHostile(t, dir, asNobody, rgkit, append([]string{"grep", "--backend", "native"}, args...)...)
			check(t, args, want, got)
		})
	}
}

// sameAnswerNear is sameAnswer with peak memory within factor times rg's
// (plus 64 MiB).
func sameAnswerNear(factor int64) func(t *testing.T, args []string, rg, got hostileRun) {
	return func(t *testing.T, args []string, rg, got hostileRun) {
		t.Helper()
		sameAnswer(t, args, rg, got)
		memoryNear(t, strings.Join(args, " "), factor, rg, got)
	}
}

func clip(b []byte) string {
	if len(b) > 2000 {
		return string(b[:2000]) + fmt.Sprintf("... (%d bytes)", len(b))
	}
	return string(b)
}

func writeFile(t *testing.T, path string, data []byte, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// TestHostileUnreadableFilesAreReportedAsRgReportsThem: a file or a
// directory the user may not read is never a silent miss. rg names each
// on stderr ("rg: b.txt: Permission denied (os error 13)", worded
// "IO error for operation on" when it walks with one thread) and exits 2;
// so does rgkit, run as the same unprivileged user.
func TestHostileUnreadableFilesAreReportedAsRgReportsThem(t *testing.T) {
	t.Parallel()
	rgkit, rg := hostileBins(t)
	dir := openDir(t)
	writeFile(t, filepath.Join(dir, "a.txt"), []byte("foo\n"), 0o644)
	writeFile(t, filepath.Join(dir, "b.txt"), []byte("foo\n"), 0o000)
	writeFile(t, filepath.Join(dir, "sub", "d.txt"), []byte("foo\n"), 0o644)
	writeFile(t, filepath.Join(dir, "closed", "c.txt"), []byte("foo\n"), 0o644)
	writeFile(t, filepath.Join(dir, "pass", "e.txt"), []byte("foo\n"), 0o644)
	if err := os.Chmod(filepath.Join(dir, "closed"), 0o000); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "pass"), 0o711); err != nil { // entered, not listed
		t.Fatal(err)
	}
	t.Cleanup(func() {
		os.Chmod(filepath.Join(dir, "closed"), 0o755)
		os.Chmod(filepath.Join(dir, "pass"), 0o755)
	})
	probe := runHostile(t, dir, true, "/bin/cat", "b.txt")
	if probe.code == 0 {
		t.Skip("a file of mode 000 is readable here (root without the means to drop privileges)")
	}
	cases := [][]string{
		{"foo"},
		{"foo", "."},
		{"foo", "b.txt"},
		{"foo", "./b.txt"},
		{"foo", "closed"},
		{"foo", "pass"},
		{"foo", "pass/e.txt"},
		{"foo", "a.txt", "b.txt"},
		{"-l", "foo"},
		{"-c", "foo"},
		{"--json", "foo", "b.txt"},
		{"--files"},
		{"-v", "zzz"},
		{"--files-without-match", "zzz"},
		{"--sort", "path", "foo"},
		{"-j1", "foo"},
		{"--no-messages", "foo"},
		{"-L", "foo"},
	}
	besideRg(t, dir, true, rg, rgkit, cases, func(t *testing.T, args []string, want, got hostileRun) {
		if slices.Contains(args, "--json") {
			want.out, got.out = dropElapsed(want.out), dropElapsed(got.out)
		}
		sameAnswer(t, args, want, got)
	})
}

// dropElapsed removes --json's summary, whose timings differ run to run.
func dropElapsed(b []byte) []byte {
	var keep [][]byte
	for _, l := range bytes.Split(b, []byte("\n")) {
		if !bytes.Contains(l, []byte(`"type":"summary"`)) && !bytes.Contains(l, []byte(`"type":"end"`)) {
			keep = append(keep, l)
		}
	}
	return bytes.Join(keep, []byte("\n"))
}

// TestHostileLoopsAreReportedAsRgReportsThem: with -L, a link back to an
// ancestor directory is not entered, and rg says so ("File system loop
// found: ./a/b/up points to an ancestor ./a") and exits 2.
func TestHostileLoopsAreReportedAsRgReportsThem(t *testing.T) {
	t.Parallel()
	rg := testtool.ReferenceRg(t)
	rgkit := rgkitBin(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a", "b", "f.txt"), []byte("foo\n"), 0o644)
	for link, to := range map[string]string{"a/b/up": "..", "a/b/up2": "../../a"} {
		if err := os.Symlink(to, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	cases := [][]string{
		{"-L", "foo"},
		{"-L", "foo", "."},
		{"-L", "foo", "a"},
		{"-L", "--sort", "path", "foo"},
		{"-L", "--files"},
	}
	besideRg(t, dir, false, rg, rgkit, cases, sameAnswer)
}

// TestHostileOnlyMatchingPrintsEveryMatch: -o on one 1 MB line of
// "a a a ..." prints its 500,000 matches, as rg does; the library stores
// 16,384 spans of a line, and that cap must not reach the command line.
func TestHostileOnlyMatchingPrintsEveryMatch(t *testing.T) {
	t.Parallel()
	rg := testtool.ReferenceRg(t)
	rgkit := rgkitBin(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "line.txt"), []byte(strings.Repeat("a ", 500_000)+"\n"), 0o644)
	cases := [][]string{
		{"-o", "a", "line.txt"},
		{"-o", "-n", "--column", "a", "line.txt"},
		{"-o", "-r", "b", "a", "line.txt"},
		{"--count-matches", "a", "line.txt"},
		{"--color", "always", "a", "line.txt"},
		{"-o", `\ba\b`, "line.txt"},
	}
	besideRg(t, dir, false, rg, rgkit, cases, func(t *testing.T, args []string, want, got hostileRun) {
		if got.code != want.code || !bytes.Equal(got.err, want.err) {
			t.Fatalf("exit %d, stderr %q; rg 15.2.0: exit %d, stderr %q", got.code, got.err, want.code, want.err)
		}
		if sha256.Sum256(got.out) != sha256.Sum256(want.out) {
			t.Errorf("stdout differs from rg 15.2.0's: %d bytes in %d lines, rg %d bytes in %d lines",
				len(got.out), bytes.Count(got.out, []byte("\n")), len(want.out), bytes.Count(want.out, []byte("\n")))
		}
	})
}

// sparseFile makes a file of size bytes of NULs that takes no disk.
func sparseFile(t *testing.T, path string, size int64) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// memoryNear fails t when rgkit's peak memory is more than factor times
// rg's plus 64 MiB: the same order as rg, whatever the input.
func memoryNear(t *testing.T, what string, factor int64, rg, got hostileRun) {
	t.Helper()
	limit := factor*rg.peakRSS + 64<<20
	t.Logf("%s: peak memory rgkit %d MiB, rg 15.2.0 %d MiB", what, got.peakRSS>>20, rg.peakRSS>>20)
	if got.peakRSS > limit {
		t.Errorf("%s: peak memory %d MiB, want at most %d MiB (rg 15.2.0: %d MiB)", what, got.peakRSS>>20, limit>>20, rg.peakRSS>>20)
	}
}

// TestHostileAllNULFileIsSearchedAsRgSearchesIt: a 200 MB file of NULs,
// named and walked, searched as rg searches it (a named binary file is
// searched whole, a walked one stopped at its first NUL), in memory near
// rg's (rg maps a named file: its peak is the file's size).
func TestHostileAllNULFileIsSearchedAsRgSearchesIt(t *testing.T) {
	t.Parallel()
	rg := testtool.ReferenceRg(t)
	rgkit := rgkitBin(t)
	dir := t.TempDir()
	sparseFile(t, filepath.Join(dir, "tree", "sparse.bin"), 200<<20)
	writeFile(t, filepath.Join(dir, "tree", "a.txt"), []byte("foo\n"), 0o644)
	cases := [][]string{
		{"foo", "tree/sparse.bin"},
		{"-c", "foo", "tree/sparse.bin"},
		{"-i", "f.o", "tree/sparse.bin"},
		{"-U", "foo", "tree/sparse.bin"},
		{"foo", "tree"},
		{"foo", "tree/sparse.bin", "tree/a.txt"},
	}
	besideRg(t, dir, false, rg, rgkit, cases, sameAnswerNear(2))
}

// TestHostilePatternsOfAnySizeCompile: a 1 MB literal and 100,000
// literals, with -F and without, are answered as rg answers them, in
// memory of the same order as rg's (the 1 MB literal took 650 s and
// 750 MB to parse). 100,000 literals cost rgkit about four times rg's
// 72 MiB (the pattern is parsed, checked and compiled into three
// engines), hence the factor of 5.
func TestHostilePatternsOfAnySizeCompile(t *testing.T) {
	t.Parallel()
	rg := testtool.ReferenceRg(t)
	rgkit := rgkitBin(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "long.pat"), []byte(strings.Repeat("x", 1<<20)+"\n"), 0o644)
	var lits bytes.Buffer
	for i := range 100_000 {
		fmt.Fprintf(&lits, "lit%07dz\n", i*7919%10_000_000)
	}
	writeFile(t, filepath.Join(dir, "many.pat"), lits.Bytes(), 0o644)
	writeFile(t, filepath.Join(dir, "hay.txt"), []byte("nothing here\nlit0007919z is one\n"+strings.Repeat("x", 1000)+"\n"), 0o644)
	cases := [][]string{
		{"-f", "long.pat", "hay.txt"},
		{"-F", "-f", "long.pat", "hay.txt"},
		{"-F", "-f", "many.pat", "hay.txt"},
		{"-f", "many.pat", "hay.txt"},
	}
	besideRg(t, dir, false, rg, rgkit, cases, sameAnswerNear(5))
}

// TestHostileSignalEndsTheSearch: SIGTERM or SIGINT sent to a running
// `rgkit grep` ends the process promptly, also in the middle of a scan of
// one huge line and of a pattern's compilation. The bound is a liveness
// check (generous, 3 s), not a measure of speed.
func TestHostileSignalEndsTheSearch(t *testing.T) {
	t.Parallel()
	rgkit := rgkitBin(t)
	dir := t.TempDir()
	sparseFile(t, filepath.Join(dir, "huge.bin"), 4<<30)
	writeFile(t, filepath.Join(dir, "long.pat"), []byte(strings.Repeat("y", 4<<20)+"\n"), 0o644)
	writeFile(t, filepath.Join(dir, "hay.txt"), []byte("hay\n"), 0o644)
	cases := []struct {
		name string
		sig  syscall.Signal
		args []string
	}{
		{"SIGTERM in a named all-NUL file, literal", syscall.SIGTERM, []string{"foo", "huge.bin"}},
		{"SIGTERM in a named all-NUL file, no literal", syscall.SIGTERM, []string{"[a-z]+[0-9]", "huge.bin"}},
		{"SIGINT in a multiline search", syscall.SIGINT, []string{"-U", "[a-z]+[0-9]", "huge.bin"}},
		{"SIGTERM compiling a 4 MB pattern", syscall.SIGTERM, []string{"-f", "long.pat", "hay.txt", "huge.bin"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(rgkit, append([]string{"grep", "--backend", "native"}, c.args...)...)
			cmd.Dir = dir
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			time.Sleep(300 * time.Millisecond) // let it get into the search
			if err := cmd.Process.Signal(c.sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
				t.Fatal(err)
			}
			select {
			case <-done:
			case <-time.After(3 * time.Second):
				cmd.Process.Kill()
				<-done
				t.Fatalf("rgkit grep %q was still running 3 s after %v", c.args, c.sig)
			}
		})
	}
}

// TestHostileBinaryFilesAreReportedAsRgReportsThem: a file found by
// walking whose NUL byte comes after a match (in a later read of rg's
// buffer) has its match printed, then rg's warning that it stopped there
// ("WARNING: stopped searching binary file after match (found "\0" byte
// around offset N)"), and --json's end record names the offset; a file
// named on the command line is searched whole and summed up in one note.
func TestHostileBinaryFilesAreReportedAsRgReportsThem(t *testing.T) {
	t.Parallel()
	rg := testtool.ReferenceRg(t)
	rgkit := rgkitBin(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "w", "late.bin"), []byte("foo\n"+strings.Repeat("x\n", 40_000)+"\x00foo\n"), 0o644)
	writeFile(t, filepath.Join(dir, "w", "early.bin"), []byte("foo\x00bar\nfoo2\n"), 0o644)
	writeFile(t, filepath.Join(dir, "w", "text.txt"), []byte("foo\n"), 0o644)
	// Named: a NUL past the first 64 KiB on a line never printed, and on
	// a matching line; within the first 64 KiB.
	writeFile(t, filepath.Join(dir, "n", "skipped.bin"), []byte("foo1\n"+strings.Repeat("x\n", 40_000)+"zz\x00zz\nfoo2\n"), 0o644)
	writeFile(t, filepath.Join(dir, "n", "hit.bin"), []byte("foo1\n"+strings.Repeat("x\n", 40_000)+"foo\x00zz\nfoo2\n"), 0o644)
	writeFile(t, filepath.Join(dir, "n", "early.bin"), []byte("foo1\n"+strings.Repeat("x\n", 20_000)+"zz\x00zz\nfoo2\n"), 0o644)
	many := []string{"--sort", "path", "-n", "foo", "n/skipped.bin", "n/hit.bin", "n/early.bin"}
	for i := range 9 {
		name := fmt.Sprintf("n/p%d.txt", i)
		writeFile(t, filepath.Join(dir, filepath.FromSlash(name)), []byte("x\n"), 0o644)
		many = append(many, name)
	}
	cases := [][]string{
		{"-n", "foo", "n/skipped.bin"},
		{"-n", "foo", "n/hit.bin"},
		{"-n", "foo", "n/early.bin"},
		{"--sort", "path", "-n", "foo", "n/skipped.bin", "n/hit.bin", "w"},
		many,
		{"--sort", "path", "foo", "w"},
		{"--sort", "path", "--heading", "foo", "w"},
		{"--sort", "path", "--color", "always", "foo", "w"},
		{"--sort", "path", "-c", "foo", "w"},
		{"--sort", "path", "--count-matches", "foo", "w"},
		{"--sort", "path", "--json", "foo", "w"},
		{"--json", "foo", "w/early.bin"},
		{"foo", "w/early.bin"},
		{"-n", "foo", "w/late.bin"},
	}
	stats := regexp.MustCompile(`"stats":\{.*?\}\}`)
	besideRg(t, dir, false, rg, rgkit, cases, func(t *testing.T, args []string, want, got hostileRun) {
		if slices.Contains(args, "--json") {
			// Timings differ run to run; rg counts the bytes it read
			// before it stopped, which rgkit does not replay.
			want.out, got.out = stats.ReplaceAll(want.out, nil), stats.ReplaceAll(got.out, nil)
			want.out, got.out = dropSummary(want.out), dropSummary(got.out)
		}
		sameAnswer(t, args, want, got)
	})
}

// dropSummary removes --json's closing summary (timings, byte counts).
func dropSummary(b []byte) []byte {
	if i := bytes.LastIndex(b, []byte(`{"data":{"elapsed_total"`)); i >= 0 {
		return b[:i]
	}
	return b
}

// TestHostileDeepTreeIsReported: a tree deeper than a path can name
// (3,000 levels: 6 KB of "d/") ends in an error rg reports ("File name too
// long", in its C library's words) and exit 2, not a silent miss. rg
// names the directory by its relative path and rgkit opens it by its
// absolute one, so the depth where it fails differs by a few levels: the
// exit status, stdout and the message's wording are compared.
func TestHostileDeepTreeIsReported(t *testing.T) {
	t.Parallel()
	rg := testtool.ReferenceRg(t)
	rgkit := rgkitBin(t)
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	for range 3000 {
		if err := root.Mkdir("d", 0o755); err != nil {
			t.Fatal(err)
		}
		next, err := root.OpenRoot("d")
		root.Close()
		if err != nil {
			t.Fatal(err)
		}
		root = next
	}
	if err := root.WriteFile("f.txt", []byte("foo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root.Close()
	want := runHostile(t, dir, false, rg, "foo")
	got := runHostile(t, dir, false, rgkit, "grep", "--backend", "native", "foo")
	if got.code != want.code || !bytes.Equal(got.out, want.out) {
		t.Errorf("exit %d, stdout %q; rg 15.2.0: exit %d, stdout %q", got.code, got.out, want.code, want.out)
	}
	const reason = ": Filename too long (os error 36)\n"
	for who, r := range map[string]hostileRun{"rg 15.2.0": want, "rgkit": got} {
		if !bytes.HasPrefix(r.err, []byte("rg: ./d/d/d/")) || !bytes.Contains(r.err, []byte(reason)) {
			t.Errorf("%s's stderr does not name the directory too deep to open:\n%s", who, clip(r.err))
		}
	}
}
