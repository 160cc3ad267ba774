package conformance

import (
	"strconv"

	"github.com/rgkit/rgkit/backends"
)

// RipgrepArgs spells q as plain rg 13 flags, with no dialect translation:
// `--json --no-config`, the options, `-e PATTERN --` and the paths (or ".").
// It is the tests' independent baseline ("what does rg itself say?"), not
// rgkit's ripgrep engine, which also rewrites the pattern into Go semantics.
// Run it with the working directory at q.Root and strip "./" from paths.
func RipgrepArgs(q backends.Query) []string {
	args := []string{"--json", "--no-config"}
	switch q.Case {
	case backends.CaseInsensitive:
		args = append(args, "-i")
	case backends.CaseSmart:
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
	flag(q.Hidden, "--hidden")
	flag(q.NoIgnore, "--no-ignore")
	flag(q.FollowSymlinks, "-L")
	flag(q.Before > 0, "-B", strconv.Itoa(q.Before))
	flag(q.After > 0, "-A", strconv.Itoa(q.After))
	flag(q.MaxCountPerFile > 0, "-m", strconv.Itoa(q.MaxCountPerFile))
	flag(q.MaxFileSize > 0, "--max-filesize", strconv.FormatInt(q.MaxFileSize, 10))
	for _, g := range q.Globs {
		args = append(args, "--glob", g)
	}
	for _, ty := range q.Types {
		args = append(args, "--type", ty)
	}
	args = append(args, "-e", q.Pattern, "--")
	if len(q.Paths) == 0 {
		args = append(args, ".")
	}
	return append(args, q.Paths...)
}
