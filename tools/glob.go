package tools

import (
	"context"
	"encoding/json"
	"errors"
)

// GlobInput are Glob's arguments.
type GlobInput struct {
	Pattern   string `json:"pattern"`
	Path      string `json:"path,omitempty"`
	HeadLimit *int   `json:"head_limit,omitempty"` // nil = Limits.GlobHeadLimit; 0 = no limit
	Offset    int    `json:"offset,omitempty"`
}

// GlobResult is Glob's structured result: exactly what the text shows.
type GlobResult struct {
	// Files match the pattern, relative to the workspace root, newest
	// modified first.
	Files []string `json:"files"`
	// SearchRoot is the absolute directory searched.
	SearchRoot string `json:"search_root"`
	// TotalMatched is how many files matched in all.
	TotalMatched int `json:"total_matched"`
	Offset       int `json:"offset"`
	// Truncated says more files matched than are listed; TruncatedBy says
	// which cap cut them and NextOffset continues the list.
	Truncated     bool     `json:"truncated"`
	TruncatedBy   string   `json:"truncated_by,omitempty"`
	NextOffset    int      `json:"next_offset,omitempty"`
	Partial       bool     `json:"partial"`
	PartialReason string   `json:"partial_reason,omitempty"`
	Backend       string   `json:"backend,omitempty"`
	Warnings      []string `json:"warnings,omitempty"`
}

func (w *Workspace) globTool() Tool {
	return Tool{Kind: KindGlob, Name: w.names.Glob, Description: w.describe(globDescription),
		InputSchema: mustSchema("glob.input.json"), OutputSchema: mustSchema("glob.output.json"),
		call: func(ctx context.Context, raw json.RawMessage) (Output, error) {
			return Output{}, errors.New("not yet")
		}}
}
