package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rgkit/rgkit/tools"
)

// readOptions are `rgkit read`'s flags.
type readOptions struct {
	root   string
	offset int
	limit  int
	json   bool
}

// newReadCmd shows a file the way the Read tool shows it to a model.
func newReadCmd(s streams) *cobra.Command {
	var o readOptions
	cmd := &cobra.Command{
		Use:   "read FILE [--offset N] [--limit N]",
		Short: "Show a file's lines as the Read agent tool does",
		Long: `Show a file's lines numbered from 1 ("N<TAB>content"), exactly as the Read
agent tool shows them to a model: at most --limit lines (default 2000) from
--offset, long lines cut with a marker, binary files refused, and the file
confined to --root (default the current directory).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRead(cmd.Context(), s, o, args[0])
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.root, "root", ".", "workspace root the file must lie in")
	f.IntVar(&o.offset, "offset", 0, "first line to show, 1-based")
	f.IntVar(&o.limit, "limit", 0, "how many lines to show (default 2000)")
	f.BoolVar(&o.json, "json", false, "print the structured result as JSON instead of the text")
	return cmd
}

func runRead(ctx context.Context, s streams, o readOptions, file string) error {
	ws, err := tools.NewWorkspace(o.root, tools.Options{})
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	out, err := ws.Read(ctx, tools.ReadInput{FilePath: file, Offset: o.offset, Limit: o.limit})
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if o.json {
		enc := json.NewEncoder(s.out)
		enc.SetIndent("", "  ")
		return enc.Encode(out.Structured)
	}
	_, err = fmt.Fprint(s.out, out.Text)
	return err
}
