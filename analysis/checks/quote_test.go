package checks

import (
	"fmt"
	"strings"
	"testing"
)

// TestMessagesBounded: whatever the length of the part of a URL that a
// message or a fix message names, the message stays short (the issue: a
// 32 KB line of bad characters gave 542 MB of JSON). Each case must report
// its code, so that the bound is checked where it matters.
func TestMessagesBounded(t *testing.T) {
	const n = 32 << 10
	var distinct strings.Builder // many different needless escapes, apart
	for i := range 2000 {
		fmt.Fprintf(&distinct, "%%%02X/", 'A'+i%26)
		fmt.Fprintf(&distinct, "%%%02X%%%02X/", 'a'+i%26, '0'+i%10)
	}
	tests := []struct {
		name, url, code string
	}{
		{"run of unsafe characters", "http://x.org/" + strings.Repeat("|", n), "unsafe-char"},
		{"scattered unsafe characters", "http://x.org/" + strings.Repeat("a^b{", n/4), "unsafe-char"},
		{"run of needless escapes", "http://x.org/" + strings.Repeat("%41", n), "redundant-escape"},
		{"distinct needless escapes", "http://x.org/" + distinct.String() + "x", "redundant-escape"},
		{"run of non-ascii characters", "http://x.org/" + strings.Repeat("é", n), "non-ascii"},
		{"invalid utf-8", "http://x.org/" + strings.Repeat("\xff", n), "non-ascii"},
		{"non-ascii label", "http://" + strings.Repeat("é", n) + ".org/", "non-ascii"},
		{"userinfo", "http://" + strings.Repeat("u", n) + "@x.org/", "rfc1738-unsafe"},
		{"password", "ftp://u:" + strings.Repeat("p", n) + "@x.corp/", "credentials"},
		{"trailing dot", "http://" + strings.Repeat("a.", n/2) + "/", "rfc1738-unsafe"},
		{"underscore", "http://" + strings.Repeat("a_", n/2) + "b/", "rfc1738-unsafe"},
		{"port", "http://x.org:" + strings.Repeat("9", n) + "/", "port-range"},
		{"host number", "http://1.2.3." + strings.Repeat("9", n) + "/", "host-range"},
		{"long unknown scheme", strings.Repeat("x", n) + "://x.org/", "unknown-scheme"},
		{"scheme case", "HTTP://x.org/" + strings.Repeat("a", n), "scheme-case"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, c := candidateIn(tc.url, false)
			found := false
			for _, d := range CheckURL(doc, c) {
				found = found || d.Code == tc.code
				if len(d.Message) > 300 {
					t.Errorf("%s: message of %d bytes: %.200q…", d.Code, len(d.Message), d.Message)
				}
				for _, f := range d.SuggestedFixes {
					if len(f.Message) > 300 {
						t.Errorf("%s: fix message of %d bytes: %.200q…", d.Code, len(f.Message), f.Message)
					}
				}
			}
			if !found {
				t.Errorf("no %s finding", tc.code)
			}
		})
	}
}

func TestQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"abc", `"abc"`},
		{strings.Repeat("|", 64), `"` + strings.Repeat("|", 64) + `"`},
		{strings.Repeat("|", 65), `"` + strings.Repeat("|", 48) + `"… (65 bytes)`},
		// Never half a character.
		{"a" + strings.Repeat("é", 40), `"a` + strings.Repeat("é", 23) + `"… (81 bytes)`},
	}
	for _, tc := range tests {
		if got := quote(tc.in); got != tc.want {
			t.Errorf("quote(%.20q…) = %s, want %s", tc.in, got, tc.want)
		}
	}
	if got := cut(strings.Repeat("%7C", 30)); got != strings.Repeat("%7C", 21)+"…" {
		t.Errorf("cut = %q", got)
	}
}
