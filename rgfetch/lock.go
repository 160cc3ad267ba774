package rgfetch

import (
	"context"
	"os"
	"time"
)

// lockFile takes an exclusive advisory lock on path (flock on Unix,
// LockFileEx on Windows), creating the file if needed. It polls instead of
// blocking so that the caller's context can end the wait: an agent with a
// deadline gets "install in progress" instead of hanging behind a stopped
// process. The kernel drops the lock when its holder
// dies, so a lock file left by a killed process is never stale.
func lockFile(ctx context.Context, path string, sleep func(context.Context, time.Duration) error) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	wait := 5 * time.Millisecond
	for {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, &lockError{Path: path, Err: err}
		}
		if ok {
			return func() {
				unlockFile(f)
				f.Close()
			}, nil
		}
		if err := sleep(ctx, wait); err != nil {
			f.Close()
			return nil, &lockError{Path: path, Err: err}
		}
		wait = min(2*wait, 100*time.Millisecond)
	}
}
