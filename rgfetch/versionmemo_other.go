//go:build !unix

package rgfetch

// fileIdentity is unavailable without an inode change time: the memo is off.
func fileIdentity(string) (string, bool) { return "", false }
