package tools

import "github.com/rgkit/rgkit/backends"

// testChain is the engine chain the tool tests search with: the real
// default chain, so the tests pin down what a model gets whichever engine
// runs first here.
func testChain() Searcher {
	return backends.Default(backends.Options{})
}
