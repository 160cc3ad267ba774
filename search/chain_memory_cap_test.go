package search

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// Issue 11, item 1: an engine whose process was stopped for memory
// (ErrMemoryCap) after it had found something. The Chain answers with the
// next engine when nothing reached the caller yet, and never delivers a
// result twice.
func TestChainAfterAnEngineStoppedForMemory(t *testing.T) {
	capped := fmt.Errorf("rg needed more than 1 GiB of memory searching /w: %w", ErrMemoryCap)
	for _, c := range []struct {
		name        string
		sort        SortOrder
		wantBackend string
		wantEvents  []scriptEvent
		wantErr     error
	}{
		{
			name: "sorted: what the engine held is dropped and the next one answers",
			sort: SortPath, wantBackend: "two",
			wantEvents: []scriptEvent{"B a", "M a:1:x", "E a 1", "B b", "M b:1:x", "E b 1"},
		},
		{
			name: "streamed: what reached the caller stays, the answer is partial",
			sort: SortNone, wantBackend: "one", wantErr: ErrMemoryCap,
			wantEvents: []scriptEvent{"B a", "M a:1:x", "E a 1"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			one := &scriptedEngine{name: "one", emit: []scriptEvent{"B a", "M a:1:x", "E a 1"}, searchErr: capped}
			two := &scriptedEngine{name: "two", emit: []scriptEvent{"B a", "M a:1:x", "E a 1", "B b", "M b:1:x", "E b 1"}}
			rec := &eventRecorder{t: t}
			res, err := chainOf(one, two).Search(context.Background(), Query{Pattern: "x", Root: t.TempDir(), Sort: c.sort}, rec)
			if !reflect.DeepEqual(rec.events, c.wantEvents) {
				t.Errorf("events %q, want %q", rec.events, c.wantEvents)
			}
			if res.Backend != c.wantBackend {
				t.Errorf("backend %q, want %q", res.Backend, c.wantBackend)
			}
			if c.wantErr == nil {
				if err != nil || res.Partial {
					t.Fatalf("err %v, partial %v; want the next engine's full answer", err, res.Partial)
				}
				want := "rg needed more than 1 GiB of memory searching /w: engine passed its memory cap; searched with two instead"
				if !reflect.DeepEqual(res.Warnings, []string{want}) {
					t.Errorf("warnings %q, want %q", res.Warnings, want)
				}
				if len(res.Skipped) != 1 || !errors.Is(res.Skipped[0].Reason, ErrMemoryCap) {
					t.Errorf("skipped %+v, want one for memory", res.Skipped)
				}
				return
			}
			if !errors.Is(err, c.wantErr) || !res.Partial || !strings.Contains(err.Error(), "results are partial") {
				t.Errorf("err %v, partial %v; want a partial answer saying why", err, res.Partial)
			}
			if two.calls != 0 {
				t.Error("the next engine ran after results were streamed")
			}
		})
	}
}
