package main

import (
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/rgkit/rgkit/internal/doctor"
	"github.com/rgkit/rgkit/platforms"
	"github.com/rgkit/rgkit/rgfetch"
)

func newDoctorCmd(s streams) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Show the platform, which rg would be used and why, and the git and grep available",
		Long: `Show the platform and its ripgrep release triple, each step of the rg
resolution with its verdict (nothing is downloaded), and whether git and
grep are available, with versions, flavours and -P (PCRE) support.

Exit status: 0 when an rg is available or would be installed, 1 when none
can be had, 2 on an error.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			rep := doctor.Diagnose(cmd.Context(), &rgfetch.Resolver{}, platforms.Detect())
			if asJSON {
				enc := json.NewEncoder(s.out)
				enc.SetIndent("", "  ")
				if err := enc.Encode(rep); err != nil {
					return err
				}
			} else {
				doctor.Print(s.out, rep)
			}
			if !doctor.RgObtainable(rep.Rg) {
				return &exitError{code: 1}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	return cmd
}
