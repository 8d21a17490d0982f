package resolve

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// rfc1808Base is the base URL of every RFC 1808 §5 example.
const rfc1808Base = "http://a/b/c/d;p?q#f"

// rfc1808Examples are RFC 1808 §5.1 and §5.2, verbatim: the relative URL and
// the URL it resolves to against rfc1808Base ("<>" in the RFC is the empty
// reference).
var rfc1808Examples = []struct{ section, ref, want string }{
	// §5.1 Normal Examples
	{"5.1", "g:h", "g:h"},
	{"5.1", "g", "http://a/b/c/g"},
	{"5.1", "./g", "http://a/b/c/g"},
	{"5.1", "g/", "http://a/b/c/g/"},
	{"5.1", "/g", "http://a/g"},
	{"5.1", "//g", "http://g"},
	{"5.1", "?y", "http://a/b/c/d;p?y"},
	{"5.1", "g?y", "http://a/b/c/g?y"},
	{"5.1", "g?y/./x", "http://a/b/c/g?y/./x"},
	{"5.1", "#s", "http://a/b/c/d;p?q#s"},
	{"5.1", "g#s", "http://a/b/c/g#s"},
	{"5.1", "g#s/./x", "http://a/b/c/g#s/./x"},
	{"5.1", "g?y#s", "http://a/b/c/g?y#s"},
	{"5.1", ";x", "http://a/b/c/d;x"},
	{"5.1", "g;x", "http://a/b/c/g;x"},
	{"5.1", "g;x?y#s", "http://a/b/c/g;x?y#s"},
	{"5.1", ".", "http://a/b/c/"},
	{"5.1", "./", "http://a/b/c/"},
	{"5.1", "..", "http://a/b/"},
	{"5.1", "../", "http://a/b/"},
	{"5.1", "../g", "http://a/b/g"},
	{"5.1", "../..", "http://a/"},
	{"5.1", "../../", "http://a/"},
	{"5.1", "../../g", "http://a/g"},
	// §5.2 Abnormal Examples: "An empty reference resolves to the complete
	// base URL".
	{"5.2", "", "http://a/b/c/d;p?q#f"},
	// "the '..' syntax cannot be used to change the <net_loc> of a URL".
	{"5.2", "../../../g", "http://a/../g"},
	{"5.2", "../../../../g", "http://a/../../g"},
	// "." and ".." that are not complete components of a relative path.
	{"5.2", "/./g", "http://a/./g"},
	{"5.2", "/../g", "http://a/../g"},
	{"5.2", "g.", "http://a/b/c/g."},
	{"5.2", ".g", "http://a/b/c/.g"},
	{"5.2", "g..", "http://a/b/c/g.."},
	{"5.2", "..g", "http://a/b/c/..g"},
	// Unnecessary or nonsensical "." and ".." complete path segments.
	{"5.2", "./../g", "http://a/b/g"},
	{"5.2", "./g/.", "http://a/b/c/g/"},
	{"5.2", "g/./h", "http://a/b/c/g/h"},
	{"5.2", "g/../h", "http://a/b/c/h"},
	// The scheme of the base repeated: "a loophole in prior specifications
	// of partial URLs [1] [that] should be avoided by future parsers". The
	// reference starts with a scheme name, so it is absolute (§4 step 2b).
	{"5.2", "http:g", "http:g"},
	{"5.2", "http:", "http:"},
}

func TestRFC1808Examples(t *testing.T) {
	if len(rfc1808Examples) != 24+15 {
		t.Fatalf("%d examples, RFC 1808 §5 has 24 normal and 15 abnormal ones", len(rfc1808Examples))
	}
	for _, tc := range rfc1808Examples {
		t.Run(tc.section+"/<"+tc.ref+">", func(t *testing.T) {
			got, err := Resolve(rfc1808Base, tc.ref)
			if err != nil || got != tc.want {
				t.Errorf("Resolve(%q, %q) = %q, %v; RFC 1808 §%s says %q", rfc1808Base, tc.ref, got, err, tc.section, tc.want)
			}
		})
	}
}

func TestSplit(t *testing.T) {
	tests := []struct {
		name, in string
		want     URL
	}{
		{"rfc1808 base", "http://a/b/c/d;p?q#f", URL{Scheme: "http", NetLoc: "a", Path: "/b/c/d", Params: "p", Query: "q", Fragment: "f",
			HasScheme: true, HasNetLoc: true, HasParams: true, HasQuery: true, HasFragment: true}},
		{"empty", "", URL{}},
		{"relative path", "g", URL{Path: "g"}},
		{"params query fragment", "g;x?y#s", URL{Path: "g", Params: "x", Query: "y", Fragment: "s", HasParams: true, HasQuery: true, HasFragment: true}},
		{"params only", ";x", URL{Params: "x", HasParams: true}},
		{"empty delimiters", ";?#", URL{HasParams: true, HasQuery: true, HasFragment: true}},
		// §2.4.1 to §2.4.5: each component starts at the first delimiter.
		{"first hash", "a#b#c", URL{Path: "a", Fragment: "b#c", HasFragment: true}},
		{"first question mark", "a?b?c", URL{Path: "a", Query: "b?c", HasQuery: true}},
		{"first semicolon", "a;b;c", URL{Path: "a", Params: "b;c", HasParams: true}},
		{"semicolon in query", "a;b?c;d", URL{Path: "a", Params: "b", Query: "c;d", HasParams: true, HasQuery: true}},
		{"question mark in fragment", "a#b?c", URL{Path: "a", Fragment: "b?c", HasFragment: true}},
		// §2.4.2: the colon must follow the first character, with only
		// scheme characters (alnum "+" "." "-") before it.
		{"scheme chars", "svn+ssh.x-1:y", URL{Scheme: "svn+ssh.x-1", Path: "y", HasScheme: true}},
		{"digit scheme", "1:x", URL{Scheme: "1", Path: "x", HasScheme: true}},
		{"leading colon", ":x", URL{Path: ":x"}},
		{"slash before colon", "./this:that", URL{Path: "./this:that"}},
		{"colon in first segment", "this:that", URL{Scheme: "this", Path: "that", HasScheme: true}},
		{"colon after hash", "a#b:c", URL{Path: "a", Fragment: "b:c", HasFragment: true}},
		{"colon after query", "a?b:c", URL{Path: "a", Query: "b:c", HasQuery: true}},
		{"scheme only", "http:", URL{Scheme: "http", HasScheme: true}},
		// §2.4.3: the net_loc runs from "//" to the next "/", so it can hold
		// ";" and "?" (RFC 1808 §2.2: net_loc = *( pchar | ";" | "?" )).
		{"net_loc only", "//g", URL{NetLoc: "g", HasNetLoc: true}},
		{"empty net_loc", "///g", URL{Path: "/g", HasNetLoc: true}},
		{"net_loc with query", "http://a?q", URL{Scheme: "http", NetLoc: "a?q", HasScheme: true, HasNetLoc: true}},
		{"net_loc with params", "//g;p/x", URL{NetLoc: "g;p", Path: "/x", HasNetLoc: true}},
		{"net_loc with fragment", "//g#s", URL{NetLoc: "g", Fragment: "s", HasNetLoc: true, HasFragment: true}},
		{"net_loc without scheme before colon", "//a:80/x", URL{NetLoc: "a:80", Path: "/x", HasNetLoc: true}},
		// §2.4.6: the leading slash is kept with the path.
		{"absolute path", "/a/b", URL{Path: "/a/b"}},
		{"scheme and path", "news:comp.lang", URL{Scheme: "news", Path: "comp.lang", HasScheme: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Split(tc.in)
			if got != tc.want {
				t.Errorf("Split(%q) =\n%+v, want\n%+v", tc.in, got, tc.want)
			}
			if s := got.String(); s != tc.in {
				t.Errorf("Split(%q).String() = %q", tc.in, s)
			}
		})
	}
}

func TestString(t *testing.T) {
	tests := []struct {
		name string
		in   URL
		want string
	}{
		{"zero", URL{}, ""},
		{"present but empty", URL{HasScheme: true, HasNetLoc: true, HasParams: true, HasQuery: true, HasFragment: true}, "://;?#"},
		{"built by hand", URL{Scheme: "http", NetLoc: "a", Path: "/b", Params: "p", Query: "q", Fragment: "f"}, "http://a/b;p?q#f"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.in.String(); got != tc.want {
				t.Errorf("%+v.String() = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestResolveSteps walks RFC 1808 §4 step by step, with bases the §5
// examples do not cover.
func TestResolveSteps(t *testing.T) {
	tests := []struct {
		name, base, ref, want string
	}{
		// Step 1: an empty base is unknown; the reference is taken as it is.
		{"step1 empty base relative", "", "../g", "../g"},
		{"step1 empty base absolute", "", "http://a/./g", "http://a/./g"},
		{"step1 both empty", "", "", ""},
		// Step 2a: an empty reference is the whole base, fragment included.
		{"step2a no fragment", "http://a/b", "", "http://a/b"},
		{"step2a fragment", "ftp://h/d;type=d?x#top", "", "ftp://h/d;type=d?x#top"},
		// Step 2b: a scheme name makes the reference absolute, whatever it
		// is and whatever follows.
		{"step2b other scheme", rfc1808Base, "ftp:x/../y", "ftp:x/../y"},
		{"step2b same scheme upper case", rfc1808Base, "HTTP:g", "HTTP:g"},
		{"step2b same scheme query", rfc1808Base, "http:?y", "http:?y"},
		{"step2b same scheme net_loc", rfc1808Base, "http://b/./c", "http://b/./c"},
		{"step2b colon in first segment", rfc1808Base, "this:that", "this:that"},
		// RFC 1808 §5.3: a "./" before the colon keeps it a path.
		{"step2b dot slash colon", rfc1808Base, "./this:that", "http://a/b/c/this:that"},
		{"step2b escaped colon", rfc1808Base, "this%3Athat", "http://a/b/c/this%3Athat"},
		// Step 2c: the scheme is inherited.
		{"step2c other base scheme", "ftp://h/d/f", "g", "ftp://h/d/g"},
		// Step 3: a non-empty net_loc skips to step 7, so its path keeps
		// its dots; an empty one ("///") inherits the base's.
		{"step3 net_path", rfc1808Base, "//g/x/../y", "http://g/x/../y"},
		{"step3 net_loc with query", rfc1808Base, "//g?y", "http://g?y"},
		{"step3 net_loc and fragment", rfc1808Base, "//g#s", "http://g#s"},
		{"step3 empty net_loc inherits", rfc1808Base, "///g", "http://a/g"},
		{"step3 empty net_loc and path", rfc1808Base, "//", "http://a/b/c/d;p?q"},
		{"step3 base without net_loc", "news:comp.lang", "//host/x", "news://host/x"},
		// Step 4: a path preceded by "/" is used as it is.
		{"step4 dots kept", rfc1808Base, "/g/../h/./i", "http://a/g/../h/./i"},
		{"step4 params query fragment", rfc1808Base, "/g;x?y#s", "http://a/g;x?y#s"},
		{"step4 base without net_loc", "foo:a/b", "/g", "foo:/g"},
		// Step 5: an empty path inherits the base path, then the params
		// unless the reference has some (and then stops), then the query
		// unless the reference has one.
		{"step5 params", rfc1808Base, ";x", "http://a/b/c/d;x"},
		{"step5 params and query", rfc1808Base, ";x?y", "http://a/b/c/d;x?y"},
		{"step5 query", rfc1808Base, "?y", "http://a/b/c/d;p?y"},
		{"step5 query and fragment", rfc1808Base, "?y#s", "http://a/b/c/d;p?y#s"},
		{"step5 fragment", rfc1808Base, "#s", "http://a/b/c/d;p?q#s"},
		{"step5 empty fragment", rfc1808Base, "#", "http://a/b/c/d;p?q#"},
		// "non-empty" is the test, so an empty component inherits.
		{"step5 empty query inherits", rfc1808Base, "?", "http://a/b/c/d;p?q"},
		{"step5 empty params inherit", rfc1808Base, ";", "http://a/b/c/d;p?q"},
		{"step5 empty query base without query", "http://a/b", "?", "http://a/b?"},
		{"step5 base without params", "http://a/b?q", "?y", "http://a/b?y"},
		{"step5 base without params or query", "http://a/b", ";x", "http://a/b;x"},
		{"step5 base path empty", "http://a", "?y", "http://a?y"},
		{"step5 base net_loc only", "http://a", "#s", "http://a#s"},
		// Step 6: the base's last segment is replaced, and neither the
		// base's params nor its query nor its fragment is kept.
		{"step6 base params query dropped", "http://a/b;p?q#f", "g", "http://a/g"},
		{"step6 base ends in slash", "http://a/b/", "g", "http://a/b/g"},
		{"step6 base path empty", "http://a", "g", "http://a/g"},
		{"step6 base path empty dot", "http://a", ".", "http://a/"},
		{"step6 base path empty dotdot", "http://a", "../g", "http://a/../g"},
		{"step6 base path root", "http://a/", "../g", "http://a/../g"},
		{"step6 base without net_loc", "news:comp.lang.misc", "g", "news:g"},
		{"step6 base relative path", "foo:a/b/c", "../g", "foo:a/g"},
		{"step6 base relative path overflow", "foo:a/b", "../../g", "foo:../g"},
		{"step6 base without path or net_loc", "foo:", "g", "foo:g"},
		{"step6 ref params not path", rfc1808Base, "g;x=1/../y", "http://a/b/c/g;x=1/../y"},
		{"step6 ftp type param", "ftp://h/d/f;type=d", "g", "ftp://h/d/g"},
		{"step6 dotdot at top", "http://a/b", "..", "http://a/.."},
		{"step6 dotdot past top then down", "http://a/b/c", "../../../x/../g", "http://a/../../g"},
		{"step6 empty segment", "http://a/b//c", "g", "http://a/b//g"},
		{"step6 empty segment removed by dotdot", "http://a/b//c", "../g", "http://a/b/g"},
		{"step6 triple dot is a segment", "http://a/b/c", ".../../g", "http://a/b/g"},
		// Fragments are never inherited, except by the empty reference.
		{"fragment not inherited", rfc1808Base, "g", "http://a/b/c/g"},
		{"fragment not inherited by query", rfc1808Base, "?y", "http://a/b/c/d;p?y"},
		{"fragment replaced", rfc1808Base, "g#", "http://a/b/c/g#"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Resolve(tc.base, tc.ref)
			if err != nil || got != tc.want {
				t.Errorf("Resolve(%q, %q) = %q, %v; want %q", tc.base, tc.ref, got, err, tc.want)
			}
		})
	}
}

func TestResolveError(t *testing.T) {
	for _, base := range []string{"a", "/a/b", "//a/b", ":x", "./this:that", "#f", "?q"} {
		for _, ref := range []string{"", "g", "http://a/"} {
			t.Run(base+"+"+ref, func(t *testing.T) {
				got, err := Resolve(base, ref)
				if err == nil || err.Error() != "base URL has no scheme" || got != "" {
					t.Errorf("Resolve(%q, %q) = %q, %v; want error %q", base, ref, got, err, "base URL has no scheme")
				}
			})
		}
	}
}

func TestResolveURL(t *testing.T) {
	// The zero URL is the empty base of step 1 and the empty reference of
	// step 2a.
	ref := Split("../g#s")
	if got := ResolveURL(URL{}, ref); got != ref {
		t.Errorf("ResolveURL(URL{}, ref) = %+v, want ref", got)
	}
	base := Split(rfc1808Base)
	if got := ResolveURL(base, URL{}); got != base {
		t.Errorf("ResolveURL(base, URL{}) = %+v, want base", got)
	}
	// A base without a scheme is not checked here: the result has none.
	if got := ResolveURL(Split("//a/b/c"), Split("../g")).String(); got != "//a/g" {
		t.Errorf("ResolveURL(//a/b/c, ../g) = %q, want %q", got, "//a/g")
	}
	// Components built by hand without the Has* fields count as present.
	got := ResolveURL(URL{Scheme: "http", NetLoc: "a", Path: "/b/c", Query: "q"}, URL{Path: "g", Fragment: "s"})
	want := URL{Scheme: "http", NetLoc: "a", Path: "/b/g", Fragment: "s", HasScheme: true, HasNetLoc: true}
	if got != want {
		t.Errorf("ResolveURL by hand = %+v, want %+v", got, want)
	}
}

// literalStep6 is RFC 1808 §4 step 6 a-d done as the RFC words it, string
// pattern matching on the path without its leading "/", the oracle for
// removeDotSegments.
func literalStep6(path string) string {
	root := ""
	if strings.HasPrefix(path, "/") {
		root, path = "/", path[1:]
	}
	// segmentStart reports whether a complete path segment starts at i.
	segmentStart := func(p string, i int) bool { return i == 0 || p[i-1] == '/' }
	// a) All occurrences of "./", where "." is a complete path segment,
	// are removed.
	for i := 0; i+1 < len(path); {
		if path[i:i+2] == "./" && segmentStart(path, i) {
			path = path[:i] + path[i+2:]
			continue
		}
		i++
	}
	// b) If the path ends with "." as a complete path segment, that "." is
	// removed.
	if path == "." || strings.HasSuffix(path, "/.") {
		path = path[:len(path)-1]
	}
	// c) All occurrences of "<segment>/../", where <segment> is a complete
	// path segment not equal to "..", are removed, leftmost first, until no
	// matching pattern remains.
	for removed := true; removed; {
		removed = false
		for i := 0; i <= len(path); i++ {
			if !segmentStart(path, i) {
				continue
			}
			end := i + strings.IndexByte(path[i:]+"/", '/')
			if path[i:end] != ".." && strings.HasPrefix(path[end:], "/../") {
				path = path[:i] + path[end+4:]
				removed = true
				break
			}
		}
	}
	// d) If the path ends with "<segment>/..", where <segment> is a
	// complete path segment not equal to "..", that "<segment>/.." is
	// removed.
	if strings.HasSuffix(path, "/..") {
		rest := path[:len(path)-3]
		start := strings.LastIndexByte(rest, '/') + 1
		if rest[start:] != ".." {
			path = path[:start]
		}
	}
	return root + path
}

func TestRemoveDotSegments(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"6a dot slash", "/b/c/./g", "/b/c/g"},
		{"6a many", "././g/./", "g/"},
		{"6a not a segment", "/b/c/g./.g", "/b/c/g./.g"},
		{"6b final dot", "/b/c/g/.", "/b/c/g/"},
		{"6b dot alone", ".", ""},
		{"6b root dot", "/.", "/"},
		{"6c", "/b/c/../g", "/b/g"},
		{"6c iterated", "/b/c/d/../../g", "/b/g"},
		{"6c leftmost first", "a/b/../../c/../d", "d"},
		{"6c dotdot not removed", "/../g", "/../g"},
		{"6c dotdot pairs stay", "../../g", "../../g"},
		{"6c after dotdot", "../a/../g", "../g"},
		{"6c empty segment", "a//../g", "a/g"},
		{"6c triple dot", "a/.../../g", "a/g"},
		{"6c dotdot prefix is a segment", "a/..b/../g", "a/g"},
		{"6c after 6a", "a/./../g", "g"},
		{"6c final dot", "a/../.", ""},
		{"6d", "/b/c/..", "/b/"},
		{"6d to empty", "b/..", ""},
		{"6d once", "a/b/../..", ""},
		{"6d dotdot only", "..", ".."},
		{"6d dotdot dotdot", "../..", "../.."},
		{"6d after dotdot", "../a/..", "../"},
		{"6d after 6c leaves dotdot", "a/b/../../..", ".."},
		{"6d root", "/b/..", "/"},
		{"empty", "", ""},
		{"root", "/", "/"},
		{"double root", "//", "//"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := removeDotSegments(tc.in); got != tc.want {
				t.Errorf("removeDotSegments(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if got := literalStep6(tc.in); got != tc.want {
				t.Errorf("literalStep6(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestRemoveDotSegmentsExhaustive compares the segment stack with the RFC's
// string rewriting on every path of up to 10 characters made of "a", "." and
// "/", which covers every arrangement of ".", "..", "...", empty and other
// segments of that length.
func TestRemoveDotSegmentsExhaustive(t *testing.T) {
	paths := []string{""}
	for n := 0; n < 10; n++ {
		for _, p := range paths[len(paths)-pow3(n):] {
			for _, c := range []string{"a", ".", "/"} {
				paths = append(paths, p+c)
			}
		}
	}
	for _, p := range paths {
		if got, want := removeDotSegments(p), literalStep6(p); got != want {
			t.Errorf("removeDotSegments(%q) = %q, literal step 6 gives %q", p, got, want)
		}
	}
}

func pow3(n int) int {
	r := 1
	for ; n > 0; n-- {
		r *= 3
	}
	return r
}

// exception is a corpus row where RFC 1808 gives another answer than the
// corpus's implementation (both follow RFC 3986): want is RFC 1808's, why
// the rule that makes the difference.
type exception struct{ want, why string }

// Reasons shared by several rows.
const (
	whyStep2b      = "§4 step 2b: a reference with a scheme is absolute, the base's scheme included (§5.2: http:g = http:g)"
	whyOverflow    = "§4 step 6c/6d remove only <segment>/.. with <segment> not \"..\", so a \"..\" above the top stays (§5.2: ../../../g = http://a/../g)"
	whyStep4       = "§4 step 4: a path preceded by \"/\" skips step 6, dots and all (§5.2: /./g = http://a/./g)"
	whyParams      = "§2.4.5: params start at the first \";\" and are not part of the path, so step 6 leaves their \"/./\" or \"/../\" alone"
	whyEmptyPath   = "§4 step 5: \";x\" has an empty path, which inherits the base path (§5.1: ;x = http://a/b/c/d;x)"
	whyEmptyQuery  = "§4 step 5b: an empty query is not \"non-empty\", so the base query is inherited"
	whyNoBaseScm   = "§3, §4 step 2c: a base URL is absolute; one without a scheme is unusable"
	resolveFailure = "error: base URL has no scheme"
)

// cpythonExceptions are the rows of testdata/corpus/cpython-urljoin where
// urllib.parse.urljoin (RFC 3986) and RFC 1808 differ, by source_line. Every
// active test_RFC1808 row agrees with RFC 1808: the rows that do not were
// disabled upstream (SOURCE.md).
var cpythonExceptions = map[string]exception{
	"315": {"http://a/b/c/g;x=1/./y", whyParams},
	"316": {"http://a/b/c/g;x=1/../y", whyParams},
	"330": {"http://a/b/c/d;x", whyEmptyPath},
	"342": {"http://a/b/c/d;x", whyEmptyPath},
	"354": {"http://a/../g", whyOverflow},
	"361": {"http://a/../g", whyOverflow},
	"362": {"http://a/../../g", whyOverflow},
	"363": {"http://a/./g", whyStep4},
	"364": {"http://a/../g", whyStep4},
	"373": {"http://a/b/c/g;x=1/./y", whyParams},
	"374": {"http://a/b/c/g;x=1/../y", whyParams},
	"380": {"http:g", whyStep2b},
	"383": {"http://a/b/c/de;x", whyEmptyPath},
	"387": {"http:g", whyStep2b},
	"388": {"http:", whyStep2b},
	"408": {"http:g", whyStep2b},
	"409": {"http:", whyStep2b},
	"410": {"http:?y", whyStep2b},
	"411": {"http:g?y", whyStep2b},
	"412": {"http:g?y/./x", whyStep2b},
	"413": {"http:///..", whyOverflow},
	"432": {"http://a/../../f/g/", whyStep4},
	"433": {"http://a/../../f/g/", whyStep4},
	"435": {"http://a/../f/g/", whyOverflow},
	"438": {resolveFailure, whyNoBaseScm},
}

// goNetURLExceptions are the rows of testdata/corpus/go-net-url where
// net/url.ResolveReference (RFC 3986) and RFC 1808 differ, by source_line.
var goNetURLExceptions = map[string]exception{
	"1253": {"http://foo.com/../../../../quux", whyOverflow},
	"1254": {"http://foo.com/..", whyOverflow},
	"1283": {"http://foo.com/../bar%2fbaz", whyOverflow},
	"1299": {"http://a/b/c/d;x", whyEmptyPath},
	"1314": {"http://a/../g", whyOverflow},
	"1315": {"http://a/../../g", whyOverflow},
	"1316": {"http://a/./g", whyStep4},
	"1317": {"http://a/../g", whyStep4},
	"1326": {"http://a/b/c/g;x=1/./y", whyParams},
	"1327": {"http://a/b/c/g;x=1/../y", whyParams},
	"1341": {"https://a/b/c/d;p?q", whyEmptyQuery},
}

// corpusRow is one (base, relative, expected) fact of a corpus table.
type corpusRow struct{ group, base, ref, want, status, line string }

// readTSV reads a corpus table: tab-separated, "#" lines are comments. For
// the CPython table the columns are test_method, base, relative, expected,
// status, source_line; for the Go table group_comment, base, relative,
// expected, source_line.
func readTSV(t *testing.T, path string, columns int) []corpusRow {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows []corpusRow
	for n, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != columns {
			t.Fatalf("%s:%d: %d columns, want %d", path, n+1, len(f), columns)
		}
		r := corpusRow{group: f[0], base: f[1], ref: f[2], want: f[3], line: f[len(f)-1], status: "active"}
		if columns == 6 {
			r.status = f[4]
		}
		rows = append(rows, r)
	}
	return rows
}

// checkCorpus resolves each row and compares it with the corpus's answer, or
// with RFC 1808's where exceptions lists the row. It fails on an exception
// that no longer differs from the corpus, or that matches no row.
func checkCorpus(t *testing.T, rows []corpusRow, exceptions map[string]exception) {
	used := map[string]bool{}
	for _, r := range rows {
		t.Run(fmt.Sprintf("%s/L%s", r.group, r.line), func(t *testing.T) {
			want, why := r.want, ""
			if ex, ok := exceptions[r.line]; ok {
				used[r.line] = true
				if ex.want == r.want {
					t.Fatalf("listed as an exception (%s) but the corpus agrees with %q", ex.why, ex.want)
				}
				want, why = ex.want, " (RFC 1808 "+ex.why+"; the corpus says "+fmt.Sprintf("%q", r.want)+")"
			}
			got, err := Resolve(r.base, r.ref)
			if err != nil {
				got = "error: " + err.Error()
			}
			if got != want {
				t.Errorf("Resolve(%q, %q) = %q, want %q%s", r.base, r.ref, got, want, why)
			}
		})
	}
	for line, ex := range exceptions {
		if !used[line] {
			t.Errorf("exception for source line %s (%q) matches no row", line, ex.want)
		}
	}
}

// TestCPythonURLJoin runs testdata/corpus/cpython-urljoin through Resolve: the
// active test_RFC1808 rows, then the other active rows with the exceptions
// above, then the rows CPython disabled, which are RFC 1808's own answers.
func TestCPythonURLJoin(t *testing.T) {
	rows := readTSV(t, "../../testdata/corpus/cpython-urljoin/urljoin-cases.tsv", 6)
	var rfc1808, others, disabled []corpusRow
	for _, r := range rows {
		switch {
		case r.status == "commented-out":
			disabled = append(disabled, r)
		case r.status != "active":
			t.Fatalf("source line %s: unknown status %q", r.line, r.status)
		case r.group == "test_RFC1808":
			rfc1808 = append(rfc1808, r)
		default:
			others = append(others, r)
		}
	}
	// SOURCE.md: 167 rows, 154 active, of which 31 in test_RFC1808.
	if len(rows) != 167 || len(rfc1808) != 31 || len(others) != 154-31 {
		t.Fatalf("%d rows, %d active test_RFC1808, %d other active; SOURCE.md says 167, 31, 123", len(rows), len(rfc1808), len(others))
	}
	t.Run("active_test_RFC1808", func(t *testing.T) {
		for _, r := range rfc1808 {
			if _, ok := cpythonExceptions[r.line]; ok {
				t.Fatalf("source line %s: test_RFC1808 rows need no exception", r.line)
			}
		}
		checkCorpus(t, rfc1808, nil)
	})
	t.Run("active_others", func(t *testing.T) {
		checkCorpus(t, others, cpythonExceptions)
	})
	t.Run("commented_out", func(t *testing.T) {
		checkCorpus(t, disabled, nil)
	})
}

// TestGoNetURL runs testdata/corpus/go-net-url through Resolve, with the exceptions
// above.
func TestGoNetURL(t *testing.T) {
	rows := readTSV(t, "../../testdata/corpus/go-net-url/resolve-reference.tsv", 5)
	if len(rows) != 93 {
		t.Fatalf("%d rows, SOURCE.md says 93", len(rows))
	}
	checkCorpus(t, rows, goNetURLExceptions)
}

func FuzzResolve(f *testing.F) {
	for _, ex := range rfc1808Examples {
		f.Add(rfc1808Base, ex.ref)
	}
	for _, s := range [][2]string{
		{"", "g"}, {"a", "b"}, {"http://a", "../g"}, {"http:///", ".."},
		{"news:comp.lang", "g"}, {"foo:a/b", "../../g"}, {"http://a?q", ";x"},
		{"ftp://h/d;type=d", "ftp:x"}, {"http://a/b//c", "../../g"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, base, ref string) {
		// Split loses nothing.
		for _, s := range []string{base, ref} {
			if got := Split(s).String(); got != s {
				t.Fatalf("Split(%q).String() = %q", s, got)
			}
		}
		// Step 6 on a segment stack agrees with the RFC's string rewriting.
		if got, want := removeDotSegments(ref), literalStep6(ref); got != want {
			t.Fatalf("removeDotSegments(%q) = %q, literal step 6 gives %q", ref, got, want)
		}
		got, err := Resolve(base, ref)
		b, r := Split(base), Split(ref)
		switch {
		case base == "":
			// Step 1.
			if err != nil || got != ref {
				t.Fatalf("Resolve(%q, %q) = %q, %v; step 1 leaves ref unchanged", base, ref, got, err)
			}
			return
		case !b.HasScheme:
			if err == nil {
				t.Fatalf("Resolve(%q, %q) = %q, want an error for a base without scheme", base, ref, got)
			}
			return
		case err != nil:
			t.Fatalf("Resolve(%q, %q): %v", base, ref, err)
		}
		if r.HasScheme {
			// Step 2b: an absolute reference comes back unchanged; that
			// holds for a different scheme, and in RFC 1808 for the same.
			if got != ref {
				t.Fatalf("Resolve(%q, %q) = %q; an absolute reference is unchanged", base, ref, got)
			}
		}
		g := Split(got)
		if !g.HasScheme || (!r.HasScheme && g.Scheme != b.Scheme) {
			t.Fatalf("Resolve(%q, %q) = %q has not the scheme of the base", base, ref, got)
		}
		// Idempotent: the result has a scheme, so resolving it again
		// against the same base changes nothing (step 2b).
		if again, err := Resolve(base, got); err != nil || again != got {
			t.Fatalf("Resolve(%q, %q) = %q, but resolving that again gives %q, %v", base, ref, got, again, err)
		}
		// The fragment is the reference's, the base's only when the
		// reference is empty (step 2a).
		want := r
		if ref == "" {
			want = b
		}
		if g.Fragment != want.Fragment || g.HasFragment != want.HasFragment {
			t.Fatalf("Resolve(%q, %q) = %q: fragment %q, want %q", base, ref, got, g.Fragment, want.Fragment)
		}
	})
}
