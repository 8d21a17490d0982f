//go:build gc && !purego

package scan

import (
	"fmt"
	"testing"
)

// TestNibbleByteLoop: with the vector code turned off, as on a processor
// without AVX2, markBits still marks what the definition says, and the
// Markdown scan of every real document finds the candidates it finds with
// the vector code.
func TestNibbleByteLoop(t *testing.T) {
	vector := vectorBits
	defer func() { vectorBits = vector }()
	if !vector {
		t.Log("no AVX2: the byte loop is all there is, and TestNibbleBits checks it")
	}
	// The definition before the corpus, which is not beside every
	// checkout: without it the byte loop over whole blocks went untested.
	vectorBits = false
	checkNibbleRandom(t)
	docs := realworldMarkdown(t)
	vectorBits = vector
	want := make([]string, len(docs))
	for i, doc := range docs {
		want[i] = fmt.Sprint(Scan(doc, "markdown").Candidates)
	}
	vectorBits = false
	for i, doc := range docs {
		if got := fmt.Sprint(Scan(doc, "markdown").Candidates); got != want[i] {
			t.Fatalf("document %d: without AVX2\n%s\nwith\n%s", i, got, want[i])
		}
	}
}
