package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newGrepCmd is a placeholder until its issue lands.
func newGrepCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:   "grep",
		Short: "not implemented yet",
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("grep: not implemented yet")
		},
	}
}
