package rgcli

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Error is a command-line error worded as rg words it (printed after
// "rg: " by the caller); exit status 2.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

func errorf(format string, args ...any) error { return &Error{Msg: fmt.Sprintf(format, args...)} }

// flag is one entry of rg's flag table.
type flag struct {
	long  string
	short byte // 0: none
	value bool // takes a value
	set   func(o *Options, v string, shown string) error
}

// Parse reads args (without the program name) as rg 15 does. Arguments
// from a config file, when the caller wants them, are passed first.
func Parse(args []string) (*Options, error) {
	o := &Options{Color: "auto"}
	var positional []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			positional = append(positional, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			f := lookupLong(name)
			if f == nil {
				return nil, errorf("unrecognized flag --%s", name)
			}
			shown := "--" + name
			if !f.value {
				if hasVal {
					return nil, errorf("invalid CLI arguments: unexpected argument for option '%s': %q", shown, val)
				}
				if err := o.apply(f, "", shown); err != nil {
					return nil, err
				}
				continue
			}
			if !hasVal {
				if i+1 >= len(args) {
					return nil, errorf("missing value for flag %s: missing argument for option '%s'", shown, shown)
				}
				i++
				val = args[i]
			}
			if err := o.apply(f, val, shown); err != nil {
				return nil, err
			}
		case len(a) > 1 && a[0] == '-':
			consumed, err := o.shortBundle(a, args[i+1:])
			if err != nil {
				return nil, err
			}
			i += consumed
		default:
			positional = append(positional, a)
		}
	}
	if len(o.Patterns) == 0 && len(o.PatternFiles) == 0 && o.Special == NoSpecial && needsPattern(o.Mode) && !o.Has("generate") {
		if len(positional) == 0 {
			return nil, errorf("ripgrep requires at least one pattern to execute a search")
		}
		o.Patterns = append(o.Patterns, positional[0])
		o.PositionalPattern = true
		positional = positional[1:]
	}
	o.Paths = positional
	if o.Mode == ModeCount && o.OnlyMatching {
		o.Mode = ModeCountMatches
	}
	return o, nil
}

// needsPattern reports whether mode m searches (and so takes PATTERN).
func needsPattern(m Mode) bool { return m.isSearch() }

// shortBundle applies one "-abc" argument; a value flag takes the rest of
// the bundle ("-C2", "-C=2") or the next argument. It returns how many of
// the following arguments it consumed.
func (o *Options) shortBundle(a string, rest []string) (int, error) {
	for j := 1; j < len(a); j++ {
		c := a[j]
		f := lookupShort(c)
		if f == nil {
			return 0, errorf("unrecognized flag -%s", string(rune(c)))
		}
		shown := "-" + string(rune(c))
		if !f.value {
			if err := o.apply(f, "", shown); err != nil {
				return 0, err
			}
			continue
		}
		if v := a[j+1:]; v != "" {
			return 0, o.apply(f, strings.TrimPrefix(v, "="), shown)
		}
		if len(rest) == 0 {
			return 0, errorf("missing value for flag %s: missing argument for option '%s'", shown, shown)
		}
		return 1, o.apply(f, rest[0], shown)
	}
	return 0, nil
}

func (o *Options) apply(f *flag, v, shown string) error {
	o.Given = append(o.Given, f.long)
	return f.set(o, v, shown)
}

var byLong map[string]*flag

func lookupLong(name string) *flag { return byLong[name] }

func lookupShort(c byte) *flag {
	for i := range flags {
		if flags[i].short == c {
			return &flags[i]
		}
	}
	return nil
}

func init() {
	byLong = make(map[string]*flag, len(flags)+len(aliases))
	for i := range flags {
		byLong[flags[i].long] = &flags[i]
	}
	for alias, name := range aliases {
		byLong[alias] = byLong[name]
	}
}

// aliases are rg's hidden alternative spellings.
var aliases = map[string]string{
	"maxdepth": "max-depth",
	"regex":    "regexp",
}

// number parses a flag's non-negative number with rg's message.
func number(v, shown string) (int, error) {
	n, err := strconv.ParseUint(v, 10, 63)
	if err != nil {
		reason := "invalid digit found in string"
		switch {
		case v == "":
			reason = "cannot parse integer from empty string"
		case errors.Is(err, strconv.ErrRange):
			reason = "number too large to fit in target type"
		}
		return 0, errorf("error parsing flag %s: value is not a valid number: %s", shown, reason)
	}
	return int(n), nil
}

// size parses NUM with an optional K, M or G suffix (rg's --max-filesize).
func size(v, shown string) (int64, error) {
	bad := errorf("error parsing flag %s: invalid size: invalid format for size '%s', which should be a non-empty sequence of digits followed by an optional 'K', 'M' or 'G' suffix", shown, v)
	num, mult := v, int64(1)
	if num != "" {
		switch num[len(num)-1] {
		case 'K':
			num, mult = num[:len(num)-1], 1<<10
		case 'M':
			num, mult = num[:len(num)-1], 1<<20
		case 'G':
			num, mult = num[:len(num)-1], 1<<30
		}
	}
	if num == "" || strings.TrimLeft(num, "0123456789") != "" {
		return 0, bad
	}
	// A size past what 64 bits hold is refused as rg refuses it, instead of
	// wrapping into a negative limit (99999999999G once did).
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n > math.MaxInt64/mult {
		return 0, errorf("error parsing flag %s: invalid size: size too big in '%s'", shown, v)
	}
	return n * mult, nil
}

// ownChoice checks the value of one of rgkit's own flags; unlike rg's
// terse message, the error lists the valid values (rg's --help does not
// know them).
func ownChoice(v, shown, long string) error {
	valid := Choices(long, nil)
	if err := choice(v, shown, valid...); err != nil {
		return errorf("%v (valid: %s)", err, strings.Join(valid, ", "))
	}
	return nil
}

// choice checks v against rg's allowed values.
func choice(v, shown string, allowed ...string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return errorf("error parsing flag %s: choice '%s' is unrecognized", shown, v)
}

func ptr[T any](v T) *T { return &v }

// setMode applies rg's mode precedence: the last mode flag wins, a search
// mode after --files or --type-list too. (rg's source says a search mode
// should not replace those, but its code replaces any mode, and rg 14 and
// 15 run `--files -l foo` as `-l foo`.)
func (o *Options) setMode(m Mode) { o.Mode = m }

// unsetMode is a --no-json style negation: back to the standard printer
// if that mode is the current one.
func (o *Options) unsetMode(m Mode) {
	if o.Mode == m {
		o.Mode = ModeStandard
	}
}
