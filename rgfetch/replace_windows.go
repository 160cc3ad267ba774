//go:build windows

package rgfetch

import (
	"context"
	"errors"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// replaceFile renames src over dst (MoveFileEx with REPLACE_EXISTING),
// retrying sharing violations and access denials for a few seconds: a
// virus scanner or a running rg can hold dst briefly (rustup#1870).
func replaceFile(ctx context.Context, src, dst string, sleep func(context.Context, time.Duration) error) error {
	var err error
	wait := 50 * time.Millisecond
	for waited := time.Duration(0); waited < 5*time.Second; waited += wait {
		err = os.Rename(src, dst)
		if err == nil || !(errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_SHARING_VIOLATION)) {
			return err
		}
		if serr := sleep(ctx, wait); serr != nil {
			return err
		}
		wait = min(2*wait, 500*time.Millisecond)
	}
	return err
}
