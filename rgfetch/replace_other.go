//go:build !windows

package rgfetch

import (
	"context"
	"os"
	"time"
)

// replaceFile renames src over dst. On Unix the rename is atomic and a
// running old rg keeps its inode.
func replaceFile(ctx context.Context, src, dst string, sleep func(context.Context, time.Duration) error) error {
	return os.Rename(src, dst)
}
