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
	docs := realworldMarkdown(t)
	vector := make([]string, len(docs))
	for i, doc := range docs {
		vector[i] = fmt.Sprint(Scan(doc, "markdown").Candidates)
	}
	defer func(v bool) { vectorBits = v }(vectorBits)
	vectorBits = false
	checkNibbleRandom(t)
	for i, doc := range docs {
		if got := fmt.Sprint(Scan(doc, "markdown").Candidates); got != vector[i] {
			t.Fatalf("document %d: without AVX2\n%s\nwith\n%s", i, got, vector[i])
		}
	}
}
