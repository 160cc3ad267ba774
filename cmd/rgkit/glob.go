package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newGlobCmd is a placeholder until its issue lands.
func newGlobCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:   "glob",
		Short: "not implemented yet",
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("glob: not implemented yet")
		},
	}
}
