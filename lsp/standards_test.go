package lsp

import (
	"strings"
	"testing"

	"github.com/urlls/urlls/analysis/scan"
)

func TestStandardsSection(t *testing.T) {
	for _, tt := range []struct {
		name     string
		c        scan.Candidate
		base     string
		markdown bool
		want     string
	}{
		{"plain text", scan.Candidate{Text: "http://h:99999/"}, "file:///d/a.md", false,
			"\nRFC 1738: accepted\nRFC 3986: accepted\nWHATWG URL: not accepted: the input's port is outside the range [0-65535]; a browser follows no URL"},
		{"markdown escapes and a code span", scan.Candidate{Text: "http://h/a`b?<x>"}, "", true,
			"\n\n---\n\n- RFC 1738: not accepted: offset 10: unexpected \"\\`\" in hsegment"},
		{"relative reference against the page", scan.Candidate{Text: "../b.md", Relative: true}, "file:///d/e/a.md", false,
			"\nRFC 1808: accepted\nRFC 3986: accepted\nWHATWG URL: accepted; a browser follows file:///d/b.md"},
		{"a long URL is cut", scan.Candidate{Text: "http://h/" + strings.Repeat("a", 300)}, "", false,
			"\nRFC 1738: accepted\nRFC 3986: accepted\nWHATWG URL: accepted; a browser follows http://h/" + strings.Repeat("a", maxFollowsBytes-len("http://h/")) + "…"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := standardsSection(tt.c, tt.base, tt.markdown)
			if !strings.HasPrefix(got, tt.want) {
				t.Errorf("got\n%q\nwant a prefix\n%q", got, tt.want)
			}
		})
	}
	if got := codeSpan("a`b``c"); got != "``` a`b``c ```" {
		t.Errorf("codeSpan = %q", got)
	}
	if got := codeSpan("http://h/"); got != "`http://h/`" {
		t.Errorf("codeSpan = %q", got)
	}
}
