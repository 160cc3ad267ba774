package conformance

import (
	"strconv"

	"github.com/rgkit/rgkit/search"
)

// RipgrepArgs spells q as plain rg flags, the pattern as written:
// `--json --no-config` (in ModeCount `--count --with-filename --null`, whose
// output is "path\x00count\n", because rg -c and the JSON stats disagree),
// the options, `-e PATTERN --` and the paths (or ".").
// Run by the reference rg it is the tests' reference ("what does rg 15.2.0
// itself say?"), independent of rgkit's ripgrep engine.
// Run it with the working directory at q.Root and strip "./" from paths.
//
// The reference runs one search thread (--threads=1, as Threads says).
func RipgrepArgs(q search.Query) []string {
	args := []string{"--json", "--no-config", Threads}
	if q.Mode == search.ModeCount {
		args = []string{"--count", "--with-filename", "--null", "--no-config", Threads}
	}
	switch q.Case {
	case search.CaseInsensitive:
		args = append(args, "-i")
	case search.CaseSmart:
		args = append(args, "-S")
	}
	flag := func(on bool, f ...string) {
		if on {
			args = append(args, f...)
		}
	}
	flag(q.Fixed, "-F")
	flag(q.Word, "-w")
	flag(q.Multiline, "-U", "--multiline-dotall")
	flag(q.Before > 0, "-B", strconv.Itoa(q.Before))
	flag(q.After > 0, "-A", strconv.Itoa(q.After))
	flag(q.MaxCountPerFile > 0, "-m", strconv.Itoa(q.MaxCountPerFile))
	args = append(args, selectionArgs(q)...)
	args = append(args, "-e", q.Pattern, "--")
	return append(args, pathArgs(q)...)
}

// Threads is the flag the tests' reference rg runs with: one thread. What
// rg finds does not depend on its thread count, only the order in which
// files come out, which every comparison sorts; and a directory search on
// two or more threads starts the parallel walker and its workers, about
// 9 ms more CPU per run on a small VM (24 against 15 ms), over a thousand
// runs in go test ./... . rg's parallel path is still compared with the
// reference: rgkit's ripgrep engine runs rg with rg's default thread count.
const Threads = "--threads=1"

// RipgrepFilesArgs spells q's file selection as `rg --files --null` flags:
// the list of files rg would search, NUL-separated.
func RipgrepFilesArgs(q search.Query) []string {
	args := append([]string{"--files", "--null", "--no-config", Threads}, selectionArgs(q)...)
	return append(append(args, "--"), pathArgs(q)...)
}

// selectionArgs are the file-selection flags. rgkit never searches .git/
// (it is the repository's database, not its code) unless the Query's
// GitDir says to, but rg with --hidden does, so the baseline adds
// --glob=!.git last, where it beats any earlier glob.
func selectionArgs(q search.Query) []string {
	var args []string
	if q.Hidden {
		args = append(args, "--hidden")
	}
	if q.NoIgnore {
		args = append(args, "--no-ignore")
	}
	if q.FollowSymlinks {
		args = append(args, "-L")
	}
	if q.MaxFileSize > 0 {
		args = append(args, "--max-filesize", strconv.FormatInt(q.MaxFileSize, 10))
	}
	for _, g := range q.Globs {
		args = append(args, "--glob", g)
	}
	for _, ty := range q.Types {
		args = append(args, "--type", ty)
	}
	for i, sel := range q.TypeSelections {
		name := "conf" + strconv.Itoa(i)
		for _, g := range sel.Globs {
			args = append(args, "--type-add", name+":"+g)
		}
		if sel.Negate {
			args = append(args, "--type-not", name)
		} else {
			args = append(args, "--type", name)
		}
	}
	for _, g := range q.IGlobs {
		args = append(args, "--iglob", g)
	}
	flag := func(on bool, f ...string) {
		if on {
			args = append(args, f...)
		}
	}
	flag(q.GlobCaseInsensitive, "--glob-case-insensitive")
	flag(q.NoIgnoreDot, "--no-ignore-dot")
	flag(q.NoIgnoreVCS, "--no-ignore-vcs")
	flag(q.NoIgnoreExclude, "--no-ignore-exclude")
	flag(q.NoIgnoreGlobal, "--no-ignore-global")
	flag(q.NoIgnoreParent, "--no-ignore-parent")
	flag(q.NoRequireGit, "--no-require-git")
	flag(q.IgnoreCaseInsensitive, "--ignore-file-case-insensitive")
	flag(q.MaxDepthSet, "--max-depth", strconv.Itoa(q.MaxDepth))
	flag(q.OneFileSystem, "--one-file-system")
	for _, f := range q.IgnoreFiles {
		args = append(args, "--ignore-file", f)
	}
	if q.GitDir {
		return args
	}
	return append(args, "--glob", "!.git")
}

func pathArgs(q search.Query) []string {
	if len(q.Paths) == 0 {
		return []string{"."}
	}
	return q.Paths
}
