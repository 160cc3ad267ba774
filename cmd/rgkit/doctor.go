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
		Short: "Show the platform, which rg would be used and why, the git and grep available, and which engine a search here runs",
		Long: `Show the platform and its ripgrep release triple, each step of the rg
resolution with its verdict (nothing is downloaded), whether git and
grep are available, with versions, flavours and -P (PCRE) support, and
which engine rgkit grep and the agent tools would run on a search of the
working directory, for each query class of the cost model, and why.

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
