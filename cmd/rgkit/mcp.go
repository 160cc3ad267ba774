package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newMCPCmd is a placeholder until its issue lands.
func newMCPCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "not implemented yet",
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("mcp: not implemented yet")
		},
	}
}
