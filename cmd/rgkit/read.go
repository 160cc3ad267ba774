package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newReadCmd is a placeholder until its issue lands.
func newReadCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:   "read",
		Short: "not implemented yet",
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("read: not implemented yet")
		},
	}
}
