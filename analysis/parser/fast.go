package parser

import (
	"slices"
	"strings"
	"sync"

	"github.com/urlls/urlls/analysis/grammar"
)

// The fast path: one hand-written function per start rule, scanning with a
// byte-class table and appending tree nodes as it goes. It accepts only the
// inputs for which it is sure to build the tree the general matcher builds;
// anything else (a syntax error, an odd corner) makes it give up, and Parse
// asks the general matcher instead. So the two always agree, and the fast path
// only has to be right where it says yes: the differential test and the fuzz
// target check exactly that, and the benchmarks show how often it says yes.

// Rules of the RFC 1738 §5 grammar the fast path builds nodes for.
var (
	rHttpurl     = grammar.MustRule("rfc1738", "httpurl")
	rHttpsurl    = grammar.MustRule("rfc1738", "httpsurl")
	rFtpurl      = grammar.MustRule("rfc1738", "ftpurl")
	rFileurl     = grammar.MustRule("rfc1738", "fileurl")
	rGopherurl   = grammar.MustRule("rfc1738", "gopherurl")
	rMailtourl   = grammar.MustRule("rfc1738", "mailtourl")
	rNewsurl     = grammar.MustRule("rfc1738", "newsurl")
	rNntpurl     = grammar.MustRule("rfc1738", "nntpurl")
	rTelneturl   = grammar.MustRule("rfc1738", "telneturl")
	rWaisurl     = grammar.MustRule("rfc1738", "waisurl")
	rProsperourl = grammar.MustRule("rfc1738", "prosperourl")
	rGenericurl  = grammar.MustRule("rfc1738", "genericurl")

	rScheme         = grammar.MustRule("rfc1738", "scheme")
	rSchemepart     = grammar.MustRule("rfc1738", "schemepart")
	rLogin          = grammar.MustRule("rfc1738", "login")
	rUser           = grammar.MustRule("rfc1738", "user")
	rPassword       = grammar.MustRule("rfc1738", "password")
	rHostport       = grammar.MustRule("rfc1738", "hostport")
	rHost           = grammar.MustRule("rfc1738", "host")
	rHostname       = grammar.MustRule("rfc1738", "hostname")
	rHostnumber     = grammar.MustRule("rfc1738", "hostnumber")
	rDomainlabel    = grammar.MustRule("rfc1738", "domainlabel")
	rToplabel       = grammar.MustRule("rfc1738", "toplabel")
	rPort           = grammar.MustRule("rfc1738", "port")
	rFpath          = grammar.MustRule("rfc1738", "fpath")
	rFsegment       = grammar.MustRule("rfc1738", "fsegment")
	rFtptype        = grammar.MustRule("rfc1738", "ftptype")
	rHpath          = grammar.MustRule("rfc1738", "hpath")
	rHsegment       = grammar.MustRule("rfc1738", "hsegment")
	rSearch         = grammar.MustRule("rfc1738", "search")
	rGtype          = grammar.MustRule("rfc1738", "gtype")
	rSelector       = grammar.MustRule("rfc1738", "selector")
	rEncoded822addr = grammar.MustRule("rfc1738", "encoded822addr")
	rGrouppart      = grammar.MustRule("rfc1738", "grouppart")
	rGroup          = grammar.MustRule("rfc1738", "group")
	rArticle        = grammar.MustRule("rfc1738", "article")
	rWaisdatabase   = grammar.MustRule("rfc1738", "waisdatabase")
	rWaisindex      = grammar.MustRule("rfc1738", "waisindex")
	rWaisdoc        = grammar.MustRule("rfc1738", "waisdoc")
	rDatabase       = grammar.MustRule("rfc1738", "database")
	rWtype          = grammar.MustRule("rfc1738", "wtype")
	rWpath          = grammar.MustRule("rfc1738", "wpath")
	rPpath          = grammar.MustRule("rfc1738", "ppath")
	rPsegment       = grammar.MustRule("rfc1738", "psegment")
	rFieldspec      = grammar.MustRule("rfc1738", "fieldspec")
	rFieldname      = grammar.MustRule("rfc1738", "fieldname")
	rFieldvalue     = grammar.MustRule("rfc1738", "fieldvalue")
	rEscape         = grammar.MustRule("rfc1738", "escape")
)

// Rules of the RFC 1808 §2.2 grammar.
var (
	rNetPath  = grammar.MustRule("rfc1808", "net_path")
	rAbsPath  = grammar.MustRule("rfc1808", "abs_path")
	rRelPath  = grammar.MustRule("rfc1808", "rel_path")
	rNetLoc   = grammar.MustRule("rfc1808", "net_loc")
	rPath     = grammar.MustRule("rfc1808", "path")
	rFseg1808 = grammar.MustRule("rfc1808", "fsegment")
	rSegment  = grammar.MustRule("rfc1808", "segment")
	rParams   = grammar.MustRule("rfc1808", "params")
	rParam    = grammar.MustRule("rfc1808", "param")
	rQuery    = grammar.MustRule("rfc1808", "query")
	rEsc1808  = grammar.MustRule("rfc1808", "escape")
)

// Byte classes: each bit is one character set of the grammars, escapes aside.
const (
	cUnreserved = 1 << iota // alpha / digit / safe / extra (RFC 1738 §5, RFC 1808 §2.2)
	cSemicolon              // ";"
	cSlash                  // "/"
	cQuestion               // "?"
	cColon                  // ":"
	cAt                     // "@"
	cAmp                    // "&"
	cEquals                 // "="
	cAlpha                  // alpha
	cDigit                  // digit
	cLowScheme              // lowalpha / digit / "+" / "-" / "." (RFC 1738 scheme)
	cGroup                  // alpha / digit / "-" / "." / "+" / "_" (group after its first letter)
	cHost                   // alpha / digit / "-" / "." (hostname and hostnumber bytes)
)

// The sets of the repeated productions, as unions of classes.
const (
	setReserved = cSemicolon | cSlash | cQuestion | cColon | cAt | cAmp | cEquals
	setXchar    = cUnreserved | setReserved                                // xchar
	setHseg     = cUnreserved | cSemicolon | cColon | cAt | cAmp | cEquals // hsegment, search
	setFseg     = cUnreserved | cQuestion | cColon | cAt | cAmp | cEquals  // fsegment, psegment
	setUser     = cUnreserved | cSemicolon | cQuestion | cAmp | cEquals    // user, password
	setArticle  = cUnreserved | cSemicolon | cSlash | cQuestion | cColon | cAmp | cEquals
	setField    = cUnreserved | cQuestion | cColon | cAt | cAmp // fieldname, fieldvalue
	setPchar    = cUnreserved | cColon | cAt | cAmp | cEquals   // RFC 1808 pchar
	setNetLoc   = setPchar | cSemicolon | cQuestion             // RFC 1808 net_loc
	setParam    = setPchar | cSlash                             // RFC 1808 param
	setUchar    = cUnreserved                                   // uchar without escapes
)

var class [256]uint16

func init() {
	for c := 'a'; c <= 'z'; c++ {
		class[c] |= cUnreserved | cAlpha | cLowScheme | cGroup | cHost
		class[c-'a'+'A'] |= cUnreserved | cAlpha | cGroup | cHost
	}
	for c := '0'; c <= '9'; c++ {
		class[c] |= cUnreserved | cDigit | cLowScheme | cGroup | cHost
	}
	for _, c := range "$-_.+!*'()," { // safe, extra
		class[c] |= cUnreserved
	}
	for _, c := range "+-." {
		class[c] |= cLowScheme
	}
	for _, c := range "-.+_" {
		class[c] |= cGroup
	}
	for _, c := range "-." {
		class[c] |= cHost
	}
	class[';'] |= cSemicolon
	class['/'] |= cSlash
	class['?'] |= cQuestion
	class[':'] |= cColon
	class['@'] |= cAt
	class['&'] |= cAmp
	class['='] |= cEquals
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// fast is the state of one fast-path parse.
type fast struct {
	in    string
	nodes []grammar.Node
	open  [16]int32 // indexes of the open nodes
	depth int
	// failShape and failAt are the syntax error of an input the fast path
	// rejects where it knows the general matcher's error (errors.go); nil
	// when it does not.
	failShape *shape
	failAt    int
}

// fail records that the input fails as shape s does, at offset.
func (p *fast) fail(s *shape, offset int) {
	p.failShape, p.failAt = s, offset
}

// fastPool recycles the parsers' node buffers.
var fastPool = sync.Pool{New: func() any { return &fast{nodes: make([]grammar.Node, 0, 32)} }}

// appendNode appends n to nodes, the nodes of a parse of input that has
// reached pos (growNodes makes the room).
func appendNode(nodes []grammar.Node, n grammar.Node, pos int, input string) []grammar.Node {
	if len(nodes) == cap(nodes) {
		nodes = growNodes(nodes, pos, input)
	}
	return append(nodes, n)
}

// growNodes makes room in nodes, the nodes of a parse of input that has
// reached pos. Past a thousand nodes it grows them to what the nodes so far
// predict for the whole input, at least doubling and at most four times
// over, not by a quarter: a host of 200,000 labels copied its 400,000
// nodes over and over, into fresh memory each time, for most of its check.
// Four times bounds what a dense start (empty segments, then a long run of
// letters) leaves unused in the scratch trees that keep the room.
func growNodes(nodes []grammar.Node, pos int, input string) []grammar.Node {
	k := len(nodes)
	want := 2*k + 8
	if k >= 1024 && pos > 0 {
		predicted := int(int64(k) * int64(len(input)) / int64(pos))
		want = max(want, min(predicted+predicted/8, 4*k))
	}
	return slices.Grow(nodes, want-k)
}

func (p *fast) push(r *grammar.Rule, pos int) {
	if p.depth == len(p.open) {
		// Deeper than any RFC 1738 tree: cannot happen, but never index out.
		p.depth++
		return
	}
	p.open[p.depth] = int32(len(p.nodes))
	p.depth++
	p.nodes = appendNode(p.nodes, grammar.Node{ID: r.ID, Start: int32(pos)}, pos, p.in)
}

func (p *fast) pop(pos int) {
	p.depth--
	if p.depth >= len(p.open) {
		return
	}
	i := p.open[p.depth]
	p.nodes[i].End = int32(pos)
	p.nodes[i].Size = int32(len(p.nodes)) - i
}

func (p *fast) leaf(r *grammar.Rule, start, end int) {
	p.nodes = appendNode(p.nodes, grammar.Node{ID: r.ID, Start: int32(start), End: int32(end), Size: 1}, start, p.in)
}

// run scans the longest run of bytes in set and escapes ("%" hex hex, RFC
// 1738 §2.2) from pos, adding an esc node for each escape (none when esc is
// nil), and returns its end.
// None of the sets holds "%", so an escape is never also a plain byte.
func (p *fast) run(pos int, set uint16, esc *grammar.Rule) int {
	in := p.in
	for {
		// The bytes of the set, in a loop of their own: the escapes
		// between runs are few.
		for pos < len(in) && class[in[pos]]&set != 0 {
			pos++
		}
		if pos+2 < len(in) && in[pos] == '%' && isHex(in[pos+1]) && isHex(in[pos+2]) {
			if esc != nil {
				p.leaf(esc, pos, pos+3)
			}
			pos += 3
			continue
		}
		return pos
	}
}

// runTo is run stopped at limit.
func (p *fast) runTo(pos, limit int, set uint16, esc *grammar.Rule) int {
	in := p.in
	p.in = in[:limit]
	end := p.run(pos, set, esc)
	p.in = in
	return end
}

// node scans a run of set as a node of rule r. Its only children are the
// escape leaves run adds after it, so it is closed in place, without the
// stack of open nodes (push, pop): most nodes of a tree are these.
func (p *fast) node(r *grammar.Rule, pos int, set uint16, esc *grammar.Rule) int {
	if p.depth >= len(p.open) {
		p.push(r, pos) // as deep as push stops adding nodes
		end := p.run(pos, set, esc)
		p.pop(end)
		return end
	}
	i := len(p.nodes)
	p.nodes = appendNode(p.nodes, grammar.Node{ID: r.ID, Start: int32(pos)}, pos, p.in)
	end := p.run(pos, set, esc)
	n := &p.nodes[i]
	n.End, n.Size = int32(end), int32(len(p.nodes)-i)
	return end
}

// prefix matches the case-insensitive literal lit (lower case) at pos.
func (p *fast) prefix(pos int, lit string) bool {
	if len(p.in)-pos < len(lit) {
		return false
	}
	for i := 0; i < len(lit); i++ {
		c := p.in[pos+i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lit[i] {
			return false
		}
	}
	return true
}

func (p *fast) at(pos int, c byte) bool { return pos < len(p.in) && p.in[pos] == c }

// host parses host at pos: the longest run of host bytes must be a hostname,
// or else a hostnumber (host = hostname / hostnumber). Every context a host
// stands in continues with a byte that is not a host byte, so the run is all
// of it. One pass scans the run, checks its labels and adds their nodes, as
// a hostname; a run that is none has them dropped and must be a hostnumber.
func (p *fast) host(pos int) (int, bool) {
	in := p.in
	mark, depth := len(p.nodes), p.depth
	p.push(rHost, pos)
	p.push(rHostname, pos)
	// domainlabel = alphadigit / alphadigit *( alphadigit / "-" ) alphadigit
	// toplabel    = alpha / alpha *( alphadigit / "-" ) alphadigit
	// The run holds letters, digits, "-" and "." only.
	hostname := true
	start, end := pos, pos
	for ; end < len(in); end++ {
		c := in[end]
		if class[c]&cHost == 0 {
			break
		}
		if c == '.' {
			hostname = hostname && end > start && in[start] != '-' && in[end-1] != '-'
			p.leaf(rDomainlabel, start, end)
			start = end + 1
		}
	}
	if end == pos {
		p.nodes, p.depth = p.nodes[:mark], depth
		return pos, false
	}
	if hostname && end > start && class[in[start]]&cAlpha != 0 && in[end-1] != '-' {
		p.leaf(rToplabel, start, end)
		p.pop(end)
	} else {
		p.nodes, p.depth = p.nodes[:mark+1], depth+1 // the host node alone
		if !validHostnumber(in[pos:end]) {
			p.nodes, p.depth = p.nodes[:mark], depth
			return pos, false
		}
		p.leaf(rHostnumber, pos, end)
	}
	p.pop(end)
	return end, true
}

// validHostnumber reports whether s is digits "." digits "." digits "." digits.
func validHostnumber(s string) bool {
	dots, run := 0, 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '.':
			if run == 0 {
				return false
			}
			dots++
			run = 0
		case class[s[i]]&cDigit != 0:
			run++
		default:
			return false
		}
	}
	return dots == 3 && run > 0
}

// hostport parses hostport = host [ ":" port ].
func (p *fast) hostport(pos int) (int, bool) {
	p.push(rHostport, pos)
	end, ok := p.host(pos)
	if !ok {
		p.depth--
		return pos, false
	}
	if p.at(end, ':') && end+1 < len(p.in) && class[p.in[end+1]]&cDigit != 0 {
		start := end + 1
		end = start
		for end < len(p.in) && class[p.in[end]]&cDigit != 0 {
			end++
		}
		p.leaf(rPort, start, end)
	}
	p.pop(end)
	return end, true
}

// login parses login = [ user [ ":" password ] "@" ] hostport. Neither user
// nor password holds ":" or "@", so there is a user exactly when a run of
// user bytes ends in "@", or in ":" and a run of password bytes that ends in "@".
func (p *fast) login(pos int) (int, bool) {
	mark := len(p.nodes)
	p.push(rLogin, pos)
	userEnd := p.node(rUser, pos, setUser, rEscape)
	switch {
	case p.at(userEnd, '@'):
		pos = userEnd + 1
	case p.at(userEnd, ':'):
		passEnd := p.node(rPassword, userEnd+1, setUser, rEscape)
		if p.at(passEnd, '@') {
			pos = passEnd + 1
			break
		}
		fallthrough
	default:
		p.nodes = p.nodes[:mark+1] // no user: drop the nodes scanned for it
	}
	end, ok := p.hostport(pos)
	if !ok {
		return pos, false
	}
	p.pop(end)
	return end, true
}

// slashRun parses a "/"-separated list of segments: list = seg *( "/" seg ).
func (p *fast) slashRun(list, seg *grammar.Rule, pos int, set uint16, esc *grammar.Rule) int {
	p.push(list, pos)
	end := p.node(seg, pos, set, esc)
	for p.at(end, '/') {
		end = p.node(seg, end+1, set, esc)
	}
	p.pop(end)
	return end
}

// httpurl = "http://" hostport [ "/" hpath [ "?" search ]]; httpsurl likewise.
// A failure in the path or search has the shape of errs.
func (p *fast) httpurl(r *grammar.Rule, prefix int, errs *httpShapes) bool {
	p.push(r, 0)
	pos, ok := p.hostport(prefix)
	if !ok {
		// An invalid host: the run of host bytes, which no alternative
		// gets past.
		end := prefix
		for end < len(p.in) && class[p.in[end]]&cHost != 0 {
			end++
		}
		p.hostFailure(errs.scheme, prefix, end)
		return false
	}
	switch {
	case pos == len(p.in) || p.in[pos] == '/':
	case p.in[pos] == ':':
		p.hostFailure(errs.scheme, prefix, pos+1) // ":" and no port
		return false
	default:
		p.hostFailure(errs.scheme, prefix, pos)
		return false
	}
	if p.at(pos, '/') {
		pathStart := pos + 1
		pos = p.slashRun(rHpath, rHsegment, pathStart, setHseg, rEscape)
		pathEnd, searchStart := pos, -1
		if p.at(pos, '?') {
			searchStart = pos + 1
			pos = p.node(rSearch, searchStart, setHseg, rEscape)
		}
		if pos < len(p.in) {
			p.httpFailure(errs, pos, lastSegment(p.in, pathStart, pathEnd), pathStart, searchStart)
			return false
		}
	}
	p.pop(pos)
	return pos == len(p.in)
}

// ftpurl = "ftp://" login [ "/" fpath [ ";type=" ftptype ]]
func (p *fast) ftpurl() bool {
	p.push(rFtpurl, 0)
	pos, ok := p.login(len("ftp://"))
	if !ok {
		return false
	}
	if p.at(pos, '/') {
		pos = p.slashRun(rFpath, rFsegment, pos+1, setFseg, rEscape)
		if p.prefix(pos, ";type=") && pos+7 == len(p.in) {
			switch p.in[pos+6] {
			case 'A', 'I', 'D', 'a', 'i', 'd':
				p.leaf(rFtptype, pos+6, pos+7)
				pos += 7
			}
		}
	}
	p.pop(pos)
	return pos == len(p.in)
}

// fileurl = "file://" [ host / "localhost" ] "/" fpath. A host that
// matches, "localhost" included, is a hostname: the literal alternative
// never comes into play.
func (p *fast) fileurl() bool {
	p.push(rFileurl, 0)
	pos := len("file://")
	if !p.at(pos, '/') {
		var ok bool
		if pos, ok = p.host(pos); !ok {
			return false
		}
	}
	if !p.at(pos, '/') {
		return false
	}
	pos = p.slashRun(rFpath, rFsegment, pos+1, setFseg, rEscape)
	p.pop(pos)
	return pos == len(p.in)
}

// gopherurl = "gopher://" hostport [ "/" [ gtype [ selector
//
//	[ "%09" search [ "%09" gopher+_string ] ] ] ] ]
//
// selector = *xchar takes every xchar, "%09" included, so the grammar's
// first derivation has the selector run to the end; the parser splits it at
// the first "%09" as RFC 1738 §3.4 reads it (refine.go).
func (p *fast) gopherurl() bool {
	p.push(rGopherurl, 0)
	pos, ok := p.hostport(len("gopher://"))
	if !ok {
		return false
	}
	if p.at(pos, '/') {
		pos++
		// gtype = xchar: one byte, or an escape
		switch {
		case pos < len(p.in) && class[p.in[pos]]&setXchar != 0:
			p.leaf(rGtype, pos, pos+1)
			pos++
		case p.at(pos, '%') && pos+2 < len(p.in) && isHex(p.in[pos+1]) && isHex(p.in[pos+2]):
			p.push(rGtype, pos)
			p.leaf(rEscape, pos, pos+3)
			p.pop(pos + 3)
			pos += 3
		default:
			p.pop(pos)
			return pos == len(p.in)
		}
		pos = p.selector(pos)
	}
	p.pop(pos)
	return pos == len(p.in)
}

// selector parses selector [ "%09" search [ "%09" gopher+_string ] ] to the
// end of the input, split at the first "%09" when a search follows it.
func (p *fast) selector(pos int) int {
	end := p.runTo(pos, len(p.in), setXchar, nil)
	if end != len(p.in) {
		return p.node(rSelector, pos, setXchar, rEscape) // an error: the matcher's business
	}
	// Every "%" of an xchar run starts an escape, so "%09" is one.
	tab := strings.Index(p.in[pos:end], "%09")
	if tab < 0 {
		return p.node(rSelector, pos, setXchar, rEscape)
	}
	tab += pos
	searchEnd := end
	if j := strings.Index(p.in[tab+3:end], "%09"); j >= 0 {
		searchEnd = tab + 3 + j
	}
	if p.runTo(tab+3, searchEnd, setHseg, nil) != searchEnd {
		return p.node(rSelector, pos, setXchar, rEscape) // no search: "/" or "?" after the tab
	}
	p.push(rSelector, pos)
	p.pop(p.runTo(pos, tab, setXchar, rEscape))
	p.push(rSearch, tab+3)
	p.pop(p.runTo(tab+3, searchEnd, setHseg, rEscape))
	if searchEnd == end {
		return end
	}
	return p.node(rGopherPlus, searchEnd+3, setXchar, rEscape)
}

// mailtourl = "mailto:" encoded822addr; encoded822addr = 1*xchar
func (p *fast) mailtourl() bool {
	p.push(rMailtourl, 0)
	start := len("mailto:")
	pos := p.node(rEncoded822addr, start, setXchar, rEscape)
	p.pop(pos)
	return pos > start && pos == len(p.in)
}

// newsurl = "news:" grouppart; grouppart = "*" / group / article
func (p *fast) newsurl() bool {
	p.push(rNewsurl, 0)
	start := len("news:")
	in := p.in
	p.push(rGrouppart, start)
	pos := start
	switch {
	case in[start:] == "*":
		pos++
	case start < len(in) && class[in[start]]&cAlpha != 0 && groupRun(in, start+1) == len(in):
		// group = alpha *( alpha / digit / "-" / "." / "+" / "_" ), to the end
		pos = len(in)
		p.leaf(rGroup, start, pos)
	default:
		// article = 1*( uchar / ";" / "/" / "?" / ":" / "&" / "=" ) "@" host
		p.push(rArticle, start)
		pos = p.run(start, setArticle, rEscape)
		if pos == start || !p.at(pos, '@') {
			return false
		}
		var ok bool
		if pos, ok = p.host(pos + 1); !ok {
			return false
		}
		p.pop(pos)
	}
	p.pop(pos)
	p.pop(pos)
	return pos == len(in)
}

func groupRun(in string, pos int) int {
	for pos < len(in) && class[in[pos]]&cGroup != 0 {
		pos++
	}
	return pos
}

// nntpurl = "nntp://" hostport "/" group [ "/" digits ]
func (p *fast) nntpurl() bool {
	p.push(rNntpurl, 0)
	pos, ok := p.hostport(len("nntp://"))
	if !ok || !p.at(pos, '/') || pos+1 >= len(p.in) || class[p.in[pos+1]]&cAlpha == 0 {
		return false
	}
	end := groupRun(p.in, pos+2)
	p.leaf(rGroup, pos+1, end)
	pos = end
	if p.at(pos, '/') && pos+1 < len(p.in) && class[p.in[pos+1]]&cDigit != 0 {
		pos++
		start := pos
		for pos < len(p.in) && class[p.in[pos]]&cDigit != 0 {
			pos++
		}
		p.leaf(rDigits, start, pos) // the article number (refine.go)
	}
	p.pop(pos)
	return pos == len(p.in)
}

// telneturl = "telnet://" login [ "/" ]
func (p *fast) telneturl() bool {
	p.push(rTelneturl, 0)
	pos, ok := p.login(len("telnet://"))
	if !ok {
		return false
	}
	if p.at(pos, '/') {
		pos++
	}
	p.pop(pos)
	return pos == len(p.in)
}

// waisurl = waisdatabase / waisindex / waisdoc, where
//
//	waisdatabase = "wais://" hostport "/" database
//	waisindex    = "wais://" hostport "/" database "?" search
//	waisdoc      = "wais://" hostport "/" database "/" wtype "/" wpath
//
// database = *uchar stops at "?" or "/", which picks the alternative.
func (p *fast) waisurl() bool {
	p.push(rWaisurl, 0)
	alt := len(p.nodes)
	p.push(rWaisdatabase, 0) // renamed below once the alternative is known
	pos, ok := p.hostport(len("wais://"))
	if !ok || !p.at(pos, '/') {
		return false
	}
	pos = p.node(rDatabase, pos+1, setUchar, rEscape)
	switch {
	case pos == len(p.in):
	case p.in[pos] == '?':
		p.nodes[alt].ID = rWaisindex.ID
		pos = p.node(rSearch, pos+1, setHseg, rEscape)
	case p.in[pos] == '/':
		p.nodes[alt].ID = rWaisdoc.ID
		pos = p.node(rWtype, pos+1, setUchar, rEscape)
		if !p.at(pos, '/') {
			return false
		}
		pos = p.node(rWpath, pos+1, setUchar, rEscape)
	}
	p.pop(pos)
	p.pop(pos)
	return pos == len(p.in)
}

// prosperourl = "prospero://" hostport "/" ppath *( fieldspec )
// fieldspec   = ";" fieldname "=" fieldvalue
func (p *fast) prosperourl() bool {
	p.push(rProsperourl, 0)
	pos, ok := p.hostport(len("prospero://"))
	if !ok || !p.at(pos, '/') {
		return false
	}
	pos = p.slashRun(rPpath, rPsegment, pos+1, setFseg, rEscape)
	for p.at(pos, ';') {
		p.push(rFieldspec, pos)
		end := p.node(rFieldname, pos+1, setField, rEscape)
		if !p.at(end, '=') {
			return false
		}
		pos = p.node(rFieldvalue, end+1, setField, rEscape)
		p.pop(pos)
	}
	p.pop(pos)
	return pos == len(p.in)
}

// genericurl = scheme ":" schemepart; schemepart = *xchar / ip-schemepart.
// Every ip-schemepart is also a run of xchars, and *xchar comes first, so the
// grammar's first derivation is always the *xchar alternative; the parser
// shows an ip-schemepart ("//" login [ "/" urlpath ]) as one (refine.go).
func (p *fast) genericurl() bool {
	p.push(rGenericurl, 0)
	in := p.in
	pos := 0
	for pos < len(in) && class[in[pos]]&cLowScheme != 0 {
		pos++
	}
	if pos == 0 || !p.at(pos, ':') {
		return false
	}
	p.leaf(rScheme, 0, pos)
	if end, ok := p.ipSchemepart(pos + 1); ok {
		pos = end
	} else {
		pos = p.node(rSchemepart, pos+1, setXchar, rEscape)
	}
	p.pop(pos)
	return pos == len(in)
}

// ipSchemepart parses a schemepart that is an ip-schemepart to the end of
// the input, ip-schemepart = "//" login [ "/" urlpath ]; urlpath = *xchar.
// It leaves no node when the schemepart is not one.
func (p *fast) ipSchemepart(pos int) (int, bool) {
	if !p.prefix(pos, "//") {
		return pos, false
	}
	mark, depth := len(p.nodes), p.depth
	p.push(rSchemepart, pos)
	p.push(rIPSchemepart, pos)
	end, ok := p.login(pos + 2)
	if ok && p.at(end, '/') {
		end = p.node(rUrlpath, end+1, setXchar, rEscape)
	}
	if !ok || end != len(p.in) {
		p.nodes, p.depth = p.nodes[:mark], depth
		return pos, false
	}
	p.pop(end)
	p.pop(end)
	return end, true
}

// relativeURL = net_path / abs_path / rel_path (RFC 1808 §2.2)
func (p *fast) relativeURL() bool {
	p.push(ruleRelativeURL, 0)
	var pos int
	if p.prefix(0, "//") {
		// net_path = "//" net_loc [ abs_path ]; net_loc holds no "/".
		p.push(rNetPath, 0)
		pos = p.node(rNetLoc, 2, setNetLoc, rEsc1808)
		if p.at(pos, '/') {
			pos = p.absPath(pos, nil)
		}
		p.pop(pos)
	} else if p.at(0, '/') {
		pos = p.absPath(0, &absPathErrs)
	} else {
		pos = p.relPath(0, &relPathErrs)
		if pos == 0 && len(p.in) > 0 && p.in[0] != '%' {
			// rel_path matched nothing, and net_path and abs_path start
			// with "/": the first byte is no reference's.
			p.fail(&relativeStartErr, 0)
		}
	}
	p.pop(pos)
	return pos == len(p.in)
}

// abs_path = "/" rel_path; a failure in its path has the shape of errs
// (nil for none known).
func (p *fast) absPath(pos int, errs *pathShapes) int {
	p.push(rAbsPath, pos)
	end := p.relPath(pos+1, errs)
	p.pop(end)
	return end
}

// rel_path = [ path ] [ ";" params ] [ "?" query ]
// path     = fsegment *( "/" segment ); fsegment = 1*pchar; segment = *pchar
// params   = param *( ";" param ); param = *( pchar / "/" )
//
// A failure right after the path (no params or query follow it) has the
// shape of errs, when not nil.
func (p *fast) relPath(pos int, errs *pathShapes) int {
	p.push(rRelPath, pos)
	mark := len(p.nodes)
	p.push(rPath, pos)
	pathStart := pos
	end := p.node(rFseg1808, pos, setPchar, rEsc1808)
	if end == pos {
		p.nodes = p.nodes[:mark] // fsegment needs a pchar: no path
		p.depth--
	} else {
		for p.at(end, '/') {
			end = p.node(rSegment, end+1, setPchar, rEsc1808)
		}
		p.pop(end)
		pos = end
	}
	if errs != nil && pos < len(p.in) && p.in[pos] != ';' && p.in[pos] != '?' {
		p.pathFailure(errs, pos, pathStart)
	}
	if p.at(pos, ';') {
		p.push(rParams, pos+1)
		pos = p.node(rParam, pos+1, setParam, rEsc1808)
		for p.at(pos, ';') {
			pos = p.node(rParam, pos+1, setParam, rEsc1808)
		}
		p.pop(pos)
	}
	if p.at(pos, '?') {
		pos = p.node(rQuery, pos+1, setXchar, rEsc1808)
	}
	p.pop(pos)
	return pos
}

// fragment = *( uchar / reserved ) (RFC 1808 §2.2)
func (p *fast) fragment(pos int) int {
	return p.node(ruleFragment, pos, setXchar, rEsc1808)
}

// absolute dispatches on the scheme. It reports false when the fast path
// cannot vouch for the tree.
func (p *fast) absolute(scheme string) bool {
	// Most URLs write their scheme in lower case: one comparison of the
	// bytes, before the byte-by-byte one that ignores case.
	pre := func(lit string) bool { return strings.HasPrefix(p.in, lit) || p.prefix(0, lit) }
	switch len(scheme) {
	case 4:
		switch {
		case pre("http://"):
			return p.httpurl(rHttpurl, len("http://"), httpErrs)
		case pre("file://"):
			return p.fileurl()
		case pre("news:"):
			return p.newsurl()
		case pre("nntp://"):
			return p.nntpurl()
		case pre("wais://"):
			return p.waisurl()
		}
	case 5:
		if pre("https://") {
			return p.httpurl(rHttpsurl, len("https://"), httpsErrs)
		}
	case 3:
		if pre("ftp://") {
			return p.ftpurl()
		}
	case 6:
		switch {
		case pre("gopher://"):
			return p.gopherurl()
		case pre("mailto:"):
			return p.mailtourl()
		case pre("telnet://"):
			return p.telneturl()
		}
	case 8:
		if pre("prospero://") {
			return p.prosperourl()
		}
	}
	if KnownScheme(lowerASCII(scheme)) {
		return false // a known scheme without its "//": a syntax error
	}
	return p.genericurl()
}

func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// parseFast tries the fast path; relative selects relativeURL for an input
// without a scheme. It returns false when the general matcher must decide.
func parseFast(input string, relative bool) (grammar.Tree, bool) {
	p := fastPool.Get().(*fast)
	defer fastPool.Put(p)
	p.nodes = p.nodes[:0]
	if !p.parse(input, relative) {
		return grammar.Tree{}, false
	}
	// One exact allocation, free of pointers: the tree is returned by value.
	return grammar.Tree{Input: input, Nodes: append([]grammar.Node(nil), p.nodes...)}, true
}

// parse runs the fast path over input, appending the tree's nodes to
// p.nodes; it reports false when the general matcher must decide.
func (p *fast) parse(input string, relative bool) bool {
	p.in = input
	p.depth = 0
	p.failShape = nil
	p.nodes = append(p.nodes, grammar.Node{ID: ruleURL.ID, Start: 0, End: int32(len(input))})
	body := input
	hash := splitFragment(input)
	if hash >= 0 {
		body = input[:hash]
	}
	p.in = body
	scheme := Scheme(body)
	var ok bool
	if relative && scheme == "" {
		ok = p.relativeURL()
	} else {
		ok = p.absolute(scheme)
	}
	if !ok || p.depth != 0 {
		return false
	}
	if hash >= 0 {
		p.in = input
		if end := p.fragment(hash + 1); end != len(input) {
			if input[end] == '%' {
				p.fail(&fragmentEscapeErr, escapeEnd(input, end))
			} else {
				p.fail(&fragmentErr, end)
			}
			return false
		}
	}
	p.nodes[0].Size = int32(len(p.nodes))
	return true
}

// syntaxError returns the error of the input the last parse rejected, when
// the fast path knows it (errors.go).
func (p *fast) syntaxError(input string) (*grammar.SyntaxError, bool) {
	if p.failShape == nil {
		return nil, false
	}
	err := p.failShape.at(input, p.failAt)
	return err, err != nil
}
