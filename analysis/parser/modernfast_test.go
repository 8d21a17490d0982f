package parser

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/urlls/urlls/analysis/grammar"
)

// modernByMatcher is ParseRFC3986 without its fast path: the general
// matcher's tree or error.
func modernByMatcher(input string, relative bool) (*grammar.Tree, error) {
	t := new(grammar.Tree)
	if err := matchRFC3986(input, relative, strings.ToLower(Scheme(input)), t); err != nil {
		return nil, err
	}
	return t, nil
}

// modernAgreement compares ParseRFC3986 with its fast path and without on
// one input; it returns "" when they agree: the same tree, or the same
// error.
func modernAgreement(in string) string {
	scheme := strings.ToLower(Scheme(in))
	want, wantErr := modernByMatcher(in, false)
	if nodes, ok := parseModernFast(in, scheme, nil); ok {
		fastTree := grammar.Tree{Input: in, Nodes: nodes}
		if wantErr != nil && webHostMissing(in, scheme, modernStartRules[scheme], &fastTree) == nil {
			return "fast path accepts, matcher says " + wantErr.Error() + "\nfast tree:\n" + fastTree.String()
		}
		if wantErr == nil && fastTree.String() != want.String() {
			return "trees differ\nfast:\n" + fastTree.String() + "\nmatcher:\n" + want.String()
		}
	}
	got, gotErr := ParseRFC3986(in, false)
	// ParseRFC3986Into answers the same into a tree that held another
	// URL's nodes.
	into := grammar.Tree{Input: "x", Nodes: make([]grammar.Node, 5, 40)}
	if err := ParseRFC3986Into(in, false, &into); errorString(err) != errorString(gotErr) {
		return "ParseRFC3986Into error " + errorString(err) + ", ParseRFC3986 error " + errorString(gotErr)
	} else if err == nil && into.String() != got.String() {
		return "ParseRFC3986Into tree differs\n" + into.String() + "\nParseRFC3986:\n" + got.String()
	}
	switch {
	case errorString(gotErr) != errorString(wantErr):
		return "ParseRFC3986 error " + errorString(gotErr) + ", matcher error " + errorString(wantErr)
	case gotErr == nil && got.String() != want.String():
		return "ParseRFC3986 tree differs\n" + got.String() + "\nmatcher:\n" + want.String()
	}
	return ""
}

// modernCases are URLs RFC 1738 rejects that RFC 3986 may accept, in the
// forms the fast path parses and next to them.
var modernCases = []string{
	"https://example.com?q=1", "http://u:p@[::1]:80/a/b%41?x#f", "http://u%41:@h%41:/a?b%41", "http://1.2.3.4/",
	"http://[1:2:3:4:5:6:1.2.3.4]", "http://[1::2:3]", "http://[a:b::c:d:e:f:1.2.3.4]", "http://[::]", "http://[V1a.x:y]",
	"http://[1:2:3:4:5:6:7:8]", "foo:", "foo:?q#f%41", "foo://h", "mailto:a%41@b?s=x#f", "foo://u@h:1/a?q", "http://h?",
	"http://h#x", "foo:a/b/", "http://[::1]/a%zz", "http://[::ffff:1.2.3.4]:8080/", "http://[fe80::1%25eth0]/",
	"http://[::1", "http://[::1]x", "http://[::1]:8a/", "http://[v1.]/", "http://[v.x]/", "http://[vz.x]/", "http://[1:2:3:4:5:6:7:8:9]/",
	"http://[1::2::3]/", "http://[1:::2]/", "http://[12345::]/", "http://[::1.2.3]/", "http://[1.2.3.4::]/", "http://[::256.1.1.1]/",
	"http://[::01.1.1.1]/", "http://[1:2:3:4:5:6:7::]/", "http://[::2:3:4:5:6:7:8]/", "http://[1:2:3:4:5:6:7:8::]/",
	"http://[1:2:3:4:5::1.2.3.4]/", "http://[1:2:3:4:5:6::1.2.3.4]/", "http://[::1:2:3:4:5:1.2.3.4]/", "http://[::1:2:3:4:5:6:1.2.3.4]/",
	"http://a@b@c/", "http://@h/", "http://:80/", "http:///", "http://", "http://h:/", "http://h:8/?a/b?c", "http://h/a?b#c#d",
	"http://h/a?b#c%zz", "http://h/a?b#%41", "https://my_host.example.com/", "http://01.2.3.4/", "http://1.2.3.04/",
	"http://255.255.255.255/", "http://256.1.1.1/", "http://1.2.3.4.5/", "http://1.2.3/", "http://h.-a/", "HTTP://H/%7e",
	"foo:/", "foo://", "foo:///a", "foo:/a//b", "foo:a:b", "foo:%zz", "foo:/%zz", "foo:?%", "foo:#%", "foo:#a#b",
	"urn:isbn:0451450523", "git+ssh://git@github.com/a/b.git", "1a:b", "a b:c", "foo://[::1]:x", "mailto:a@b@c",
	"file:///a", "http:/a", "http:a", "https:", "http://h/a b", "http://h/{x}", "http://h/é", "http://h%4/",
	"http://h/%4", "foo://h/%4", "foo://u:p@h:80/a;b?c#d", "tel:+1-201-555-0123", "data:text/plain,a%20b",
}

func TestModernFastAgreesWithMatcher(t *testing.T) {
	inputs := append(append(corpusInputs(t), generatedURLs(3000)...), modernCases...)
	fast := 0
	for _, in := range inputs {
		if msg := modernAgreement(in); msg != "" {
			t.Errorf("%q: %s", in, msg)
		}
		if _, ok := parseModernFast(in, strings.ToLower(Scheme(in)), nil); ok {
			fast++
		}
	}
	t.Logf("%d inputs, %d on the fast path", len(inputs), fast)
	if fast < len(inputs)/3 {
		t.Errorf("only %d of %d inputs on the fast path", fast, len(inputs))
	}
}

// TestModernFastOnRandomURLs compares the fast path with the matcher on
// random inputs over the bytes that decide how RFC 3986 reads an authority
// and a path: IP literals, userinfo, ports, escapes and delimiters.
func TestModernFastOnRandomURLs(t *testing.T) {
	r := rand.New(rand.NewPCG(3986, 1))
	prefixes := []string{"http://", "https://", "HTTP://", "foo:", "foo://", "mailto:", "x-y.z:", "http://["}
	pieces := []string{"a", "F", "1", "9", "0", "25", "255", "256", "-", ".", ":", "::", "/", "//", "?", "#", "@", "[", "]",
		"%", "%4", "%41", "%zz", "v1.", "ffff", "12345", "1.2.3.4", "!", "$", "~", "_", " ", "{", "é"}
	for i := 0; i < 100000; i++ {
		var sb strings.Builder
		sb.WriteString(prefixes[r.IntN(len(prefixes))])
		for n := r.IntN(10); n >= 0; n-- {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		if msg := modernAgreement(sb.String()); msg != "" {
			t.Fatalf("%q: %s", sb.String(), msg)
		}
	}
}

// FuzzModernFast looks for an input where the fast path and the general
// matcher disagree.
func FuzzModernFast(f *testing.F) {
	for _, s := range modernCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if msg := modernAgreement(in); msg != "" {
			t.Errorf("%q: %s", in, msg)
		}
	})
}

// TestParseRFC3986IntoAllocatesNothing: into a tree with room, a URL the
// fast path parses costs no allocation (the checks parse every URL RFC 1738
// rejects again this way, 40,000 on a line at times).
func TestParseRFC3986IntoAllocatesNothing(t *testing.T) {
	var tree grammar.Tree
	for _, in := range []string{"https://example.com?q=1", "http://u:p@[::1]:80/a/b%41?x#f", "http://1.2.3.4/a?b=/c", "foo://u@h:1/a?q#f"} {
		if err := ParseRFC3986Into(in, false, &tree); err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if n := testing.AllocsPerRun(100, func() { ParseRFC3986Into(in, false, &tree) }); n != 0 {
			t.Errorf("%q: %v allocations a parse, want 0", in, n)
		}
	}
}
