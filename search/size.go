package search

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseFileSize reads rg's --max-filesize form: digits with an optional K,
// M or G suffix (powers of 1024). A size past what 64 bits hold is refused
// as rg refuses it ("size too big"), instead of wrapping into a negative
// number: 99999999999G once became a negative limit.
func ParseFileSize(s string) (int64, error) {
	num := strings.TrimSpace(s)
	shift := 0
	if num != "" {
		switch num[len(num)-1] {
		case 'K', 'k':
			shift, num = 10, num[:len(num)-1]
		case 'M', 'm':
			shift, num = 20, num[:len(num)-1]
		case 'G', 'g':
			shift, num = 30, num[:len(num)-1]
		}
	}
	if num == "" || strings.TrimLeft(num, "0123456789") != "" {
		return 0, fmt.Errorf("invalid size %q: want digits with an optional K, M or G suffix, such as 512K, 10M or 1G", s)
	}
	n, err := strconv.ParseUint(num, 10, 64)
	if err != nil || n > math.MaxInt64>>shift {
		return 0, fmt.Errorf("invalid size %q: size too big (at most %d bytes)", s, int64(math.MaxInt64))
	}
	return int64(n) << shift, nil
}
