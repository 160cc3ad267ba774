package conformance

import (
	"strconv"

	"github.com/rgkit/rgkit/search"
)

// RipgrepArgs spells q as plain rg 13 flags, with no dialect translation:
// `--json --no-config` (in ModeCount `--count --with-filename --null`, whose
// output is "path\x00count\n", because rg -c and the JSON stats disagree),
// the options, `-e PATTERN --` and the paths (or ".").
// It is the tests' independent baseline ("what does rg itself say?"), not
// rgkit's ripgrep engine, which also rewrites the pattern into Go semantics.
// Run it with the working directory at q.Root and strip "./" from paths.
func RipgrepArgs(q search.Query) []string {
	args := []string{"--json", "--no-config"}
	if q.Mode == search.ModeCount {
		args = []string{"--count", "--with-filename", "--null", "--no-config"}
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

// RipgrepFilesArgs spells q's file selection as `rg --files --null` flags:
// the list of files rg would search, NUL-separated.
func RipgrepFilesArgs(q search.Query) []string {
	args := append([]string{"--files", "--null", "--no-config"}, selectionArgs(q)...)
	return append(append(args, "--"), pathArgs(q)...)
}

// selectionArgs are the file-selection flags. rgkit never searches .git/
// (it is the repository's database, not its code), but rg 13 with --hidden does, so the baseline adds
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
	return append(args, "--glob", "!.git")
}

func pathArgs(q search.Query) []string {
	if len(q.Paths) == 0 {
		return []string{"."}
	}
	return q.Paths
}
