package standards

import (
	"strings"
	"testing"
)

func TestJudge(t *testing.T) {
	tests := []struct {
		input, base string
		want        [3]string // the verdicts of RFC 1738, RFC 3986 and WHATWG, rendered
	}{
		{"http://www.example.com:8080/a%20b?q=1#top", "", [3]string{
			"accepted", "accepted", "accepted; a browser follows http://www.example.com:8080/a%20b?q=1#top"}},
		{"HTTP://Example.COM:80/a/./b/../c", "", [3]string{
			"accepted", "accepted", "accepted; a browser follows http://example.com/a/c"}},
		{"https://user@host/", "", [3]string{
			`not accepted: offset 12: unexpected "@" in domainlabel, expected alphadigit, "-", ".", ":", "/" or end of input`,
			"accepted",
			"not accepted: the input includes credentials; a browser follows https://user@host/"}},
		{"http://host:8x/", "", [3]string{
			`not accepted: offset 13: unexpected "x" in port, expected digit, "/" or end of input`,
			`not accepted: offset 13: unexpected "x" in port, expected DIGIT, path-abempty, "?" or end of input`, // not "in userinfo"
			"not accepted: the input's port is not a number; a browser follows no URL"}},
		{"http:foo", "", [3]string{
			`not accepted: offset 5: unexpected "f" in httpurl, expected "//"`,
			`not accepted: offset 5: unexpected "f" in http-URI, expected "//"`,
			"not accepted: the input's scheme is not followed by '//'; a browser follows http://foo/"}},
		{"Foo:bar", "", [3]string{"accepted", "accepted", "accepted; a browser follows foo:bar"}},
		{"http://h/a b", "", [3]string{
			`not accepted: offset 10: unexpected " " in hsegment, expected`,
			`not accepted: offset 10: unexpected " " in segment, expected`,
			"not accepted: a code point is found that is not a URL unit; a browser follows http://h/a%20b"}},
		{"http://h/é", "", [3]string{
			`not accepted: offset 9: unexpected "é" in httpurl, expected hpath`, `not accepted: offset 9: unexpected "é" in path-abempty`,
			"accepted; a browser follows http://h/%C3%A9"}},
		{"../b c.md#x", "", [3]string{
			`not accepted: offset 4: unexpected " " in segment`, `not accepted: offset 4: unexpected " "`,
			"not accepted: a code point is found that is not a URL unit; a browser resolves it against the page's URL"}},
		{"../b.md#x", "", [3]string{"accepted", "accepted", "accepted as a relative reference; a browser resolves it against the page's URL"}},
		{"../b.md#x", "file:///work/docs/a.md", [3]string{"accepted", "accepted", "accepted; a browser follows file:///work/b.md#x"}},
		{"ftp://h/f;type=q", "", [3]string{`not accepted: offset 15: unexpected "q" in ftpurl, expected ftptype`, "accepted", "accepted; a browser follows ftp://h/f;type=q"}},
		{"http://10.0.300.7/", "", [3]string{"accepted", "accepted", // a host number part above 255 is a check (host-range), not a syntax error
			"not accepted: an IPv4 address contains a part that is greater than 255; a browser follows no URL"}},
		{"http://h/%zz", "", [3]string{`not accepted: offset 10: unexpected "z" in escape, expected hex`, `not accepted: offset 10: unexpected "z" in pct-encoded, expected HEXDIG`,
			`not accepted: a code point is found that is not a URL unit ("%zz"); a browser follows http://h/%zz`}},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			vs := Judge(tt.input, tt.base)
			if len(vs) != 3 {
				t.Fatalf("%d verdicts", len(vs))
			}
			wantStd := [3]string{RFC1738, RFC3986, WHATWG}
			if strings.HasPrefix(tt.input, "..") {
				wantStd[0] = RFC1808
			}
			for i, v := range vs {
				if v.Standard != wantStd[i] {
					t.Errorf("verdict %d is %s's, want %s's", i, v.Standard, wantStd[i])
				}
				if got := v.String(); !strings.HasPrefix(got, tt.want[i]) {
					t.Errorf("%s: %s\nwant %s…", v.Standard, got, tt.want[i])
				}
				if v.Accepted != (v.Reason == "") {
					t.Errorf("%s: accepted %v with reason %q", v.Standard, v.Accepted, v.Reason)
				}
			}
		})
	}
}

// FuzzJudge: no input makes a verdict panic or come without a reason.
func FuzzJudge(f *testing.F) {
	for _, s := range []string{"", "http://a/", "a:b", "//h", "http://[::1", "file:c|/x", "\x00", "http://h/\xff", "javascript:alert(1)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, v := range Judge(in, "file:///doc.md") {
			if !v.Accepted && v.Reason == "" {
				t.Errorf("%q: %s not accepted without a reason", in, v.Standard)
			}
		}
	})
}
