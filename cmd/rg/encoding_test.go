//go:build !wasip1

package main

import (
	"strings"
	"testing"

	"github.com/rgkit/rgkit/internal/testtool"
)

// TestDoubleByteEncodingsAsRg15: -E shift_jis and -E big5 decode every lead
// and trail pair as rg's decoder does: a pair that makes no character is
// one U+FFFD, and an ASCII trail byte is read again on its own. x/text
// swallowed it, so UTF-8 text read as Shift_JIS lost letters
// ("Æquations" became "ﾃ�uations", and -c 'the' counted seven lines
// fewer over a book). EUC-KR is checked alongside; EUC-JP, GBK and
// gb18030 still differ on invalid pairs (see docs/cli.md).
func TestDoubleByteEncodingsAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	dir := t.TempDir()
	var pairs []byte
	for lead := 0x80; lead <= 0xFF; lead++ {
		for trail := range 0x100 {
			pairs = append(pairs, byte(lead), byte(trail), 'Z')
		}
		pairs = append(pairs, '\n')
	}
	testtool.WriteTree(t, dir, map[string]string{
		"pairs.bin": string(pairs),
		"utf8.txt":  "But by an Argument taken from the \u00C6quations of the times\nthe end\n",
	})
	for _, enc := range []string{"sjis", "big5", "euc-kr"} {
		for _, args := range [][]string{
			{"-a", "-n", "-E", enc, "", "pairs.bin"},
			{"-c", "-E", enc, "quations", "utf8.txt"},
			{"-o", "-E", enc, `\w+ of`, "utf8.txt"},
		} {
			t.Run(enc+" "+args[len(args)-1], func(t *testing.T) {
				t.Parallel()
				sameAsRg15(t, dir, rg, bin, args)
			})
		}
	}
}

// TestInvertAndPassthruReadMarkedFilesAsRg15: -U with -v or --passthru
// prints a file's lines from a read of their own, which reads a file
// with a byte-order mark as the search does: a UTF-8 mark dropped (not
// printed, not counted in -b's offsets), UTF-16 transcoded.
func TestInvertAndPassthruReadMarkedFilesAsRg15(t *testing.T) {
	t.Parallel()
	rg, bin := testtool.ReferenceRg(t), buildRg(t, "")
	dir := t.TempDir()
	testtool.WriteTree(t, dir, map[string]string{
		"utf8bom.txt": "\xef\xbb\xbfline1\nline2\n",
		"utf16le.txt": "\xff\xfel\x00i\x00n\x00e\x001\x00\n\x00l\x00i\x00n\x00e\x002\x00\n\x00",
		"utf16be.txt": "\xfe\xff\x00l\x00i\x00n\x00e\x001\x00\n\x00l\x00i\x00n\x00e\x002\x00\n",
	})
	for _, file := range []string{"utf8bom.txt", "utf16le.txt", "utf16be.txt"} {
		for _, args := range [][]string{
			{"-U", "-v", "zzz"}, {"-U", "--passthru", "zzz"}, {"-U", "-v", "-b", "-n", "zzz"}, {"-U", "-v", "-n", "line1"},
			{"-U", "--passthru", "-o", "line"}, {"-U", "--passthru", "-b", "line1"}, {"-U", "-v", "-c", "zzz"},
		} {
			t.Run(file+" "+strings.Join(args, " "), func(t *testing.T) {
				t.Parallel()
				sameAsRg15(t, dir, rg, bin, append(args, file))
			})
		}
	}
}
