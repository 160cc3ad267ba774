//go:build !wasip1

package main

import (
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
)

// TestClassSetOperationsUnderCaseFoldingAsRg15: under (?i) rg closes each
// operand of &&, -- and ~~ under case folding before the operation, so
// (?i)[a~~A] matches nothing and (?i)[a-c--B] neither b nor B.
func TestClassSetOperationsUnderCaseFoldingAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	dir := t.TempDir()
	testtool.WriteTree(t, dir, map[string]string{"t.txt": "abc\nABC\nmno\nMNO\nCopy\nk \u212A K\n"})
	for _, class := range []string{
		`[a-z~~[m-z]]`, `[a-c~~[b-d]]`, `[a~~A]`, `[a-c--B]`, `(?-u:[a-c--B])`, `[^a-c--B]`,
		`[a-c--B--C]`, `[a-z&&[m-z]]`, `[k~~\x{212A}]`,
	} {
		t.Run(class, func(t *testing.T) {
			t.Parallel()
			sameAsRg15(t, dir, rg, bin, []string{"-o", "-n", class, "t.txt"})
			sameAsRg15(t, dir, rg, bin, []string{"-o", "-n", "(?i)" + class, "t.txt"})
			sameAsRg15(t, dir, rg, bin, []string{"-o", "-n", "-i", class, "t.txt"})
		})
	}
}
