package bench

import (
	"cmp"
	"slices"
)

// maxShown is how many differing matches a disagreement keeps to show.
const maxShown = 5

// referenceIndex picks the engine the others are compared with: ripgrep when
// present (the reference semantics are rg's), else the first.
func referenceIndex(engines []Engine) int {
	for i, e := range engines {
		if e.Info.Name == "ripgrep" {
			return i
		}
	}
	return 0
}

// compare reports every engine whose match set differs from the reference's.
// Engines that could not run the task (nil set) are not compared.
func compare(task string, engines []Engine, sets []map[Key]struct{}, ref int) []Disagreement {
	if ref >= len(sets) || sets[ref] == nil {
		return nil
	}
	var out []Disagreement
	for ei, set := range sets {
		if ei == ref || set == nil {
			continue
		}
		missing, extra := diff(sets[ref], set), diff(set, sets[ref])
		if len(missing) == 0 && len(extra) == 0 {
			continue
		}
		out = append(out, Disagreement{
			Task: task, Engine: engines[ei].Info.Name, Reference: engines[ref].Info.Name,
			Missing: first(missing), Extra: first(extra),
			MissingCount: len(missing), ExtraCount: len(extra),
		})
	}
	return out
}

// diff returns the keys of a that are not in b, sorted by path then line.
func diff(a, b map[Key]struct{}) []Key {
	var out []Key
	for k := range a {
		if _, ok := b[k]; !ok {
			out = append(out, k)
		}
	}
	slices.SortFunc(out, func(x, y Key) int {
		return cmp.Or(cmp.Compare(x.Path, y.Path), cmp.Compare(x.Line, y.Line))
	})
	return out
}

func first(keys []Key) []Key { return keys[:min(len(keys), maxShown)] }
