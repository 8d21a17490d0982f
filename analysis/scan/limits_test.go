package scan

import (
	"strings"
	"testing"
)

// TestMaxWrapperLines: a wrapper holds MaxWrapperLines line breaks, and not
// one more.
func TestMaxWrapperLines(t *testing.T) {
	for _, breaks := range []int{MaxWrapperLines, MaxWrapperLines + 1} {
		doc := "<URL:http://a.org/" + strings.Repeat("x\n", breaks) + "y>\n"
		cands := ScanPlainTextRange([]byte(doc), 0, len(doc))
		wrapped := len(cands) == 1 && cands[0].Context == Wrapped
		if wrapped != (breaks <= MaxWrapperLines) {
			t.Errorf("%d line breaks: wrapped %v (%+v)", breaks, wrapped, cands)
		}
	}
}
