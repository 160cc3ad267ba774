package native

import (
	"errors"
	"runtime"
	"sync"
)

// SearchFiles searches files (a list some other tool chose, such as the
// candidates git grep or an older rg left) on up to workers goroutines
// (0 = GOMAXPROCS), as a walk would hand them to File. It stops early when
// the sink stops or fails (see SinkErr) or ctx ends (its error is not
// returned: the caller checks ctx); any other error is returned.
func (r *FileSearcher) SearchFiles(files []File, workers int) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	next := make(chan File)
	var (
		wg   sync.WaitGroup
		once sync.Once
		ferr error
	)
	stop := make(chan struct{})
	for range min(workers, max(len(files), 1)) {
		wg.Go(func() {
			for f := range next {
				if err := r.File(f); err != nil {
					once.Do(func() {
						if !errors.Is(err, ErrStopWalk) && !errors.Is(err, r.ctx.Err()) {
							ferr = err
						}
						close(stop)
					})
				}
			}
		})
	}
feed:
	for _, f := range files {
		select {
		case next <- f:
		case <-stop:
			break feed
		}
	}
	close(next)
	wg.Wait()
	return ferr
}
