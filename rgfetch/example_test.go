package rgfetch_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/rgkit/rgkit/rgfetch"
)

// An agent tool resolves rg once per process and reuses the answer; the
// managed copy lives in ~/.myagent/bin and MYAGENT_RG_PATH etc. apply.
func ExampleResolver() {
	r := &rgfetch.Resolver{AppName: "myagent", Log: os.Stderr, Progress: os.Stderr}
	res, err := r.Resolve(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, "no ripgrep:", err)
		return
	}
	fmt.Println(res.Path, res.Version, res.Source)
}

// A search engine must not start a download in the middle of a query:
// NoDownload checks the system and managed rg only and fails fast.
func ExampleResolver_noDownload() {
	r := &rgfetch.Resolver{NoDownload: true}
	_, err := r.Resolve(context.Background())
	if errors.Is(err, rgfetch.ErrNotInstalled) {
		fmt.Println("fall back to another engine")
	}
}

// Explain reports each step's verdict without downloading, for diagnostics.
func ExampleResolver_Explain() {
	r := &rgfetch.Resolver{}
	tr := r.Explain(context.Background())
	for _, st := range tr.Steps {
		fmt.Printf("%-10s %-14s %s\n", st.Source, st.Verdict, st.Reason)
	}
}
