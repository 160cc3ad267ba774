package archive

import (
	"path"
	"strconv"
	"strings"
)

// normName strips the "./" prefix tar and dpkg-deb put on names and the
// trailing "/" of directories, so "./usr/bin/rg" and "usr/bin/rg" compare
// equal. The result is not cleaned; see unsafeName.
func normName(name string) string {
	for strings.HasPrefix(name, "./") {
		name = name[2:]
	}
	return strings.TrimSuffix(name, "/")
}

// unsafeName returns why name is not a local, slash-separated relative name
// (filepath.IsLocal semantics on every OS, plus no ".." element at all), or
// "" when it is safe. Names are checked whether or not we extract them: an
// archive that carries one is hostile or broken either way.
func unsafeName(name string) string {
	switch {
	case strings.ContainsRune(name, 0):
		return "name contains a NUL byte"
	case strings.Contains(name, `\`):
		return "name contains a backslash"
	case strings.HasPrefix(name, "/"):
		return "absolute name"
	case len(name) >= 2 && name[1] == ':' && isLetter(name[0]):
		return "name starts with a drive letter"
	}
	for _, elem := range strings.Split(name, "/") {
		if elem == ".." {
			return "name climbs out with .."
		}
	}
	return ""
}

// unsafeLink returns why a link entry's target escapes the archive root, or
// "". A symlink target is relative to the link's directory, a hard link's to
// the archive root.
func unsafeLink(name, target string, hard bool) string {
	if target == "" {
		return "link with an empty target"
	}
	if why := unsafeName(target); why != "" && (hard || !strings.Contains(why, "..")) {
		return "link target " + strconv.Quote(target) + ": " + why
	}
	if !hard {
		joined := path.Join(path.Dir(normName(name)), target)
		if joined == ".." || strings.HasPrefix(joined, "../") {
			return "symlink target " + strconv.Quote(target) + " points outside the archive"
		}
	}
	return ""
}

// sameName reports whether the archive name n denotes member.
func sameName(n, member string) bool {
	n = normName(n)
	return n == member || path.Clean(n) == member
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
