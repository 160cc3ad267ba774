package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newFetchCmd is a placeholder until its issue lands.
func newFetchCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:   "fetch",
		Short: "not implemented yet",
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("fetch: not implemented yet")
		},
	}
}
