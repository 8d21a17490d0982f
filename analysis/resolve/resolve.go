// Package resolve resolves a relative URL against a base URL by the algorithm
// of RFC 1808 §4 ("Resolving Relative URLs"), after splitting both into the
// components of RFC 1808 §2.4 ("Parsing a URL").
//
// It is RFC 1808 on purpose, not RFC 3986 §5.2, and the two give different
// answers (the examples are RFC 1808 §5, base http://a/b/c/d;p?q#f):
//
//   - A reference that starts with a scheme is absolute (§4 step 2b), the
//     base's own scheme included: "http:g" stays "http:g" (§5.2).
//   - A ".." that would climb above the top of the path stays in it (§4 step
//     6 removes only "<segment>/../" with a <segment> other than ".."):
//     "../../../g" is http://a/../g (§5.2).
//   - A path that starts with "/" is taken as it is (§4 step 4), dots and all:
//     "/./g" is http://a/./g (§5.2).
//   - <params> start at the first ";" of the path (§2.4.5) and are not part of
//     it (§4, after step 7): ";x" keeps the base path, http://a/b/c/d;x (§5.1),
//     and "g;x=1/../y" keeps its params as written.
//   - §4 steps 3 and 5 inherit a component unless the reference's is
//     "non-empty", so an empty query inherits the base's: "?" is
//     http://a/b/c/d;p?q.
//
// The package does no I/O and never panics: every string splits into some
// URL, and every pair of URLs resolves.
package resolve

import (
	"errors"
	"strings"
)

// URL is a URL split into the RFC 1808 §2.4 components. Has* report presence
// (an empty query "?" differs from none), so that String gives back exactly
// the string that Split was given.
//
// Path is everything between the <net_loc> (or the scheme, or the start) and
// the <params>, <query> or <fragment>, with its leading "/" when there is one:
// RFC 1808 §2.4.6 says the slash is not part of the path, but the parser must
// remember it, "often ... by simply storing the preceding slash along with the
// path". So http://a/b/c/d;p?q#f has Path "/b/c/d" and g;x has Path "g".
type URL struct {
	Scheme, NetLoc, Path, Params, Query, Fragment          string
	HasScheme, HasNetLoc, HasParams, HasQuery, HasFragment bool
}

// Split breaks s into its components by the RFC 1808 §2.4 parsing rules,
// applied in the RFC's order. It accepts any string; what it cannot place is
// path.
func Split(s string) URL {
	var u URL
	// RFC 1808 §2.4.1: the fragment is everything after the first "#".
	if i := strings.IndexByte(s, '#'); i >= 0 {
		u.Fragment, u.HasFragment = s[i+1:], true
		s = s[:i]
	}
	// RFC 1808 §2.4.2: a colon after the first character, with only scheme
	// characters before it, ends the scheme.
	if i := strings.IndexByte(s, ':'); i > 0 && isScheme(s[:i]) {
		u.Scheme, u.HasScheme = s[:i], true
		s = s[i+1:]
	}
	// RFC 1808 §2.4.3: "//" starts the net_loc, which runs to the next "/".
	// It can hold ";" and "?" (net_loc = *( pchar | ";" | "?" ), §2.2):
	// http://a?q has net_loc "a?q" and no query.
	if strings.HasPrefix(s, "//") {
		s = s[2:]
		i := strings.IndexByte(s, '/')
		if i < 0 {
			i = len(s)
		}
		u.NetLoc, u.HasNetLoc = s[:i], true
		s = s[i:]
	}
	// RFC 1808 §2.4.4: the query is everything after the first "?".
	if i := strings.IndexByte(s, '?'); i >= 0 {
		u.Query, u.HasQuery = s[i+1:], true
		s = s[:i]
	}
	// RFC 1808 §2.4.5: the params are everything after the first ";".
	if i := strings.IndexByte(s, ';'); i >= 0 {
		u.Params, u.HasParams = s[i+1:], true
		s = s[:i]
	}
	// RFC 1808 §2.4.6: what is left is the path, with its leading "/".
	u.Path = s
	return u
}

// isScheme reports whether s is made only of the characters RFC 1808 §2.4.2
// allows in a scheme name: letters, digits, "+", "." and "-".
func isScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '+', c == '.', c == '-':
		default:
			return false
		}
	}
	return true
}

// String recombines the components (RFC 1808 §4 step 7). A component is
// written, with its delimiter, when it is present or non-empty, so a URL built
// by hand without the Has* fields prints as expected.
func (u URL) String() string {
	var b strings.Builder
	if u.hasScheme() {
		b.WriteString(u.Scheme)
		b.WriteByte(':')
	}
	if u.hasNetLoc() {
		b.WriteString("//")
		b.WriteString(u.NetLoc)
	}
	b.WriteString(u.Path)
	if u.hasParams() {
		b.WriteByte(';')
		b.WriteString(u.Params)
	}
	if u.hasQuery() {
		b.WriteByte('?')
		b.WriteString(u.Query)
	}
	if u.HasFragment || u.Fragment != "" {
		b.WriteByte('#')
		b.WriteString(u.Fragment)
	}
	return b.String()
}

func (u URL) hasScheme() bool { return u.HasScheme || u.Scheme != "" }
func (u URL) hasNetLoc() bool { return u.HasNetLoc || u.NetLoc != "" }
func (u URL) hasParams() bool { return u.HasParams || u.Params != "" }
func (u URL) hasQuery() bool  { return u.HasQuery || u.Query != "" }

// isEmpty reports whether u is the empty string (RFC 1808 §4 steps 1 and 2a).
func (u URL) isEmpty() bool { return u.String() == "" }

// Resolve resolves ref against base by RFC 1808 §4 and returns the absolute
// form. An empty base is "unknown" and leaves ref as it is (§4 step 1). The
// only error is a base that cannot serve: one with no scheme, since a base URL
// must be absolute (RFC 1808 §3) and step 2c would have no scheme to pass on.
func Resolve(base, ref string) (string, error) {
	if base == "" {
		return ref, nil // RFC 1808 §4 step 1
	}
	b := Split(base)
	if !b.HasScheme {
		return "", errors.New("base URL has no scheme")
	}
	return ResolveURL(b, Split(ref)).String(), nil
}

// ResolveURL resolves ref against base by RFC 1808 §4 steps 1 to 6; the
// result's String is step 7. It does not check base: with a base that has no
// scheme the result has none either.
func ResolveURL(base, ref URL) URL {
	// RFC 1808 §4 step 1: an empty (unknown) base leaves ref absolute.
	if base.isEmpty() {
		return ref
	}
	// Step 2a: an empty reference is the whole base, fragment included (the
	// only case that inherits a fragment, §4 after step 7).
	if ref.isEmpty() {
		return base
	}
	// Step 2b: a reference with a scheme is absolute, whatever the scheme:
	// "http:g" is http:g (RFC 1808 §5.2), not RFC 3986's http://a/b/c/g.
	if ref.hasScheme() {
		return ref
	}
	// Step 2c: it inherits the scheme of the base.
	ref.Scheme, ref.HasScheme = base.Scheme, base.hasScheme()
	// Step 3: a non-empty net_loc ends the work (the path is used as it is,
	// dots and all); otherwise the base's net_loc, if any, is inherited.
	if ref.NetLoc != "" {
		return ref
	}
	if base.hasNetLoc() {
		ref.NetLoc, ref.HasNetLoc = base.NetLoc, true
	}
	// Step 4: a path preceded by "/" is not relative.
	if strings.HasPrefix(ref.Path, "/") {
		return ref
	}
	// Step 5: an empty path inherits the base path, then (a) the base params
	// unless ref's are non-empty, in which case we stop, then (b) the base
	// query unless ref's is non-empty.
	if ref.Path == "" {
		ref.Path = base.Path
		if ref.Params != "" {
			return ref
		}
		if base.hasParams() {
			ref.Params, ref.HasParams = base.Params, true
		}
		if ref.Query != "" {
			return ref
		}
		if base.hasQuery() {
			ref.Query, ref.HasQuery = base.Query, true
		}
		return ref
	}
	// Step 6: the base path without its last segment, then ref's path.
	path := base.Path[:strings.LastIndexByte(base.Path, '/')+1] + ref.Path
	if ref.hasNetLoc() && !strings.HasPrefix(path, "/") {
		// A base like http://a has an empty path. Under a net_loc the path
		// must be absolute (RFC 1808 §2.2: net_path = "//" net_loc
		// [ abs_path ]), so the slash that separates them is supplied here;
		// http://a with g is http://a/g, not http://ag.
		path = "/" + path
	}
	ref.Path = removeDotSegments(path)
	return ref
}

// removeDotSegments applies RFC 1808 §4 step 6 a-d to a merged path. The
// RFC's string rewriting is done on a segment stack, which the RFC allows
// ("some systems may find it more efficient to implement Step 6 as a pair of
// segment stacks being merged"); the tests check the two agree.
//
// The leading "/" is not part of the path (RFC 1808 §2.4.6), so it is set
// aside first: the empty string before it is no <segment> that a ".." could
// remove, which is why "../../../g" ends as http://a/../g (§5.2).
func removeDotSegments(path string) string {
	root := ""
	if strings.HasPrefix(path, "/") {
		root, path = "/", path[1:]
	}
	segs := strings.Split(path, "/")
	last := len(segs) - 1
	// Step 6a: every "./" whose "." is a complete segment is removed, that
	// is every "." segment but the last.
	// Step 6c: then, leftmost first and repeatedly, every "<segment>/../"
	// whose <segment> is not "..": a ".." that has a "/" after it (is not the
	// last segment) cancels the segment before it, unless that is "..".
	// Doing 6c in the same pass as 6a is safe: 6b only touches the last
	// segment, which 6c never removes.
	out := make([]string, 0, len(segs))
	for i, s := range segs {
		switch {
		case s == "." && i < last:
			// 6a
		case s == ".." && i < last && len(out) > 0 && out[len(out)-1] != "..":
			out = out[:len(out)-1] // 6c
		default:
			out = append(out, s)
		}
	}
	n := len(out)
	// Step 6b: a final "." segment is removed; the "/" before it stays.
	if out[n-1] == "." {
		out[n-1] = ""
	}
	// Step 6d: a final "<segment>/.." whose <segment> is not ".." is removed,
	// once; the "/" before <segment> stays.
	if n >= 2 && out[n-1] == ".." && out[n-2] != ".." {
		out = append(out[:n-2], "")
	}
	return root + strings.Join(out, "/")
}
