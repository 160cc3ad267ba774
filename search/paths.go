package search

import "cmp"

// ComparePaths orders slash paths as rg --sort path prints them: component
// by component, as a walk that sorts each directory's entries by name
// visits them, so "a/b" sorts before "a-c" (byte order would put '-'
// first) and a directory before everything below it.
//
// That is a bytewise comparison in which '/' ranks below every other byte
// (a name ends before any longer name that it begins), so it needs no
// split: sorting a listing of 100,000 paths called it millions of times,
// and splitting allocated on each call.
func ComparePaths(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	if i == n {
		return cmp.Compare(len(a), len(b))
	}
	return cmp.Compare(pathRank(a[i]), pathRank(b[i]))
}

// pathRank is c's rank in ComparePaths: '/' first, then every byte in its
// own order.
func pathRank(c byte) int {
	if c == '/' {
		return -1
	}
	return int(c)
}
