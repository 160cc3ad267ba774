package tools

import (
	"context"
	"encoding/json"
	"errors"
)

func (w *Workspace) grepTool() Tool {
	return Tool{Kind: KindGrep, Name: w.names.Grep, Description: w.describe(grepDescription),
		InputSchema: mustSchema("grep.input.json"), OutputSchema: mustSchema("grep.output.json"),
		call: func(ctx context.Context, raw json.RawMessage) (Output, error) {
			return Output{}, errors.New("not yet")
		}}
}

func (w *Workspace) globTool() Tool {
	return Tool{Kind: KindGlob, Name: w.names.Glob, Description: w.describe(globDescription),
		InputSchema: mustSchema("glob.input.json"), OutputSchema: mustSchema("glob.output.json"),
		call: func(ctx context.Context, raw json.RawMessage) (Output, error) {
			return Output{}, errors.New("not yet")
		}}
}
