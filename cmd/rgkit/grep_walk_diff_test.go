//go:build unix

package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rgkit/rgkit/internal/testtool"
)

// The file-selection differential test: rg 15.2.0's flags that decide
// which files are searched (types, case-insensitive globs, each ignore
// switch, --ignore-file, depth, file systems, creation time, .git with
// --hidden), run through rg and through `rgkit grep --backend native` on
// a tree with a git repository, a directory outside any repository, a
// global excludes file and ignore files above the searched paths. Each
// must print rg's bytes, messages and exit status.

// walkTree writes the fixture and returns the working directory for the
// runs and a HOME holding the global git excludes file.
func walkTree(t *testing.T) (dir, home string) {
	t.Helper()
	dir, home = t.TempDir(), t.TempDir()
	files := map[string]string{
		// A repository: its own ignore files, info/exclude, files in .git.
		"repo/.git/HEAD":                "ref: refs/heads/main\n",
		"repo/.git/info/exclude":        "excluded.txt\n",
		"repo/.git/objects/packed.txt":  "foo inside .git\n",
		"repo/.gitignore":               "gitignored.txt\n*.log\nUPPER.txt\n",
		"repo/.ignore":                  "dotignored.txt\n",
		"repo/.rgignore":                "rgignored.txt\n",
		"repo/a.go":                     "foo go\n",
		"repo/b.html":                   "foo html\n",
		"repo/c.css":                    "foo css\n",
		"repo/d.GO":                     "foo upper go\n",
		"repo/README.md":                "foo readme\n",
		"repo/gitignored.txt":           "foo gitignored\n",
		"repo/x.log":                    "foo log\n",
		"repo/dotignored.txt":           "foo dotignored\n",
		"repo/rgignored.txt":            "foo rgignored\n",
		"repo/excluded.txt":             "foo excluded\n",
		"repo/globalignored.txt":        "foo globalignored\n",
		"repo/upper.txt":                "foo upper\n",
		"repo/.hidden.txt":              "foo hidden\n",
		"repo/sub/e.go":                 "foo e\n",
		"repo/sub/gitignored.txt":       "foo sub gitignored\n",
		"repo/sub/dotignored.txt":       "foo sub dotignored\n",
		"repo/sub/.gitignore":           "local.txt\n",
		"repo/sub/local.txt":            "foo local\n",
		"repo/sub/x.log":                "foo sub log\n",
		"repo/sub/deep/f.go":            "foo f\n",
		"repo/sub/deep/F.Html":          "foo F\n",
		"repo/sub/deep/deeper/g.go":     "foo g\n",
		"repo/sub/deep/deeper/last.txt": "foo last\n",
		"repo/bin.dat":                  "foo before\x00after foo\n",
		"repo/nomatch.txt":              "nothing here\n",
		// Lines that match, then not, then again, and a last line
		// without its '\n': what -v -c counts and where
		// --stop-on-nonmatch stops.
		"repo/runs.txt": "foo 1\nbar 2\nfoo foo 3\nfoo 4\nbaz 5\n\nfoo 7\nno newline foo",
		// -v --stop-on-nonmatch steps over the line after its first run
		// of selected lines, as rg does, and goes on past it.
		"stop/a.txt":           "x\nbar\nfoo\nbaz\nfoo\nqux\n",
		"stop/b.txt":           "bar\nfoo\nbaz\nqq\nfoo\nqux\nfoo\n",
		"repo/notail.txt":      "a\nb",
		"repo/x.rs/inside.txt": "foo in a directory named like a type\n",
		// Outside any repository: git's ignore files apply only with
		// --no-require-git; .ignore always.
		"plain/.gitignore":        "plaingit.txt\n",
		"plain/.ignore":           "plaindot.txt\n",
		"plain/plaingit.txt":      "foo plain git\n",
		"plain/plaindot.txt":      "foo plain dot\n",
		"plain/kept.txt":          "foo plain kept\n",
		"plain/globalignored.txt": "foo plain global\n",
		// --ignore-file files (not searched themselves: no foo).
		"extra.ignore":  "a.go\nc.css\n!gitignored.txt\n",
		"extra2.ignore": "!c.css\nREADME.md\n",
		"upper.ignore":  "A.GO\n",
		// Anchored rules, matched against the path as rg's walk names it
		// (from the working directory, through the path argument).
		"anchored.ignore":       "repo/sub/e.go\n/repo/c.css\n",
		"repo/rootanchored.txt": "foo anchored in the global file\n",
	}
	testtool.WriteTree(t, dir, files)
	global := filepath.Join(home, ".config", "git", "ignore")
	if err := os.MkdirAll(filepath.Dir(global), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(global, []byte("globalignored.txt\n/repo/rootanchored.txt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Files created one after another, for --sort created (birth times a
	// few milliseconds apart, so no two are equal).
	for _, name := range []string{"created/m.txt", "created/b.txt", "created/z.txt", "created/a.txt"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("foo "+name+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return dir, home
}

// walkCases are the invocations, each run in the tree's directory.
func walkCases() []diffCase {
	var cs []diffCase
	add := func(args ...string) { cs = append(cs, diffCase{args: args}) }
	for _, flags := range [][]string{
		// --type-add / --type-clear, in order with -t and -T.
		{"--type-add", "web:*.{html,css}", "-tweb"},
		{"--type-add", "web:*.html", "--type-add", "web:*.css", "-tweb"},
		{"-tweb", "--type-add", "web:*.html"},
		{"--type-add", "foo:include:go,html", "-tfoo"},
		{"--type-add", "foo:include:go,nope", "-tfoo"},
		{"--type-add", "foo", "-tfoo"},
		{"--type-add", "all:*.x"},
		{"--type-add", "a-b:*.x"},
		{"--type-add", "foo:*.["},
		{"--type-add", "foo:*.[", "-tfoo"},
		{"--type-clear", "go", "-tgo"},
		{"--type-clear", "go", "--type-add", "go:*.html", "-tgo"},
		{"--type-add", "go:*.css", "-tgo"},
		{"--type-add", "foo:*.go", "-Tfoo"},
		{"-tgo", "-Tgo"},
		{"-Tgo", "-tgo"},
		{"-tgo", "-tmd", "-Tgo"},
		{"-Trust"},
		{"-tall"},
		{"-Tall"},
		{"-tall", "--type-add", "zz:*.log", "--no-ignore"},
		// --iglob and --glob-case-insensitive.
		{"--iglob", "*.GO"},
		{"--iglob", "!*.GO"},
		{"--iglob", "*.go", "-g", "!a.go"},
		{"-g", "!a.go", "--iglob", "*.GO"},
		{"--iglob", "!A.GO", "-g", "*.go"},
		{"-g", "*.HTML"},
		{"--glob-case-insensitive", "-g", "*.HTML"},
		{"--glob-case-insensitive", "--no-glob-case-insensitive", "-g", "*.HTML"},
		{"--iglob", "[A-C].*"},
		{"--iglob", "[!a-c].*"},
		{"--iglob", "**/DEEP/**"},
		{"--iglob", "*.{GO,CSS}"},
		// Each ignore switch and its negation.
		{"--no-ignore-vcs"},
		{"--no-ignore-vcs", "--ignore-vcs"},
		{"--no-ignore-dot"},
		{"--no-ignore-dot", "--ignore-dot"},
		{"--no-ignore-exclude"},
		{"--no-ignore-global"},
		{"--no-ignore-global", "--ignore-global"},
		{"--no-ignore", "--ignore-vcs"},
		{"--no-ignore", "--ignore-dot"},
		{"-u", "--ignore-exclude"},
		{"--no-ignore", "--ignore"},
		{"--no-require-git"},
		{"--no-require-git", "--require-git"},
		{"--no-require-git", "--no-ignore-vcs"},
		{"--no-ignore-vcs", "--no-ignore-dot"},
		{"--ignore-file-case-insensitive"},
		{"--ignore-file-case-insensitive", "--ignore-file", "upper.ignore"},
		{"--ignore-file-case-insensitive", "--no-ignore-file-case-insensitive"},
		// --ignore-file: lowest precedence, the later file first.
		{"--ignore-file", "extra.ignore"},
		{"--ignore-file", "extra.ignore", "--ignore-file", "extra2.ignore"},
		{"--ignore-file", "extra2.ignore", "--ignore-file", "extra.ignore"},
		{"--no-ignore", "--ignore-file", "extra.ignore"},
		{"--no-ignore-files", "--ignore-file", "extra.ignore"},
		{"--no-ignore-files", "--ignore-files", "--ignore-file", "extra.ignore"},
		{"--ignore-file", "missing.ignore"},
		{"--no-messages", "--ignore-file", "missing.ignore"},
		{"--no-ignore-messages", "--ignore-file", "missing.ignore"},
		{"--ignore-file", "repo"},
		// -d / --max-depth, alone and with globs and types.
		{"-d", "0"}, {"-d", "1"}, {"-d", "2"}, {"-d", "3"}, {"--max-depth", "1", "-g", "*.go"},
		{"-d", "2", "--iglob", "*.GO"}, {"-d", "3", "-tgo"}, {"--maxdepth", "2", "--hidden"},
		// .git is a hidden directory like any other.
		{"--hidden"}, {"--hidden", "-g", "!.git"}, {"-uu"}, {"-u"}, {"-g", ".git"}, {"--hidden", "--no-ignore-vcs"},
	} {
		add(append(append([]string{}, flags...), "foo")...)
		add(append(append([]string{}, flags...), "foo", "repo")...)
	}
	// Ignore files of the directories above a searched path.
	for _, flags := range [][]string{{}, {"--no-ignore-parent"}, {"--no-ignore-parent", "--ignore-parent"}, {"--no-ignore-vcs"}, {"--no-ignore-parent", "--no-ignore-dot"}, {"-d", "1"}, {"--no-require-git", "--no-ignore-parent"}} {
		add(append(append([]string{}, flags...), "foo", "repo/sub")...)
		add(append(append([]string{}, flags...), "foo", "repo/sub/deep")...)
	}
	// Globs and --ignore-file rules see the path as rg's walk names it.
	for _, flags := range [][]string{
		{"-g", "repo/*.go"}, {"-g", "!repo/sub/**"}, {"-g", "!/repo/a.go"}, {"-g", "!sub/e.go"},
		{"--iglob", "REPO/*.GO"}, {"--ignore-file", "anchored.ignore"}, {"-g", "repo/**", "-g", "!*.go"},
	} {
		for _, path := range []string{"repo", "./repo", "repo/", "repo/sub"} {
			add(append(append([]string{}, flags...), "foo", path)...)
		}
	}
	// A path given as a file is searched at any depth.
	add("-d", "0", "foo", "repo/a.go")
	add("-d", "1", "foo", "repo/sub/deep/f.go", "repo/sub")
	// Listings go through the same walker.
	for _, flags := range [][]string{
		{"--files", "-d", "2"}, {"--files", "--no-ignore-vcs"}, {"--files", "--hidden"},
		{"--files", "--type-add", "web:*.{html,css}", "-tweb"}, {"--files", "--iglob", "*.HTML"},
		{"--files", "--ignore-file", "extra.ignore"}, {"--files-without-match", "-d", "1", "nomatch"},
		{"-v", "-d", "1", "foo"}, {"-l", "--no-ignore-dot", "foo"}, {"-c", "--no-require-git", "foo"},
	} {
		add(flags...)
	}
	// --include-zero prints a 0 for each file searched without a match
	// (not for a binary file the walk found), and the statistics count
	// as rg's do.
	for _, flags := range [][]string{
		{"-c", "--include-zero"}, {"--count-matches", "--include-zero"}, {"-c", "--include-zero", "-m1"},
		{"-c", "--include-zero", "-v"}, {"--count-matches", "--include-zero", "-v"}, {"--count-matches", "-v"},
		{"-c", "--include-zero", "--stats"}, {"--count-matches", "--include-zero", "--stats"},
		{"-c", "--include-zero", "-v", "--stats"}, {"--count-matches", "-v", "--stats"}, {"-v", "--stats"},
		{"--files-without-match", "--stats"}, {"--include-zero"}, {"-l", "--include-zero"},
		{"-c", "--include-zero", "--no-include-zero"}, {"-c", "--include-zero", "-q"}, {"--json", "--include-zero"},
		{"-c", "-v"}, {"-c", "-v", "-m2"}, {"--passthru", "-c"}, {"--passthru", "--count-matches"}, {"-v", "-l"},
		{"-v", "-q"}, {"--passthru", "-l"}, {"--count-matches", "--include-zero", "-m1"},
		// rg counts the matches in the -m-th match's after-context too,
		// and reads to the last one's end
		{"-c", "--include-zero", "-m1", "-A2"}, {"--count-matches", "--include-zero", "-m1", "-C2"},
		{"-c", "-m1", "-A2", "--stats"}, {"-l", "-m1", "-A2", "--stats"}, {"-q", "-m1", "-C2", "--stats"},
		// --json -q prints the summary alone, which counts the selected lines
		{"-q", "--json", "-v"}, {"-q", "--json", "--passthru"}, {"-q", "--json", "-v", "-m1"},
	} {
		args := append([]string{"--sort", "path"}, flags...)
		add(append(args, "foo", "repo")...)
		add(append(args, "foo", "repo/nomatch.txt")...)
	}
	// --stop-on-nonmatch ends a file at the first line that does not
	// match after one that did (with -v, the reverse); a later -U turns it
	// off. That line still prints as owed -A context or as --passthru's
	// (these were refused), and the statistics count to its end.
	for _, flags := range [][]string{
		{}, {"-n"}, {"-c"}, {"--count-matches"}, {"-l"}, {"-v"}, {"-v", "-c"}, {"-m1"}, {"-b"}, {"-o"},
		{"-U"}, {"--files-without-match"}, {"-c", "--include-zero"}, {"-q"}, {"--vimgrep"}, {"-r", "X"},
		{"-A1"}, {"-B1"}, {"-C1", "-n"}, {"--passthru"}, {"--json"}, {"--stats"}, {"-v", "-A1"},
		{"-v", "--passthru"}, {"--passthru", "--json"}, {"-A2", "--stats"}, {"-m1", "-A1"}, {"-c", "--stats"}, {"-l", "--stats"},
	} {
		args := append([]string{"--sort", "path", "--stop-on-nonmatch"}, flags...)
		add(append(args, "foo", "repo")...)
		add(append(args, "foo", "repo/late.txt")...)
		if slices.Contains(flags, "-v") {
			add(append(args, "foo", "stop")...)
		}
	}
	for _, flags := range [][]string{
		{"-v", "-n"}, {"-v", "-B1"}, {"-v", "-m1", "-A1"}, {"-v", "-m2", "-A1", "--stats"}, {"-v", "-m2", "-A2", "--stats"},
		{"-v", "-m3", "--stats"}, {"-v", "-m2", "-A1", "--json"}, {"-v", "-m2", "-c"},
	} {
		add(append(append([]string{"--sort", "path", "--stop-on-nonmatch"}, flags...), "foo", "stop")...)
	}
	add("-U", "--stop-on-nonmatch", "foo", "repo/late.txt")
	// The last mode flag wins, a search mode after --files or --type-list
	// too (rgkit kept --files, as rg's source comment says it should).
	add("--sort", "path", "--files", "-l", "foo", "repo")
	add("--sort", "path", "--files", "-c", "foo", "repo")
	add("--sort", "path", "-l", "--files", "repo")
	add("--type-list", "--json", "foo", "repo/a.go")
	// --type-list shows the table as the command line leaves it.
	for _, flags := range [][]string{
		{"--type-add", "web:*.{html,css}"}, {"--type-add", "rust:*.x"}, {"--type-add", "zz:*.b", "--type-add", "zz:*.a", "--type-add", "zz:*.b"},
		{"--type-clear", "go"}, {"--type-add", "foo:include:c,rust"}, {"--type-add", "foo"},
		{"-tnope"}, {"--type-add", "foo:*.["}, {"--type-add", "foo:*.[", "-tfoo"}, {"-tgo", "--type-clear", "go"},
	} {
		add(append(append([]string{}, flags...), "--type-list")...)
	}
	add("--sort", "path", "-d", "2", "foo")
	return cs
}

// createdCases are --sort created runs over the files created in order.
var createdCases = []struct {
	args []string
	want string
}{
	{[]string{"--sort", "created", "foo", "created"}, "created/m.txt:foo created/m.txt\ncreated/b.txt:foo created/b.txt\ncreated/z.txt:foo created/z.txt\ncreated/a.txt:foo created/a.txt\n"},
	{[]string{"--sortr", "created", "foo", "created"}, "created/a.txt:foo created/a.txt\ncreated/z.txt:foo created/z.txt\ncreated/b.txt:foo created/b.txt\ncreated/m.txt:foo created/m.txt\n"},
	{[]string{"--sort", "created", "--files", "created"}, "created/m.txt\ncreated/b.txt\ncreated/z.txt\ncreated/a.txt\n"},
}

func TestGrepFileSelectionAgainstRg15(t *testing.T) {
	rg := rg15(t)
	bin := rgkitBin(t)
	dir, home := walkTree(t)
	var env []string
	for _, kv := range os.Environ() {
		switch strings.SplitN(kv, "=", 2)[0] {
		case "NO_COLOR", "RIPGREP_CONFIG_PATH", "HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM":
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "HOME="+home, "GIT_CONFIG_SYSTEM=/dev/null")
	native := []string{bin, "grep", "--backend", "native"}
	// checkIn runs c in cwd, first through rg (after prepare, when set),
	// then through rgkit (after prepare again).
	checkIn := func(t *testing.T, cwd string, env []string, c diffCase, prepare func()) {
		t.Helper()
		if prepare != nil {
			prepare()
		}
		wantOut, wantErr, wantCode, err := runCaseErr(cwd, env, []string{rg}, c)
		if err != nil {
			t.Fatal(err)
		}
		if prepare != nil {
			prepare()
		}
		out, errOut, code := runCase(t, cwd, env, native, c)
		if normalize(out, c) != normalize(wantOut, c) || errOut != wantErr || code != wantCode {
			t.Errorf("differs from rg 15\n%s\nrgkit stderr %q\nrg    stderr %q\nexit %d, rg %d",
				firstDiff(normalize(out, c), normalize(wantOut, c)), errOut, wantErr, code, wantCode)
		}
	}
	check := func(t *testing.T, env []string, c diffCase) {
		t.Helper()
		checkIn(t, dir, env, c, nil)
	}
	for _, c := range walkCases() {
		t.Run(c.name(), func(t *testing.T) {
			t.Parallel()
			check(t, env, c)
		})
	}
	// rg 15.2.0 sorts by birth time where Rust's standard library reads it
	// (statx in a glibc build); the static musl release refuses the flag.
	// rgkit reads statx wherever the file system keeps birth times: where
	// rg sorts, the bytes must be rg's; where it refuses, the order must
	// be the order the files were created in.
	for _, cc := range createdCases {
		c := diffCase{args: cc.args}
		t.Run(c.name(), func(t *testing.T) {
			t.Parallel()
			_, rgErr, _, err := runCaseErr(dir, env, []string{rg}, c)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(rgErr, "sorting by creation time isn't supported") {
				check(t, env, c)
				return
			}
			out, errOut, code := runCase(t, dir, env, native, c)
			if out != cc.want || errOut != "" || code != 0 {
				t.Errorf("rgkit printed %q (stderr %q, exit %d), want the creation order %q", out, errOut, code, cc.want)
			}
		})
	}
	t.Run("--sort accessed orders by the access times from before the search", func(t *testing.T) {
		t.Parallel()
		// Reading a file moves its access time (relatime does when it is
		// not after the modification time, as here): rg takes its keys
		// first. The times are set again before each run.
		tree := t.TempDir()
		names := []string{"a", "b", "sub/c", "sub/d"}
		atimes := []int{3, 1, 4, 2} // hours after the epoch day below
		if err := os.Mkdir(filepath.Join(tree, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
		reset := func() {
			base := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
			for i, name := range names {
				path := filepath.Join(tree, name)
				if err := os.WriteFile(path, []byte("test\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Chtimes(path, base.Add(time.Duration(atimes[i])*time.Hour), base.Add(24*time.Hour)); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, args := range [][]string{{"--sort", "accessed", "test"}, {"--sortr", "accessed", "test"}, {"--sort", "accessed", "-c", "test", "sub", "a"}} {
			checkIn(t, tree, env, diffCase{args: args}, reset)
		}
	})
	t.Run("a worktree's info/exclude comes from the common git directory", func(t *testing.T) {
		t.Parallel()
		// A worktree's .git is a file naming its git directory (a relative
		// name is taken from the working directory); that directory's
		// commondir names the repository's. A submodule's has no commondir:
		// rg then reads no exclude file.
		tree := t.TempDir()
		for path, body := range map[string]string{
			"repo/.git/info/exclude":             "ignored\n",
			"repo/.git/worktrees/wt/commondir":   "../..\n",
			"wt/.git":                            "gitdir: repo/.git/worktrees/wt\n",
			"wt/ignored":                         "test\n",
			"wt/kept":                            "test\n",
			"repo/.git/modules/sub/info/exclude": "kept\n",
			"sub/.git":                           "gitdir: " + filepath.Join(tree, "repo/.git/modules/sub") + "\n",
			"sub/ignored":                        "test\n",
			"sub/kept":                           "test\n",
			"abs/.git":                           "gitdir: " + filepath.Join(tree, "repo/.git/worktrees/abs") + "\n",
			"repo/.git/worktrees/abs/commondir":  filepath.Join(tree, "repo/.git") + "\n",
			"abs/ignored":                        "test\n",
			"abs/kept":                           "test\n",
		} {
			full := filepath.Join(tree, path)
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, args := range [][]string{{"--sort", "path", "--files", "wt", "sub", "abs"}, {"--sort", "path", "test"}, {"--sort", "path", "--no-ignore-exclude", "--files"}} {
			checkIn(t, tree, env, diffCase{args: args}, nil)
		}
	})
	t.Run("an absolute path inside the working directory is matched from it", func(t *testing.T) {
		t.Parallel()
		for _, args := range [][]string{
			{"-g", "!repo/sub/**", "foo", filepath.Join(dir, "repo")},
			{"--ignore-file", "anchored.ignore", "foo", filepath.Join(dir, "repo")},
			{"foo", filepath.Join(dir, "repo")},
		} {
			check(t, env, diffCase{args: args})
		}
	})
	t.Run("--stop-on-nonmatch and --include-zero on stdin", func(t *testing.T) {
		t.Parallel()
		for _, args := range [][]string{{"--stop-on-nonmatch", "-n", "foo"}, {"--stop-on-nonmatch", "-v", "foo"}, {"--stop-on-nonmatch", "-c", "foo"},
			{"--stop-on-nonmatch", "-A1", "foo"}, {"--stop-on-nonmatch", "--passthru", "foo"}, {"--stop-on-nonmatch", "--json", "foo"},
			{"-c", "--include-zero", "nomatch"}, {"--count-matches", "--include-zero", "nomatch"}} {
			check(t, env, diffCase{args: args, stdin: "bar\nfoo a\nfoo b\nbar\nfoo c\n"})
		}
	})
	t.Run("a missing RIPGREP_CONFIG_PATH file warns and searches", func(t *testing.T) {
		t.Parallel()
		check(t, append(env, "RIPGREP_CONFIG_PATH="+filepath.Join(dir, "no-such-rc")), diffCase{args: []string{"foo", "repo/a.go"}})
	})
	t.Run("--one-file-system stops at another file system", func(t *testing.T) {
		t.Parallel()
		other := otherFileSystemDir(t, dir)
		if err := os.WriteFile(filepath.Join(other, "away.txt"), []byte("foo away\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		tree := t.TempDir()
		if err := os.WriteFile(filepath.Join(tree, "here.txt"), []byte("foo here\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(other, filepath.Join(tree, "elsewhere")); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"-L", "foo", tree}, {"-L", "--one-file-system", "foo", tree},
			{"-L", "--one-file-system", "--no-one-file-system", "foo", tree},
			{"--one-file-system", "foo", tree, other},
		} {
			check(t, env, diffCase{args: args})
		}
	})
}

// otherFileSystemDir is a new directory on another device than dir
// (/dev/shm's tmpfs on Linux), or the test is skipped.
func otherFileSystemDir(t *testing.T, dir string) string {
	t.Helper()
	for _, base := range []string{"/dev/shm", "/run/user"} {
		other, err := os.MkdirTemp(base, "rgkit-onefs-")
		if err != nil {
			continue
		}
		t.Cleanup(func() { os.RemoveAll(other) })
		a, errA := os.Stat(dir)
		b, errB := os.Stat(other)
		if errA == nil && errB == nil && !sameDevice(a, b) {
			return other
		}
	}
	t.Skip("no writable directory on another file system (/dev/shm)")
	return ""
}

// sameDevice reports whether two files are on one device.
func sameDevice(a, b os.FileInfo) bool {
	sa, okA := a.Sys().(*syscall.Stat_t)
	sb, okB := b.Sys().(*syscall.Stat_t)
	return okA && okB && sa.Dev == sb.Dev
}
