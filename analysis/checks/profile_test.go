package checks

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/urlls/urlls/analysis/parser"
	"github.com/urlls/urlls/analysis/scan"
)

// grammarCodes are the codes that report what a grammar rejects: the
// syntax phase's, and the character-level codes that keep a byte from
// being reported twice (a bad escape is not also a syntax error).
var grammarCodes = map[string]bool{
	codeSyntax: true, codeBadEscape: true, codeUnsafeChar: true, codeNonASCII: true, codeRFC1738Unsafe: true,
}

// TestRFC3986VerdictsChecked: under the rfc3986 grammar, every row of the
// RFC 3986 verdict table (testdata/rfc3986/verdicts.tsv, see its header
// for how the verdicts were made and checked) that RFC 3986 rejects gets a
// finding of a grammar code, and every row it accepts gets none, and no
// rfc1738-unsafe ever (there is no stricter grammar to compare with).
func TestRFC3986VerdictsChecked(t *testing.T) {
	f, err := os.Open("../../testdata/rfc3986/verdicts.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	rows := 0
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.SplitN(line, "\t", 3)
		var url string
		if err := json.Unmarshal([]byte(fields[2]), &url); err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		rows++
		accept, relative := fields[0] == "accept", fields[1] == "ref"
		if len(scan.Placeholders(url)) > 0 {
			// "http://h/a{b}" holds an RFC 6570 template, which the checks
			// leave to what it stands for under every grammar.
			continue
		}
		doc, c := candidateIn(url, relative)
		var codes []string
		rejected := false
		for _, d := range (Options{Grammar: parser.RFC3986}).CheckURL(doc, c) {
			codes = append(codes, d.Code+": "+d.Message)
			rejected = rejected || grammarCodes[d.Code]
			if d.Code == codeRFC1738Unsafe {
				t.Errorf("line %d %q: rfc1738-unsafe under rfc3986: %s", n, url, d.Message)
			}
		}
		if rejected == accept {
			t.Errorf("line %d %s %q (relative %v): findings %q", n, fields[0], url, relative, codes)
		}
	}
	if rows < 150 {
		t.Fatalf("%d rows", rows)
	}
}

// TestProfiles: what the grammar setting changes in the findings of one URL.
func TestProfiles(t *testing.T) {
	for _, tc := range []struct {
		name     string
		profile  parser.Profile
		url      string
		relative bool
		want     []got
	}{
		{name: "rfc3986/tilde", profile: parser.RFC3986, url: "http://x.com/~user/", want: nil},
		{name: "rfc3986/tilde-escaped", profile: parser.RFC3986, url: "http://x.com/%7Euser/", want: []got{
			{codeRedundantEscape, 13, "%7E", `"%7E" needlessly escapes "~"`, "http://x.com/~user/"}}},
		{name: "rfc3986/ipv6", profile: parser.RFC3986, url: "http://[2001:db8::1]:8080/a", want: nil},
		{name: "rfc3986/userinfo", profile: parser.RFC3986, url: "http://user@x.com/?a/b#c?d", want: nil},
		{name: "rfc3986/empty-port", profile: parser.RFC3986, url: "http://x.com:/a", want: nil},
		{name: "rfc3986/hostname-label", profile: parser.RFC3986, url: "http://x-.com/", want: nil},
		{name: "rfc3986/ftptype", profile: parser.RFC3986, url: "ftp://h.com/a;type=x", want: nil},
		{name: "rfc3986/bad-ipv6", profile: parser.RFC3986, url: "http://[::1::2]/", want: []got{
			{codeSyntax, 12, ":", `unexpected ":" in URI › hier-part › authority › host › IP-literal › IPv6address › ls32: expected h16 or ls32`, ""}}},
		// Not at the "/" where a userinfo wanted its "@" (authorityFailure).
		{name: "rfc3986/port", profile: parser.RFC3986, url: "http://x.com:8a/", want: []got{
			{codeSyntax, 14, "a", `unexpected "a" in URI › hier-part › authority › port: expected DIGIT or end of input`, ""}}},
		{name: "rfc3986/separator-accepted", profile: parser.RFC3986, url: "http:/x.com/a", want: nil},
		{name: "rfc3986/relative-colon", profile: parser.RFC3986, url: "a@b:c", relative: true, want: []got{
			{codeSyntax, 3, ":", `unexpected ":" in URI-reference › relative-ref › relative-part › path-noscheme › segment-nz-nc: expected unreserved, sub-delims, "@", pct-encoded, "/", "?", "#" or end of input`, ""}}},
		{name: "rfc3986/route-fragment", profile: parser.RFC3986, url: "https://x.org/#!/a#b", want: []got{
			{codeSyntax, 18, "#", `unexpected "#" in URI › fragment: expected unreserved, sub-delims, ":", "@", "/", "?", pct-encoded or end of input`, ""}}},
		{name: "xbnf/tilde", profile: parser.XBNF, url: "http://x.com/~u", want: []got{
			{codeSyntax, 13, "~", `"~" is a national character: the W3C XBNF allows none in a url`, "http://x.com/%7Eu"}}},
		{name: "xbnf/https", profile: parser.XBNF, url: "https://x.com/a?b", want: nil},
		{name: "xbnf/file", profile: parser.XBNF, url: "file:///etc/hosts", want: []got{
			{codeSyntax, 0, "file", `scheme "file" has no production in the W3C XBNF (url = httpaddress / ftpaddress / newsaddress / …)`, ""}}},
		{name: "xbnf/fragment", profile: parser.XBNF, url: "http://x.com/a#top", want: nil},
		// The XBNF has no ";type=": its ftptype follows the path at once.
		{name: "xbnf/ftptype", profile: parser.XBNF, url: "ftp://h.com/a;type=i", want: []got{
			{codeSyntax, 13, ";", `unexpected ";" in ftpaddress › path › segment: expected formcode, alpha, digit, safe, extra, escape, "/", ftptype or end of input`, ""}}},
		{name: "xbnf/separator", profile: parser.XBNF, url: "http:/x.com/a", want: []got{
			{codeSyntax, 4, ":/", `":/" after "http": the host must follow "http://"`, "http://x.com/a"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, describeWith(t, Options{Grammar: tc.profile}, tc.url, tc.relative)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.url, diff)
			}
		})
	}
}
