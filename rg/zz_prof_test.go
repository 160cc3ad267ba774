package rg

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
)

func TestZZProf(t *testing.T) {
	args := strings.Fields(os.Getenv("ZZ_ARGS"))
	if len(args) == 0 {
		t.Skip()
	}
	code := Main(context.Background(), args, nil, io.Discard, os.Stderr)
	t.Log("exit", code)
}
