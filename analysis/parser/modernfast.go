package parser

import (
	"strings"

	"github.com/urlls/urlls/analysis/grammar"
)

// The fast path of ParseRFC3986, as fast.go is Parse's: the URLs RFC 1738
// rejects are parsed again by the modern syntax, and on a line of 40,000
// URLs with an IP literal, a userinfo or a query right after the host (all
// of which only RFC 1738 rejects) the general matcher took most of a
// check's time. It parses an http or https URL (RFC 9110 §4.2) and an
// absolute URI of any other scheme but file (RFC 3986 §3), appending the
// nodes the general matcher would; anything else, and any input it would
// reject, it leaves to the matcher, which also words the error. The
// differential tests (TestModernFastAgreesWithMatcher, FuzzModernFast)
// check that where it says yes the matcher builds the same tree.

// Rules of grammar rfc3986 the fast path builds nodes for.
var (
	r3986Scheme       = grammar.MustRule("rfc3986", "scheme")
	r3986HierPart     = grammar.MustRule("rfc3986", "hier-part")
	r3986Authority    = grammar.MustRule("rfc3986", "authority")
	r3986Userinfo     = grammar.MustRule("rfc3986", "userinfo")
	r3986IPLiteral    = grammar.MustRule("rfc3986", "IP-literal")
	r3986IPv6address  = grammar.MustRule("rfc3986", "IPv6address")
	r3986IPvFuture    = grammar.MustRule("rfc3986", "IPvFuture")
	r3986H16          = grammar.MustRule("rfc3986", "h16")
	r3986Ls32         = grammar.MustRule("rfc3986", "ls32")
	r3986IPv4address  = grammar.MustRule("rfc3986", "IPv4address")
	r3986DecOctet     = grammar.MustRule("rfc3986", "dec-octet")
	r3986RegName      = grammar.MustRule("rfc3986", "reg-name")
	r3986Port         = grammar.MustRule("rfc3986", "port")
	r3986PathAbempty  = grammar.MustRule("rfc3986", "path-abempty")
	r3986PathAbsolute = grammar.MustRule("rfc3986", "path-absolute")
	r3986PathRootless = grammar.MustRule("rfc3986", "path-rootless")
	r3986PathEmpty    = grammar.MustRule("rfc3986", "path-empty")
	r3986Segment      = grammar.MustRule("rfc3986", "segment")
	r3986SegmentNz    = grammar.MustRule("rfc3986", "segment-nz")
	r3986Query        = grammar.MustRule("rfc3986", "query")
	r3986PctEncoded   = grammar.MustRule("rfc3986", "pct-encoded")
)

// Byte classes of RFC 3986 Appendix A, as bits of modernClass.
const (
	mUnreserved    = 1 << iota // ALPHA DIGIT "-" "." "_" "~"
	mSubDelim                  // "!" "$" "&" "'" "(" ")" "*" "+" "," ";" "="
	mColon                     // ":"
	mAt                        // "@"
	mSlashQuestion             // "/" "?"

	mRegName  = mUnreserved | mSubDelim // reg-name, without pct-encoded
	mUserinfo = mRegName | mColon       // userinfo, IPvFuture's tail
	mPchar    = mUserinfo | mAt         // pchar
	mQuery    = mPchar | mSlashQuestion // query, fragment
)

var modernClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			t[c] = mUnreserved
		}
	}
	for _, c := range "-._~" {
		t[c] = mUnreserved
	}
	for _, c := range "!$&'()*+,;=" {
		t[c] = mSubDelim
	}
	t[':'], t['@'], t['/'], t['?'] = mColon, mAt, mSlashQuestion, mSlashQuestion
	return t
}()

// modernFast is the state of one fast-path parse by the modern syntax.
type modernFast struct {
	in    string
	nodes []grammar.Node
}

// parseModernFast tries the fast path for input, whose scheme in lower case
// is scheme, appending the tree's nodes to nodes; it returns false when the
// general matcher must decide.
func parseModernFast(input, scheme string, nodes []grammar.Node) ([]grammar.Node, bool) {
	p := modernFast{in: input, nodes: nodes}
	var ok bool
	switch {
	case scheme == "" || scheme == "file" || class[input[0]]&cAlpha == 0:
		return nodes, false // relative-ref, RFC 8089, RFC 3986's scheme
	case scheme == "http" || scheme == "https":
		ok = p.webURI(modernStartRules[scheme], len(scheme))
	default:
		ok = p.uri(len(scheme))
	}
	return p.nodes, ok
}

// open appends a node of rule r starting at pos, to be closed.
func (p *modernFast) open(r *grammar.Rule, pos int) int {
	p.nodes = appendNode(p.nodes, grammar.Node{ID: r.ID, Start: int32(pos)}, pos, p.in)
	return len(p.nodes) - 1
}

// close ends node i at end, over the nodes appended since it was opened.
func (p *modernFast) close(i, end int) {
	p.nodes[i].End, p.nodes[i].Size = int32(end), int32(len(p.nodes)-i)
}

func (p *modernFast) leaf(r *grammar.Rule, start, end int) {
	p.nodes = appendNode(p.nodes, grammar.Node{ID: r.ID, Start: int32(start), End: int32(end), Size: 1}, start, p.in)
}

// run scans the longest run of the bytes of class set and pct-encoded
// ("%" HEXDIG HEXDIG) from pos up to lim, adding a pct-encoded node for
// each escape, and returns its end.
func (p *modernFast) run(pos, lim int, set uint8) int {
	in := p.in
	for pos < lim {
		if modernClass[in[pos]]&set != 0 {
			pos++
			continue
		}
		if in[pos] == '%' && pos+2 < lim && isHex(in[pos+1]) && isHex(in[pos+2]) {
			p.leaf(r3986PctEncoded, pos, pos+3)
			pos += 3
			continue
		}
		break
	}
	return pos
}

// node scans a run of set from pos to exactly lim as a node of rule r; it
// reports false when a byte before lim is not of the run.
func (p *modernFast) node(r *grammar.Rule, pos, lim int, set uint8) bool {
	i := p.open(r, pos)
	if p.run(pos, lim, set) != lim {
		return false
	}
	p.close(i, lim)
	return true
}

// delimit returns the offset of the first byte of stops in p.in from pos,
// or len(p.in).
func (p *modernFast) delimit(pos int, stops string) int {
	if k := strings.IndexAny(p.in[pos:], stops); k >= 0 {
		return pos + k
	}
	return len(p.in)
}

// webURI parses http-URI or https-URI (root): "http" "://" authority
// path-abempty [ "?" query ], the scheme n bytes long. As ParseRFC3986 does,
// the fragment is not in the tree: it must be RFC 3986's fragment.
func (p *modernFast) webURI(root *grammar.Rule, n int) bool {
	in := p.in
	end := len(in)
	if hash := strings.IndexByte(in, '#'); hash >= 0 {
		if !validFragment(in[hash+1:]) {
			return false
		}
		end = hash
	}
	if !strings.HasPrefix(in[n:], "://") {
		return false
	}
	p.in = in[:end] // the tree ends before the fragment
	i := p.open(root, 0)
	pathEnd, ok := p.authorityPath(n + 3)
	if !ok || !p.queryFragment(pathEnd, false) {
		return false
	}
	p.close(i, end)
	return true
}

// uri parses URI, the scheme n bytes long: scheme ":" hier-part [ "?"
// query ] [ "#" fragment ], where hier-part = "//" authority path-abempty
// / path-absolute / path-rootless / path-empty.
func (p *modernFast) uri(n int) bool {
	i := p.open(rule3986URI, 0)
	p.leaf(r3986Scheme, 0, n)
	pos := n + 1
	h := p.open(r3986HierPart, pos)
	end := p.delimit(pos, "?#")
	switch {
	case strings.HasPrefix(p.in[pos:], "//"):
		var ok bool
		if end, ok = p.authorityPath(pos + 2); !ok {
			return false
		}
	case pos < end && p.in[pos] == '/':
		// path-absolute = "/" [ segment-nz *( "/" segment ) ]
		a := p.open(r3986PathAbsolute, pos)
		q := pos + 1
		if q < end {
			q = p.segmentsNz(q, end)
		}
		if q != end {
			return false
		}
		p.close(a, end)
	case pos < end:
		// path-rootless = segment-nz *( "/" segment )
		a := p.open(r3986PathRootless, pos)
		if p.segmentsNz(pos, end) != end {
			return false
		}
		p.close(a, end)
	default:
		p.leaf(r3986PathEmpty, pos, pos)
	}
	p.close(h, end)
	if !p.queryFragment(end, true) {
		return false
	}
	p.close(i, len(p.in))
	return true
}

// segmentsNz scans segment-nz *( "/" segment ) from pos up to lim and
// returns where it stopped (-1 for an empty segment-nz).
func (p *modernFast) segmentsNz(pos, lim int) int {
	i := p.open(r3986SegmentNz, pos)
	end := p.run(pos, lim, mPchar)
	if end == pos {
		return -1
	}
	p.close(i, end)
	return p.slashSegments(end, lim)
}

// slashSegments scans *( "/" segment ) from pos up to lim and returns
// where it stopped.
func (p *modernFast) slashSegments(pos, lim int) int {
	for pos < lim && p.in[pos] == '/' {
		i := p.open(r3986Segment, pos+1)
		pos = p.run(pos+1, lim, mPchar)
		p.close(i, pos)
	}
	return pos
}

// authorityPath parses authority path-abempty from pos, after "//", and
// returns where the path ends: at a "?", a "#" or the end of p.in.
func (p *modernFast) authorityPath(pos int) (int, bool) {
	e := p.delimit(pos, "/?#")
	if !p.authority(pos, e) {
		return 0, false
	}
	end := p.delimit(e, "?#")
	a := p.open(r3986PathAbempty, e)
	if p.slashSegments(e, end) != end {
		return 0, false
	}
	p.close(a, end)
	return end, true
}

// queryFragment parses [ "?" query ] at pos, to the end of p.in or, with
// fragment, to a "#" and then [ "#" fragment ] as well.
func (p *modernFast) queryFragment(pos int, fragment bool) bool {
	end := len(p.in)
	if k := strings.IndexByte(p.in[pos:], '#'); k >= 0 {
		end = pos + k
	}
	if pos < end {
		if p.in[pos] != '?' || !p.node(r3986Query, pos+1, end, mQuery) {
			return false
		}
	}
	if fragment {
		return p.fragmentAfter(end)
	}
	return end == len(p.in)
}

// fragmentAfter parses [ "#" fragment ] at pos, to the end of p.in.
func (p *modernFast) fragmentAfter(pos int) bool {
	if pos == len(p.in) {
		return true
	}
	return p.in[pos] == '#' && p.node(rule3986Fragment, pos+1, len(p.in), mQuery)
}

// validFragment reports whether s is RFC 3986's fragment.
func validFragment(s string) bool {
	for i := 0; i < len(s); i++ {
		switch {
		case modernClass[s[i]]&mQuery != 0:
		case s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			i += 2
		default:
			return false
		}
	}
	return true
}

// authority parses authority = [ userinfo "@" ] host [ ":" port ], all of
// p.in[s:e]: the bytes up to the first "/", "?" or "#", none of which an
// authority holds.
func (p *modernFast) authority(s, e int) bool {
	in := p.in
	a := p.open(r3986Authority, s)
	h := s
	// userinfo holds no "@": with one in the authority, the first ends
	// it. (Without the userinfo, the host could not hold the "@".)
	if at := strings.IndexByte(in[s:e], '@'); at >= 0 {
		if !p.node(r3986Userinfo, s, s+at, mUserinfo) {
			return false
		}
		h = s + at + 1
	}
	hn := p.open(rule3986Host, h)
	var he int
	if h < e && in[h] == '[' {
		// IP-literal = "[" ( IPv6address / IPvFuture ) "]"
		rb := strings.IndexByte(in[h:e], ']')
		if rb < 0 {
			return false
		}
		he = h + rb + 1
		l := p.open(r3986IPLiteral, h)
		if !p.ipv6(h+1, he-1) && !p.ipvFuture(h+1, he-1) {
			return false
		}
		p.close(l, he)
	} else {
		// reg-name holds no ":": the first ends the host.
		he = e
		if k := strings.IndexByte(in[h:e], ':'); k >= 0 {
			he = h + k
		}
		if !p.ipv4(h, he) && !p.node(r3986RegName, h, he, mRegName) {
			return false
		}
	}
	p.close(hn, he)
	if he < e {
		if in[he] != ':' {
			return false
		}
		for k := he + 1; k < e; k++ {
			if in[k] < '0' || in[k] > '9' {
				return false
			}
		}
		p.leaf(r3986Port, he+1, e)
	}
	p.close(a, e)
	return true
}

// ipv4 adds IPv4address and its four dec-octets when p.in[s:e] is one,
// else nothing.
func (p *modernFast) ipv4(s, e int) bool {
	var octets [4][2]int
	k := s
	for n := range 4 {
		j := k
		for j < e && j-k < 3 && '0' <= p.in[j] && p.in[j] <= '9' {
			j++
		}
		if !decOctet(p.in[k:j]) {
			return false
		}
		octets[n] = [2]int{k, j}
		if n < 3 {
			if j >= e || p.in[j] != '.' {
				return false
			}
			j++
		}
		k = j
	}
	if k != e {
		return false
	}
	i := p.open(r3986IPv4address, s)
	for _, o := range octets {
		p.leaf(r3986DecOctet, o[0], o[1])
	}
	p.close(i, e)
	return true
}

// decOctet reports whether s is a dec-octet: 0 to 255, no leading zero.
func decOctet(s string) bool {
	switch len(s) {
	case 1:
		return true
	case 2:
		return s[0] != '0'
	case 3:
		return s[0] == '1' || s[0] == '2' && (s[1] < '5' || s[1] == '5' && s[2] <= '5')
	}
	return false
}

// ipvFuture adds IPvFuture when p.in[s:e] is one: "v" 1*HEXDIG "." 1*(
// unreserved / sub-delims / ":" ) ("v" in either case, as ABNF's strings).
func (p *modernFast) ipvFuture(s, e int) bool {
	in := p.in
	if s >= e || in[s] != 'v' && in[s] != 'V' {
		return false
	}
	k := s + 1
	for k < e && isHex(in[k]) {
		k++
	}
	if k == s+1 || k >= e || in[k] != '.' || k+1 == e {
		return false
	}
	for k++; k < e; k++ {
		if modernClass[in[k]]&mUserinfo == 0 {
			return false
		}
	}
	p.leaf(r3986IPvFuture, s, e)
	return true
}

// ipv6 adds IPv6address and its h16 and ls32 nodes when p.in[s:e] is one.
// RFC 3986's nine alternatives differ in how many h16 ":" stand after the
// "::" (none in the first) and before the ls32, an h16 or nothing that ends
// them; an input matches at most one, the one its groups after "::" say,
// when there are few enough before it. The nodes are those of that
// alternative: the h16 before "::", those after it, and the ls32.
func (p *modernFast) ipv6(s, e int) bool {
	text := p.in[s:e]
	dc := strings.Index(text, "::")
	if dc >= 0 && strings.Contains(text[dc+1:], "::") {
		return false // two "::" (or ":::")
	}
	var left, right string
	if dc < 0 {
		right = text
	} else {
		left, right = text[:dc], text[dc+2:]
	}
	var groups [9][2]int // the offsets of the h16 (and the IPv4 address last)
	n := 0
	split := func(part string, at int) bool {
		if part == "" {
			return true
		}
		for {
			k := strings.IndexByte(part, ':')
			g := part
			if k >= 0 {
				g = part[:k]
			}
			if n == len(groups) || g == "" {
				return false
			}
			groups[n] = [2]int{at, at + len(g)}
			n++
			if k < 0 {
				return true
			}
			part, at = part[k+1:], at+k+1
		}
	}
	if !split(left, s) {
		return false
	}
	nLeft := n
	if !split(right, e-len(right)) {
		return false
	}
	nRight := n - nLeft
	// The last group may be an IPv4 address (an ls32); every other one
	// must be an h16.
	v4 := false
	for k := range n {
		g := p.in[groups[k][0]:groups[k][1]]
		if k == n-1 && strings.IndexByte(g, '.') >= 0 {
			v4 = true
			continue
		}
		if len(g) > 4 {
			return false
		}
		for i := 0; i < len(g); i++ {
			if !isHex(g[i]) {
				return false
			}
		}
	}
	if v4 && nRight == 0 && dc >= 0 {
		return false // an IPv4 address before "::"
	}
	// Groups after "::" before the ls32 (or the final h16), and how many
	// may stand before "::" in the alternative that has them.
	ls32 := v4 || nRight >= 2 || dc < 0
	switch {
	case dc < 0:
		// 6( h16 ":" ) ls32: eight h16, or six and an IPv4 address.
		if v4 && n != 7 || !v4 && n != 8 {
			return false
		}
	case ls32:
		// [ *k( h16 ":" ) h16 ] "::" m( h16 ":" ) ls32, m from 5 (k = -1:
		// nothing before "::") down to 0 (k = 4): at most 4-m+1 before.
		m := nRight - 2
		if v4 {
			m = nRight - 1
		}
		if m > 5 || nLeft > 5-m {
			return false
		}
	case nRight == 1:
		// [ *5( h16 ":" ) h16 ] "::" h16
		if nLeft > 6 {
			return false
		}
	default:
		// [ *6( h16 ":" ) h16 ] "::"
		if nLeft > 7 {
			return false
		}
	}
	i := p.open(r3986IPv6address, s)
	last := n
	if ls32 {
		last = n - 2
		if v4 {
			last = n - 1
		}
	}
	for k := range last {
		p.leaf(r3986H16, groups[k][0], groups[k][1])
	}
	if ls32 {
		l := p.open(r3986Ls32, groups[last][0])
		if v4 {
			if !p.ipv4(groups[last][0], groups[last][1]) {
				return false
			}
		} else {
			p.leaf(r3986H16, groups[last][0], groups[last][1])
			p.leaf(r3986H16, groups[last+1][0], groups[last+1][1])
		}
		p.close(l, groups[n-1][1])
	}
	p.close(i, e)
	return true
}
