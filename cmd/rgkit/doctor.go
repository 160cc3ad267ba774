package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newDoctorCmd is a placeholder until its issue lands.
func newDoctorCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "not implemented yet",
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("doctor: not implemented yet")
		},
	}
}
