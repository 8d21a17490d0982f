package parser

import (
	"runtime"
	"strings"
	"testing"

	"github.com/urlls/urlls/analysis/grammar"
)

// TestLongHostGrowsNodesOnce: the nodes of a URL with a host of 200,000
// labels grow by what the nodes so far predict, four times over at most
// (growNodes), rather than by a quarter at a time, each step a copy into
// fresh memory: what the parse allocates stays within twice the tree it
// builds (by a quarter at a time it was 4.9 times).
func TestLongHostGrowsNodesOnce(t *testing.T) {
	input := "http://" + strings.Repeat("a.", 200_000) + "org/"
	var p Parser
	var tree grammar.Tree
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := p.Parse(input, &tree); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	size := uint64(cap(tree.Nodes)) * 16 // a Node is 16 bytes
	if len(tree.Nodes) < 200_000 {
		t.Fatalf("%d nodes, want a node a label at least", len(tree.Nodes))
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > size*2 {
		t.Errorf("the parse allocated %d bytes for a tree of %d nodes (%d bytes)", got, len(tree.Nodes), size)
	}
}
