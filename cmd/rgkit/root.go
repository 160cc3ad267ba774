package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// exitError carries a command's exit status (e.g. grep's 1 for "no match")
// up to run without printing anything more.
type exitError struct {
	code int
	err  error // printed to stderr when non-nil
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// streams are the process's standard streams, passed to every command so
// tests can run the CLI in-process.
type streams struct {
	in          io.Reader
	out, errOut io.Writer
}

// run executes the CLI and returns the exit status: 0 success, 2 usage or
// runtime error unless a command says otherwise through exitError.
func run(ctx context.Context, args []string, in io.Reader, out, errOut io.Writer) int {
	s := streams{in: in, out: out, errOut: errOut}
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-V") {
		printVersion(ctx, out)
		return 0
	}
	root := &cobra.Command{
		Use:           "rgkit",
		Short:         "Provision ripgrep, search code with any engine, serve agent tools",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetArgs(args)
	root.SetIn(in)
	root.SetOut(out)
	root.SetErr(errOut)
	root.AddCommand(
		newFetchCmd(s),
		newDoctorCmd(s),
		newGrepCmd(s),
		newGlobCmd(s),
		newReadCmd(s),
		newMCPCmd(s),
		newBenchCmd(s),
		newVersionCmd(s),
	)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(errOut, "rgkit:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(errOut, "rgkit:", err)
	return 2
}

// completeValues lets shell completion offer a flag's valid values.
func completeValues(cmd *cobra.Command, flag string, values ...string) {
	_ = cmd.RegisterFlagCompletionFunc(flag, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
}
