package doctor

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/rgkit/rgkit/backends"
	"github.com/rgkit/rgkit/search"
)

// Choice is the engine a consumer's search of the working directory would
// run, and why: a line for each engine tried before it or kept after it.
type Choice struct {
	For    string   `json:"for"` // "rgkit grep", "agent tools"
	Engine string   `json:"engine"`
	Why    []string `json:"why"`
}

// ChooseEngines says which engine of chain `rgkit grep` and the agent
// tools (which confine every search beneath their root) would run on a
// search of dir, for each query class of the cost table, and why. It
// only asks the engines whether they can run (Available) and the
// chain's cost model; it searches nothing.
func ChooseEngines(ctx context.Context, chain *search.Chain, dir string) []Choice {
	examples := backends.ClassExamples(dir)
	grep := choose(ctx, chain, examples, nil)
	grep.For = "rgkit grep"
	out := []Choice{grep}
	if held, err := os.OpenRoot(dir); err == nil {
		defer held.Close()
		tools := choose(ctx, chain, examples, held)
		tools.For = "agent tools"
		tools.Why = append(tools.Why, "each search is confined beneath the workspace root, which only an in-process engine can hold, so it goes first")
		out = append(out, tools)
	}
	return out
}

// choose runs the chain's Order on each example and names the first
// available engine; engines the cost model put after it say by how much.
func choose(ctx context.Context, chain *search.Chain, examples []search.Query, confine *os.Root) Choice {
	var c Choice
	byClass := map[string][]string{} // engine -> classes it answers
	costs := map[string][]string{}   // deferred engine -> "class N×"
	reasons := map[string]string{}   // engine -> why it cannot run
	var order []string
	for _, q := range examples {
		nq, err := search.Normalize(q)
		if err != nil {
			continue
		}
		nq.Confine = confine
		chosen := ""
		for _, e := range chain.Order(ctx, nq) {
			if !slices.Contains(order, e.Name()) {
				order = append(order, e.Name())
			}
			if cost, later := chain.Deferred(e, nq); later {
				costs[e.Name()] = append(costs[e.Name()], fmt.Sprintf("%s %.1f×", backends.ClassName(q), cost))
			}
			if chosen != "" {
				continue
			}
			if _, err := e.Available(ctx); err != nil {
				first, _, _ := strings.Cut(err.Error(), "\n")
				reasons[e.Name()] = "unavailable: " + first
				continue
			}
			chosen = e.Name()
			byClass[chosen] = append(byClass[chosen], backends.ClassName(q))
		}
	}
	var answer []string
	for _, name := range order {
		if classes, ok := byClass[name]; ok {
			answer = append(answer, name)
			c.Why = append(c.Why, fmt.Sprintf("%s: answers (%s)", name, strings.Join(classes, ", ")))
			continue
		}
		if r, ok := reasons[name]; ok {
			c.Why = append(c.Why, name+": "+r)
			continue
		}
		if cs, ok := costs[name]; ok {
			c.Why = append(c.Why, fmt.Sprintf("%s: tried after native, measured slower (%s native's time)", name, strings.Join(cs, ", ")))
			continue
		}
		c.Why = append(c.Why, name+": answers only what "+strings.Join(answer, ", ")+" declines")
	}
	c.Engine = strings.Join(answer, ", ")
	return c
}
