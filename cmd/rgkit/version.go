package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/rgkit/rgkit/internal/buildinfo"
	"github.com/rgkit/rgkit/internal/realrg"
	"github.com/rgkit/rgkit/rgfetch"
)

func newVersionCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print rgkit's version, the Go version and the rg a search would use",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			printVersion(cmd.Context(), s.out)
			return nil
		},
	}
}

// printVersion writes rgkit's version, the Go toolchain and the rg the
// resolver would use (without downloading).
func printVersion(ctx context.Context, w io.Writer) {
	fmt.Fprintf(w, "rgkit %s\n", buildinfo.Version())
	fmt.Fprintf(w, "%s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if os.Getenv(realrg.NestedEnv) != "" {
		fmt.Fprintln(w, "rg: not resolved (rgkit started as rg by rgkit)")
		return
	}
	os.Setenv(realrg.NestedEnv, "1")
	defer os.Unsetenv(realrg.NestedEnv)
	res, err := (&rgfetch.Resolver{NoDownload: true}).Resolve(ctx)
	switch {
	case err != nil:
		fmt.Fprintf(w, "rg: none found (%v); searches use the other engines\n", err)
	case realrg.IsSelf(res.Path):
		fmt.Fprintf(w, "rg: %s is rgkit itself; searches use the other engines\n", res.Path)
	default:
		fmt.Fprintf(w, "rg: ripgrep %s at %s (%s)\n", res.Version, res.Path, res.Source)
	}
}
