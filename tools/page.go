package tools

// Cap names the limit that cut a result.
type Cap string

const (
	// CapHeadLimit: head_limit entries were shown and more exist.
	CapHeadLimit Cap = "head_limit"
	// CapOutput: the text reached Limits.MaxOutputChars.
	CapOutput Cap = "output_cap"
	// CapMemory: the search found more than it may hold
	// (DefaultMaxHeldBytes) and stopped collecting.
	CapMemory Cap = "memory_cap"
)

// Page says which part of a Grep or Glob result is shown and whether the
// result is complete. It is embedded in both results, so its fields appear
// at their top level.
type Page struct {
	// Offset is the offset this page starts at.
	Offset int `json:"offset"`
	// Truncated says entries after the shown ones exist; TruncatedBy says
	// which cap cut them and NextOffset is the offset of the next page.
	Truncated   bool `json:"truncated"`
	TruncatedBy Cap  `json:"truncated_by,omitempty"`
	NextOffset  int  `json:"next_offset,omitempty"`
	// Partial says the search did not finish (timeout, engine error):
	// files not searched may also match. PartialReason says why.
	Partial       bool   `json:"partial"`
	PartialReason string `json:"partial_reason,omitempty"`
	// Backend is the engine that ran.
	Backend  string   `json:"backend"`
	Warnings []string `json:"warnings,omitempty"`
}

// cut records that a cap cut the result after shown entries.
func (p *Page) cut(by Cap, shown int) {
	p.Truncated, p.TruncatedBy = true, by
	p.NextOffset = p.Offset + shown
}
