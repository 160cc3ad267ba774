//go:build !unix

package rgfetch

// syncDir is a no-op where directories cannot be opened for fsync (Windows:
// MoveFileEx is already durable enough for our purpose).
func syncDir(dir string) error { return nil }
