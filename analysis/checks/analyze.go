package checks

import (
	"cmp"
	"errors"
	"fmt"
	"iter"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/urlls/urlls/analysis/grammar"
	"github.com/urlls/urlls/analysis/parser"
	"github.com/urlls/urlls/analysis/scan"
	"github.com/urlls/urlls/analysis/schemes"
)

// finding is a diagnostic in the coordinates of the URL's text: CheckURL maps
// it to document offsets.
type finding struct {
	start, end int
	code, msg  string
	fixes      []fix
	// n is how many occurrences the finding stands for: an analysis that
	// only counts (summary) makes one finding of a run of n identical
	// occurrences (extendRun: bad escapes, unsafe characters, tildes,
	// non-ASCII characters, needless escapes), [start, end) covering them
	// all. 0 is one.
	n int
	// step is how far apart the starts of a run's occurrences are, when
	// they are not side by side: the bad escapes of "a%zza%zz…" are 4
	// bytes apart. 0: side by side, each as wide as the first.
	step int
}

// count returns how many occurrences f stands for.
func (f *finding) count() int { return max(f.n, 1) }

// firstEnd returns where the first occurrence of f ends.
func (f *finding) firstEnd() int {
	if f.step > 0 {
		return f.end - (f.count()-1)*f.step
	}
	return f.start + (f.end-f.start)/f.count()
}

// occurrence returns where the k-th occurrence of f starts.
func (f *finding) occurrence(k int) int {
	step := f.step
	if step == 0 {
		step = f.firstEnd() - f.start
	}
	return f.start + k*step
}

// mode is what an analysis makes of its findings.
type mode uint8

const (
	// withFixes: each finding with its fixes, for check to verify and
	// offer.
	withFixes mode = iota
	// findOnly: each finding without the fixes of characters (bad and
	// needless escapes, unsafe, tilde and non-ASCII characters: the cheap
	// and many) and of brackets (bracketFix), for verify, which looks at
	// what is found and where.
	findOnly
	// summary: as findOnly, and a run of identical findings of characters,
	// side by side or at a step, is one finding (finding.n, extendRun),
	// for check of a URL too long to verify any fix of and for a brief
	// check: merge only counts them, so a line of a hundred thousand "%"
	// costs one finding, not a hundred thousand.
	summary
)

type fix struct {
	msg   string
	edits []edit // in text order, never overlapping
}

// edit replaces text[start:end] with text.
type edit struct {
	start, end int
	text       string
}

// analyzer holds the state of the checks of one URL.
type analyzer struct {
	text     string
	relative bool
	// continued: the program completes the text after its end (reading).
	continued bool
	profile   parser.Profile // the grammar the syntax phase judges by
	brief     bool           // a brief check (reading): messages are not worded
	scheme    string         // as written, "" for none
	auth      authority      // of text
	flagged   []bool         // bytes a character-level code reported
	// anyFlagged: some byte is flagged.
	anyFlagged bool
	// masked marks the bytes of template and placeholder syntax
	// (scan.Placeholders: "{{ .URL }}", "{id}", "$HOST", "<user>"): not
	// URL text but a stand-in for it, never reported and never fixed; nil
	// when there is none.
	masked   []bool
	findings []finding
	// blocks are where the fixes of the findings are allocated
	// (analyzer.fixes, analyzer.edits): the scratch's.
	blocks *blocks
	// mode says whether the caller wants the fixes of bad escapes, and
	// whether runs of them are one finding (analyze).
	mode mode
	// Facts of the text computed once, so that what the character checks
	// ask per byte costs constant time: the host name span (host), where
	// a fragment directive starts (len(text) when none) and the "}" that
	// closes each "{" (braces, built on first use).
	hostStart, hostEnd int
	hostOK             bool
	directive          int
	braces             map[int]int
	// stop is where the syntax parse stopped for good: the start of the
	// syntax finding, or of the byte no stand-in could replace; len(text)+1
	// when the URL parsed. The parse saw nothing after it.
	stop int
	// user is the start rule of the user's grammar for the scheme
	// (Options.Schemes), nil for none: then userSyntax parses the URL.
	user *grammar.Rule
	// scratch lends flagged, the text standIns writes, the RFC 1738
	// parser and the blocks; never nil.
	scratch *scratch
}

// scratch is working memory that the analyses of the URLs of one document
// share, one analysis at a time: a URL costs its findings, not the bytes
// of its copies. None of it outlives the analysis that uses it; findings
// is where verify has the findings of a fixed text made (analyze).
type scratch struct {
	flagged  []bool
	rep      []byte
	findings []finding
	// checked is where check has the findings of its analysis made:
	// merge copies what it keeps.
	checked []finding
	blocks  blocks
	// short are blocks for the findings of a URL met for the first time
	// (urlMemo.check), used instead of blocks while inShort: the caller
	// makes diagnostics of them before the next check, which writes over
	// them, so that a document of different URLs reuses one block of
	// memory for their findings rather than a new block every few URLs.
	short   blocks
	inShort bool
	// escapeSpan and escapeMsg are the last bad escape badEscapeMessage
	// worded: most bad escapes of a document are the same ("%zz", "%"),
	// and so is their message, which depends on the span alone.
	escapeSpan, escapeMsg string
	// parser and tree parse by RFC 1738 (parse1738).
	parser parser.Parser
	tree   grammar.Tree
	// modernTree is the tree of the last parse by RFC 3986 (parseModern)
	// and err1738 the last error of parse1738.
	modernTree grammar.Tree
	err1738    grammar.SyntaxError
	// group is where merge gathers the findings of one code.
	group []finding
	// scheme is the last scheme's facts (schemeFacts).
	scheme schemeFacts
	// masked and auth are what the last analysis found of its text:
	// whether it has placeholders (analyzer.masked), and its authority.
	masked bool
	auth   authority
}

// forget drops what sc holds of the last URL it analysed (its strings,
// which are substrings of a document, and the findings its arrays still
// hold past their lengths, with their fixes), keeping its memory: the
// arrays and the rest of the blocks, whose elements are written before
// they are read.
func (sc *scratch) forget() {
	clear(sc.findings[:cap(sc.findings)])
	clear(sc.checked[:cap(sc.checked)])
	clear(sc.group[:cap(sc.group)])
	sc.escapeSpan, sc.escapeMsg = "", ""
	sc.tree.Input, sc.modernTree.Input = "", ""
	sc.err1738 = grammar.SyntaxError{}
	sc.parser = parser.Parser{} // the last input parsed, and its error's
	sc.scheme = schemeFacts{}
	sc.masked, sc.auth = false, authority{}
	sc.inShort = false
}

// retained returns about how many bytes sc's arrays hold, which grow with
// the longest URL analysed (a byte and a bool a byte of it, a finding a
// bad escape, a node a label of its host): what reusing sc for another
// document keeps alive.
func (sc *scratch) retained() int {
	const findingSize, fixSize, editSize, nodeSize = int(unsafe.Sizeof(finding{})), int(unsafe.Sizeof(fix{})), int(unsafe.Sizeof(edit{})), int(unsafe.Sizeof(grammar.Node{}))
	n := cap(sc.flagged) + cap(sc.rep)
	n += (cap(sc.findings) + cap(sc.checked) + cap(sc.group) + cap(sc.short.findings)) * findingSize
	n += cap(sc.short.fixes)*fixSize + cap(sc.short.edits)*editSize
	n += (cap(sc.tree.Nodes) + cap(sc.modernTree.Nodes)) * nodeSize
	return n
}

// blocks hold the fixes and edits of findings, and the findings merge
// keeps, a block at a time: a URL with a finding costs a part of a block,
// not allocations of its own. A block is never written again once handed
// out, so what is cut from it may live on (in urlMemo).
type blocks struct {
	fixes    []fix
	edits    []edit
	findings []finding
}

// bools returns n false values, sc's when sc is not nil.
func (sc *scratch) bools(n int) []bool {
	if sc == nil {
		return make([]bool, n)
	}
	if cap(sc.flagged) < n {
		sc.flagged = make([]bool, n)
	}
	b := sc.flagged[:n]
	clear(b)
	return b
}

// bytes returns a copy of s, in sc's memory when sc is not nil.
func (sc *scratch) bytes(s string) []byte {
	if sc == nil {
		return []byte(s)
	}
	sc.rep = append(sc.rep[:0], s...)
	return sc.rep
}

// analyze runs every check on one URL text and returns the findings in text
// order, with their fixes unverified, and where the syntax parse stopped
// (len(text)+1 when it succeeded).
//
// Order matters: the character-level codes come first, then the bytes they
// reported are replaced by stand-ins in a copy of the text before the syntax
// parse (standIns), so that one problem is never reported twice (a space in
// a host name is unsafe-char, not also syntax). The syntax phase parses by
// the grammar of the profile; under rfc1738 a URL RFC 1738 rejects is parsed
// by RFC 3986 too, and what only RFC 1738 rejects is rfc1738-unsafe
// (rfc1738Syntax).
//
// Template and placeholder syntax is left alone: the checks see the literal
// parts of the URL only, the syntax parse sees a stand-in letter for each
// masked byte, and a parse failure at a placeholder is not reported (what
// the placeholder stands for decides whether the URL parses). A URL that is
// all placeholder ("{{ .URL }}") has no findings.
//
// Without fixes (findOnly, summary: mode), the findings that are cheap to
// find and many (of characters, see mode) come without their fixes, for a
// caller that will not offer them: verify, which looks at what is found
// only, and a URL too long to verify a fix of, or a brief check.
//
// sc, when not nil, lends the analysis its working memory (scratch); nil:
// the analysis has its own.
//
// The findings are appended to into[:0], for a caller that looks at them
// and lets go (check, which merges them, and verify): into's memory is
// reused.
func analyze(text string, rd reading, m mode, sc *scratch, into []finding) (findings []finding, stop int) {
	if sc == nil {
		sc = new(scratch)
	}
	a := &analyzer{findings: into[:0], text: text, relative: rd.relative, continued: rd.continued, profile: rd.profile, brief: rd.brief, scheme: parser.Scheme(text), stop: 0, user: rd.user, mode: m, scratch: sc, blocks: sc.blocksNow()}
	a.auth = parseAuthority(text, a.scheme)
	ok := a.mask(rd)
	sc.masked, sc.auth = a.masked != nil, a.auth
	if !ok {
		return nil, len(text) + 1
	}
	a.hostStart, a.hostEnd, a.hostOK = a.host()
	a.directive = fragmentDirective(text)
	a.flagged = sc.bools(len(text))
	if n := strings.Count(text, "%"); n > 64 && m != summary {
		// Room for a finding per "%" (bad escapes, needless escapes): a
		// line of a hundred thousand "%" then builds its findings in place.
		a.findings = slices.Grow(a.findings[:0], n)
	}
	if a.profile == parser.RFC1738 && a.user == nil && strings.EqualFold(a.scheme, "javascript") {
		// After its colon a javascript: URL is script source, run by the
		// browser rather than resolved (HTML Living Standard §7.4.7,
		// "javascript: URL special case"; the URL Standard keeps it as an
		// opaque path): its spaces, quotes and parentheses are the
		// script's ("javascript:show('a', 1)"), not URL characters for a
		// check to report or escape. Only the scheme is checked, unless
		// the user chose a grammar to judge every URL by (--grammar
		// rfc3986 or xbnf, or a grammar of their own for the scheme).
		a.schemeChecks()
		return a.findings, len(text) + 1
	}
	a.characters()
	a.schemeChecks()
	a.authorityChecks()
	// Under rfc1738 a misspelt "://" is reported before the parse, which
	// would only report the same mistake less clearly; under a grammar the
	// user chose, only when that grammar rejects the URL (profileSyntax).
	if a.user != nil {
		a.userSyntax() // user.go
	} else if a.profile != parser.RFC1738 || !a.separatorTypos() {
		a.syntax()
	}
	// A run (summary) sorts as its first occurrence would. (slices', not
	// sort's: sort.SliceStable allocates a swapper each call, and this
	// runs for every URL with findings.)
	byPlace := func(f, g finding) int {
		return cmp.Or(cmp.Compare(f.start, g.start), cmp.Compare(f.firstEnd(), g.firstEnd()))
	}
	if !slices.IsSortedFunc(a.findings, byPlace) {
		slices.SortStableFunc(a.findings, byPlace)
	}
	for i := range a.findings {
		f := &a.findings[i]
		if a.masked == nil {
			continue // no placeholder for a fix to touch
		}
		kept := f.fixes[:0]
		for _, fx := range f.fixes {
			if !a.touchesPlaceholder(fx.edits) {
				kept = append(kept, fx)
			}
		}
		f.fixes = kept
	}
	return a.findings, a.stop
}

// add adds a finding. The slice doubles as it grows (append grows a large
// slice by a quarter), so that a URL of a hundred thousand findings copies
// them a few times, not dozens.
func (a *analyzer) add(f finding) {
	if len(a.findings) == cap(a.findings) && len(a.findings) >= 256 {
		a.findings = slices.Grow(a.findings, len(a.findings)+4)
	}
	a.findings = append(a.findings, f)
}

// mask marks the placeholders of the text and reports whether any URL text
// is left outside them (white space aside). Besides scan.Placeholders, a
// host name label "*" is a wildcard ("https://*.example.com/", as Content
// Security Policy sources, CORS and certificate names write them), not a
// host, a port of letters ("host:port") is a placeholder, and the spaces of
// a path that may hold them (reading.spacedPath) are no mistake.
func (a *analyzer) mask(rd reading) bool {
	holes := scan.Placeholders(a.text)
	if rd.spacedPath {
		for i := 0; i < len(a.text); i++ {
			if a.text[i] == ' ' {
				holes = append(holes, scan.Span{Start: i, End: i + 1})
			}
		}
	}
	if au := a.auth; au.ok {
		for i := au.hostStart; i < au.hostEnd; {
			j := i
			for j < au.hostEnd && a.text[j] == '*' {
				j++
			}
			if j > i && (i == au.hostStart || a.text[i-1] == '.') && (j == au.hostEnd || a.text[j] == '.') {
				holes = append(holes, scan.Span{Start: i, End: j})
			}
			if k := strings.IndexByte(a.text[j:au.hostEnd], '.'); k >= 0 {
				i = j + k + 1
			} else {
				break
			}
		}
		// A port written as a word ("http://host:port/", "…:PORT") names
		// the number to put there; a placeholder may follow it
		// ("host:port[/path]", a synopsis).
		if p := au.portStart; p >= 0 {
			pe := au.end
			for _, h := range holes {
				if h.Start >= p && h.Start < pe {
					pe = h.Start
					break
				}
			}
			if portWord(a.text[p:pe]) {
				holes = append(holes, scan.Span{Start: p, End: pe})
			}
		}
	}
	if len(holes) == 0 {
		return true
	}
	a.masked = make([]bool, len(a.text))
	for _, h := range holes {
		for i := h.Start; i < h.End; i++ {
			a.masked[i] = true
		}
	}
	for i := 0; i < len(a.text); i++ {
		if !a.masked[i] && !isSpace(a.text[i]) {
			return true
		}
	}
	return false
}

// isMasked reports whether text byte i is part of a placeholder.
func (a *analyzer) isMasked(i int) bool {
	return a.masked != nil && i >= 0 && i < len(a.masked) && a.masked[i]
}

// atPlaceholder reports whether a parse failure at text offset t is the
// placeholder's doing: t is in one, or right after one (the parse stops at
// the first byte a stand-in made wrong, or at the end of the input), or at
// the end of a URL the program continues (reading.continued).
func (a *analyzer) atPlaceholder(t int) bool {
	return a.isMasked(t) || a.isMasked(t-1) || a.continued && t >= len(a.text)
}

// touchesPlaceholder reports whether any of the edits changes a masked byte
// or inserts text inside a placeholder.
func (a *analyzer) touchesPlaceholder(edits []edit) bool {
	if a.masked == nil {
		return false
	}
	for _, e := range edits {
		for i := e.start; i < e.end; i++ {
			if a.isMasked(i) {
				return true
			}
		}
		if e.start == e.end && a.isMasked(e.start) && a.isMasked(e.start-1) {
			return true
		}
	}
	return false
}

func (a *analyzer) flag(i, j int) {
	if i < j {
		a.anyFlagged = true
	}
	for ; i < j; i++ {
		a.flagged[i] = true
	}
}

// unsafeByte reports the characters RFC 1738 §2.2 calls unsafe that no URL
// grammar admits (RFC 3986 neither): the controls, space, <"> "<" ">" "\" "^"
// "{" "}" "|" and "`". "~" is unsafe in RFC 1738 only (rfc1738-unsafe), "#"
// delimits the fragment and "%" is bad-escape's.
func unsafeByte(b byte) bool {
	switch b {
	case ' ', '"', '<', '>', '\\', '^', '{', '}', '|', '`':
		return true
	}
	return b < 0x20 || b == 0x7f
}

func isHex(b byte) bool {
	return '0' <= b && b <= '9' || 'a' <= b && b <= 'f' || 'A' <= b && b <= 'F'
}

func unhex(b byte) byte {
	switch {
	case b <= '9':
		return b - '0'
	case b >= 'a':
		return b - 'a' + 10
	}
	return b - 'A' + 10
}

func isAlnum(b byte) bool {
	return '0' <= b && b <= '9' || isAlpha(b)
}

// isAlpha reports whether b is an ASCII letter.
func isAlpha(b byte) bool {
	return 'a' <= b|0x20 && b|0x20 <= 'z'
}

// isEscape reports whether s[i:] starts with "%" hex hex (RFC 1738 §2.2).
func isEscape(s string, i int) bool {
	return i+2 < len(s) && s[i] == '%' && isHex(s[i+1]) && isHex(s[i+2])
}

// characterByte marks the bytes a character-level code looks at
// (characters): non-ASCII bytes, unsafe bytes (unsafeByte), "~" and "%".
var characterByte = func() (t [256]bool) {
	for b := range t {
		t[b] = b >= 0x80 || unsafeByte(byte(b)) || b == '~' || b == '%'
	}
	return t
}()

// characters runs the character-level codes over the text, byte by byte.
func (a *analyzer) characters() {
	s := a.text
	labelDone := -1 // end of the host label whose non-ascii finding is made
	for i := 0; i < len(s); {
		// Most bytes concern no check: they are skipped in a loop of
		// their own.
		for i < len(s) && !characterByte[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		b := s[i]
		j := i + 1
		if a.isMasked(i) {
			i = j
			continue
		}
		switch {
		case b >= 0x80:
			for j < len(s) && s[j] >= 0x80 && !a.isMasked(j) {
				j++
			}
			a.flag(i, j)
			if i < labelDone {
				break
			}
			if l0, l1, ok := a.hostLabel(i); ok {
				a.nonASCIILabel(l0, l1)
				labelDone = l1
				break
			}
			a.nonASCII(i, j)
		case unsafeByte(b):
			for j < len(s) && unsafeByte(s[j]) && !a.isMasked(j) {
				j++
			}
			a.flag(i, j)
			a.unsafeChars(i, j)
		case b == '~' && a.profile != parser.RFC3986: // RFC 3986 §2.3: unreserved
			for j < len(s) && s[j] == '~' && !a.isMasked(j) {
				j++
			}
			a.flag(i, j)
			a.tildes(i, j)
		case b == '%':
			if a.mode == summary && j < len(s) && s[j] == '%' {
				// Each "%" followed by a "%" is a bad escape of its own
				// byte: a run of them is one finding (summary), made
				// without a call for each.
				for j+1 < len(s) && s[j+1] == '%' && !a.isMasked(j) {
					j++
				}
				a.flag(i, j)
				a.badEscapeRun(i, j)
				break
			}
			if !isEscape(s, i) {
				a.flag(i, j)
				a.badEscape(i)
				break
			}
			j = i
			for isEscape(s, j) && !a.isMasked(j) && a.redundantEscape(j) {
				j += 3
			}
			if j > i {
				a.redundantEscapes(i, j)
			} else {
				j = i + 3
			}
		}
		i = j
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// unsafeChars reports the run text[i:j] of unsafe characters; the fix
// percent-encodes each byte. It also encodes the "}" that closes a "{" of
// the run: in running text a URL ends at a "}" without its "{" (as at a ")"
// that closes a parenthesis the URL stands in), so encoding the "{" alone
// would cut the rest of the URL off.
func (a *analyzer) unsafeChars(i, j int) {
	run := a.text[i:j]
	if a.mode != withFixes { // no fix (addOccurrence)
		a.addOccurrence(finding{start: i, end: j, code: codeUnsafeChar}, unsafeCharsMessage)
		return
	}
	var enc strings.Builder
	var edits []edit
	for k := i; k < j; k++ {
		e := fmt.Sprintf("%%%02X", a.text[k])
		enc.WriteString(e)
		edits = append(edits, edit{k, k + 1, e})
	}
	msg := "percent-encode as " + cut(enc.String())
	var partners []edit
	for k := i; k < j; k++ {
		if a.text[k] != '{' {
			continue
		}
		if p := a.closingBrace(k); p >= j && !a.isMasked(p) {
			partners = append(partners, edit{p, p + 1, "%7D"})
		}
	}
	if len(partners) > 0 {
		edits = append(edits, partners...)
		sort.Slice(edits, func(x, y int) bool { return edits[x].start < edits[y].start })
		msg += `, and the matching "}" as %7D`
	}
	a.add(finding{
		start: i, end: j, code: codeUnsafeChar,
		msg:   unsafeCharsMessage(run),
		fixes: []fix{{msg: msg, edits: edits}},
	})
}

// unsafeCharsMessage words a run of unsafe characters.
func unsafeCharsMessage(run string) string {
	return fmt.Sprintf("unsafe %s %s: no URL grammar allows %s unencoded", plural(len(run), "character", "characters"), quote(run), plural(len(run), "it", "them"))
}

// closingBrace returns the index of the "}" that closes the "{" at i, or -1.
// The braces of the text are matched once, with a stack, on first use.
func (a *analyzer) closingBrace(i int) int {
	if a.braces == nil {
		a.braces = map[int]int{}
		var open []int
		for k := 0; k < len(a.text); k++ {
			switch a.text[k] {
			case '{':
				open = append(open, k)
			case '}':
				if n := len(open); n > 0 {
					a.braces[open[n-1]] = k
					open = open[:n-1]
				}
			}
		}
	}
	if p, ok := a.braces[i]; ok {
		return p
	}
	return -1
}

func (a *analyzer) tildes(i, j int) {
	f := finding{
		start: i, end: j, code: codeRFC1738Unsafe,
		msg: `"~" is unsafe in RFC 1738 (RFC 3986 made it unreserved)`,
	}
	if a.profile == parser.XBNF {
		// The XBNF: "The national and punctuation characters do not appear
		// in any productions and therefore may not appear in URLs."
		f.code = codeSyntax
		f.msg = `"~" is a national character: the W3C XBNF allows none in a url`
	}
	if a.inFragmentDirective(i) {
		// A text fragment's ":~:" (WICG Scroll to Text Fragment) is the
		// directive's delimiter: encoded, it is no directive.
		f.msg += `; here it delimits a fragment directive (":~:"), which must stay as written`
	} else if a.mode == withFixes {
		var edits []edit
		for k := i; k < j; k++ {
			edits = append(edits, edit{k, k + 1, "%7E"})
		}
		f.fixes = []fix{{msg: "encode ~ as %7E", edits: edits}}
	}
	a.addOccurrence(f, nil)
}

// addOccurrence adds f, a finding of characters, with its fixes when the
// analysis makes them (withFixes); an analysis that only counts (summary)
// adds it to the run of the same finding before it (extendRun). word,
// when not nil, words f's message, which its text alone decides: an
// occurrence that goes on a run is not worded, and a brief check words
// none (nil: f comes worded).
//
// Without fixes (findOnly, summary), a finding of many characters costs no
// fix built for each: verify looks at what is found and where, and no fix
// of an analysis that only counts (a brief check, or a URL too long to
// verify one) is offered. A URL of 500,000 "|a" cost 0.8 s and 200 MB in
// fixes and findings, of 330,000 "éa" or 500,000 "~a" about half as much.
func (a *analyzer) addOccurrence(f finding, word func(string) string) {
	if a.mode == summary && a.extendRun(f, word) {
		return
	}
	if word != nil {
		f.msg = a.wording(word, a.text[f.start:f.end])
	}
	a.add(f)
}

// wording returns the message word gives the occurrence text, "" in a
// brief check, which words none.
func (a *analyzer) wording(word func(string) string, text string) string {
	if a.brief {
		return ""
	}
	return word(text)
}

// inFragmentDirective reports whether text byte i is in the fragment
// directive of the URL (fragmentDirective).
func (a *analyzer) inFragmentDirective(i int) bool { return i >= a.directive }

// fragmentDirective returns where the fragment directive of s starts: the
// part of its fragment from ":~:" on (the delimiter of text fragments,
// "#:~:text=…"), or len(s) when it has none.
func fragmentDirective(s string) int {
	h := strings.IndexByte(s, '#')
	if h < 0 {
		return len(s)
	}
	if d := strings.Index(s[h:], ":~:"); d >= 0 {
		return h + d
	}
	return len(s)
}

// badEscape reports the "%" at i. The span covers the "%" and the letters or
// digits after it that an escape would have taken ("%zz", "%4g"), so that
// the message shows what was written; the fix encodes the "%" alone.
func (a *analyzer) badEscape(i int) {
	k := i + 1
	for k < len(a.text) && k < i+3 && isAlnum(a.text[k]) {
		k++
	}
	// A line of a hundred thousand "%" has as many bad escapes, merged into
	// one finding: the message of each is written only if it stays alone
	// (merge, badEscapeMessage), and the fixes come from shared blocks. An
	// analysis that only counts them (summary) extends the run of the same
	// span that ends here, or that goes on here at the run's step (with no
	// other finding between): a URL of 100,000 "a%zz" is one finding, not
	// 8 MB of them.
	switch a.mode {
	case summary:
		if a.extendRun(finding{start: i, end: k, code: codeBadEscape}, nil) {
			return
		}
		fallthrough
	case findOnly:
		a.add(finding{start: i, end: k, code: codeBadEscape})
		return
	}
	fx := a.fixes(1)
	fx[0] = fix{msg: "encode % as %25", edits: a.edits(edit{i, i + 1, "%25"})}
	a.add(finding{start: i, end: k, code: codeBadEscape, fixes: fx})
}

// extendRun adds f, a finding without fixes of one occurrence, to the
// last finding when that is a run (or a first occurrence) of the same
// code, message and text that ends at f or goes on at f at its step, with
// no other finding between, and reports whether it did (summary: a run is
// one finding). When word is not nil, f is not worded yet: its message
// is the one word gives its text (addOccurrence).
func (a *analyzer) extendRun(f finding, word func(string) string) bool {
	n := len(a.findings)
	if n == 0 {
		return false
	}
	i, k := f.start, f.end
	last := &a.findings[n-1]
	w := last.firstEnd() - last.start
	if last.code != f.code || k-i != w || a.text[i:k] != a.text[last.start:last.start+w] {
		return false
	}
	switch {
	case word == nil:
		if last.msg != f.msg {
			return false
		}
	case last.count() == 1:
		// last may be another check's finding of the same code and text,
		// worded otherwise: a host name label "é" (nonASCIILabel) before
		// a path's "é". A run is of occurrences of one message, which
		// merge words once. (A longer run's first was compared so.)
		if last.msg != a.wording(word, a.text[i:k]) {
			return false
		}
	}
	switch {
	case last.step == 0 && last.end == i: // side by side
		last.end, last.n = k, last.count()+1
	case last.count() == 1 && last.end < i: // the second, apart: the step
		last.step, last.end, last.n = i-last.start, k, 2
	case last.step > 0 && i-(last.end-w) == last.step:
		last.end, last.n = k, last.n+1
	default:
		return false
	}
	return true
}

// schemeFacts is what the scheme checks ask of a scheme as written, worked
// out once for the scheme the last URL had: a document's URLs mostly have
// one or two schemes, and each question is a map lookup.
type schemeFacts struct {
	scheme string // as written
	lower  string // strings.ToLower(scheme)
	// known: RFC 1738 gives it a syntax, it is reserved, or in use
	// (schemes.InUse); reserved: RFC 1738 §4 reserves it; authority: its
	// URLs start "scheme://" and a host (authoritySchemes).
	known, reserved, authority bool
}

// schemeFacts returns the facts of scheme, remembered.
func (sc *scratch) schemeFacts(scheme string) *schemeFacts {
	if f := &sc.scheme; f.scheme == scheme && f.lower != "" {
		return f
	}
	lower := strings.ToLower(scheme)
	sc.scheme = schemeFacts{
		scheme:    scheme,
		lower:     lower,
		known:     parser.KnownScheme(lower) || reservedSchemes[lower] || schemes.InUse(lower),
		reserved:  reservedSchemes[lower],
		authority: authoritySchemes[lower],
	}
	return &sc.scheme
}

// badEscapeRun adds the bad escapes "%" of text[i:j], each "%" followed by
// a "%", to the run that ends at i, or as a run of their own (summary).
func (a *analyzer) badEscapeRun(i, j int) {
	if n := len(a.findings); n > 0 {
		last := &a.findings[n-1]
		if last.code == codeBadEscape && last.end == i && last.step == 0 && last.firstEnd()-last.start == 1 {
			last.end, last.n = j, last.count()+j-i
			return
		}
	}
	f := finding{start: i, end: j, code: codeBadEscape}
	if j-i > 1 {
		f.n = j - i
	}
	a.add(f)
}

// badEscapeMessage is badEscapeMessage, the last message remembered.
func (sc *scratch) badEscapeMessage(text string, f finding) string {
	if span := text[f.start:f.end]; span != sc.escapeSpan || sc.escapeMsg == "" {
		sc.escapeSpan, sc.escapeMsg = span, badEscapeMessage(text, f)
	}
	return sc.escapeMsg
}

// parse1738 returns the RFC 1738 parse of rfc1738Syntax: the scratch's
// parser.Parser into its tree, reused URL after URL, so that a URL costs no
// allocation (ParseReference when relative). An error it returns is the
// Parser's own, good until the next parse: parse1738 copies it into the
// scratch (err1738), where it is good until the next parse1738.
func (sc *scratch) parse1738(relative bool) func(string) error {
	return func(s string) error {
		var err error
		if relative {
			err = sc.parser.ParseReference(s, &sc.tree)
		} else {
			err = sc.parser.Parse(s, &sc.tree)
		}
		if se, ok := err.(*grammar.SyntaxError); ok && se != nil {
			sc.err1738 = *se
			return &sc.err1738
		}
		return err
	}
}

// keep returns an empty slice with room for n findings, from sc's block,
// for findings that outlive the analysis (merge's).
func (sc *scratch) keep(n int) []finding {
	return fromBlock(&sc.blocksNow().findings, n)
}

// blocksNow returns the blocks the analyses allocate from: short while
// inShort.
func (sc *scratch) blocksNow() *blocks {
	if sc.inShort {
		return &sc.short
	}
	return &sc.blocks
}

// startShort makes the analyses allocate from the short blocks, over what
// the last check wrote there.
func (sc *scratch) startShort() {
	sc.inShort = true
	sc.short.fixes = sc.short.fixes[:0]
	sc.short.edits = sc.short.edits[:0]
	sc.short.findings = sc.short.findings[:0]
}

// badEscapeMessage is the message of a bad-escape finding that stays
// alone; the span is "%" and at most two letters or digits.
func badEscapeMessage(text string, f finding) string {
	const rest = ` is not an escape: "%" must be followed by two hex digits`
	span := text[f.start:f.end]
	for i := 0; i < len(span); i++ {
		if span[i] < ' ' || span[i] > '~' || span[i] == '"' || span[i] == '\\' {
			return strconv.Quote(span) + rest
		}
	}
	return `"` + span + `"` + rest // strconv.Quote's result, in one allocation
}

// fixes returns n fixes from a block the analyses share (blocks), so that
// a URL with many findings does not allocate each fix alone. Each slice has
// its own capacity: appending to it copies.
func (a *analyzer) fixes(n int) []fix {
	return fromBlock(&a.blocks.fixes, n)[:n]
}

// edits returns es in a slice from a block the analyses share, as fixes.
func (a *analyzer) edits(es ...edit) []edit {
	return append(fromBlock(&a.blocks.edits, len(es)), es...)
}

// redundantEscape reports whether the escape at i encodes a character that
// is unreserved in every URL grammar: a letter, a digit, "-", "." or "_"
// (RFC 1738 §2.2, RFC 3986 §2.3). Not "~": RFC 1738 calls it unsafe (under
// the rfc3986 profile it is unreserved, and "%7E" needless). Not a
// "." of a path segment that would decode to "." or "..", which RFC 1808 §4
// resolution treats differently from its escaped form, nor a "." that ends
// the URL: in running text a trailing "." ends the sentence, not the URL
// (RFC 1738 appendix), so decoding it would cut it off the link.
func (a *analyzer) redundantEscape(i int) bool {
	d := unhex(a.text[i+1])<<4 | unhex(a.text[i+2])
	if !(isAlnum(d) || d == '-' || d == '.' || d == '_' || d == '~' && a.profile == parser.RFC3986) {
		return false
	}
	return d != '.' || i+3 < len(a.text) && !a.dotSegment(i)
}

// dotSegment reports whether the segment around the escape at i decodes to
// "." or "..". Such a segment is at most six bytes long ("%2E%2E").
func (a *analyzer) dotSegment(i int) bool {
	s := a.text
	delim := func(b byte) bool { return b == '/' || b == '?' || b == '#' || b == ';' }
	lo := i
	for lo > 0 && !delim(s[lo-1]) {
		if lo--; i-lo > 3 {
			return false
		}
	}
	hi := i
	for hi < len(s) && !delim(s[hi]) {
		if hi++; hi-lo > 6 {
			return false
		}
	}
	seg := strings.NewReplacer("%2E", ".", "%2e", ".").Replace(s[lo:hi])
	return seg == "." || seg == ".."
}

func (a *analyzer) redundantEscapes(i, j int) {
	run := a.text[i:j]
	if a.mode != withFixes { // no fix (addOccurrence)
		a.addOccurrence(finding{start: i, end: j, code: codeRedundantEscape}, redundantEscapesMessage)
		return
	}
	dec := decodeEscapes(run) // a byte an escape, ASCII (redundantEscape)
	edits := make([]edit, 0, len(dec))
	for n := range len(dec) {
		edits = append(edits, edit{i + 3*n, i + 3*n + 3, dec[n : n+1]})
	}
	a.add(finding{
		start: i, end: j, code: codeRedundantEscape,
		msg:   redundantEscapesMessage(run),
		fixes: []fix{{msg: fmt.Sprintf("decode %s to %s", quote(run), quote(dec)), edits: edits}},
	})
}

// redundantEscapesMessage words a run of needless escapes.
func redundantEscapesMessage(run string) string {
	return fmt.Sprintf("%s needlessly escapes %s", quote(run), quote(decodeEscapes(run)))
}

// decodeEscapes decodes s, a run of escapes.
func decodeEscapes(s string) string {
	b := make([]byte, 0, len(s)/3)
	for k := 0; k+2 < len(s); k += 3 {
		b = append(b, unhex(s[k+1])<<4|unhex(s[k+2]))
	}
	return string(b)
}

// host returns the span of the text's host name: the host of its authority
// (not an IP literal), or a news article's host (RFC 1738 §3.6 "news:"
// <message-id>, article = … "@" host).
func (a *analyzer) host() (hs, he int, ok bool) {
	if au := a.auth; au.ok {
		return au.hostStart, au.hostEnd, au.hostStart < au.hostEnd && a.text[au.hostStart] != '['
	}
	if !strings.EqualFold(a.scheme, "news") {
		return 0, 0, false
	}
	he = len(a.text)
	if k := strings.IndexByte(a.text, '#'); k >= 0 {
		he = k
	}
	at := strings.LastIndexByte(a.text[:he], '@')
	return at + 1, he, at > len(a.scheme)
}

// hostLabel returns the host name label around byte i, when i is in the
// text's host name.
func (a *analyzer) hostLabel(i int) (l0, l1 int, ok bool) {
	hs, he := a.hostStart, a.hostEnd
	if !a.hostOK || i < hs || i >= he {
		return 0, 0, false
	}
	l0 = hs
	if k := strings.LastIndexByte(a.text[hs:i], '.'); k >= 0 {
		l0 = hs + k + 1
	}
	l1 = he
	if k := strings.IndexByte(a.text[i:he], '.'); k >= 0 {
		l1 = i + k
	}
	return l0, l1, true
}

// nonASCII reports a run of non-ASCII bytes outside a host name; the fix
// percent-encodes their UTF-8 bytes (RFC 3987 §3.1), one edit per character.
func (a *analyzer) nonASCII(i, j int) {
	if a.mode != withFixes { // no fix (addOccurrence)
		a.addOccurrence(finding{start: i, end: j, code: codeNonASCII}, nonASCIIMessage)
		return
	}
	msg := nonASCIIMessage(a.text[i:j])
	var enc strings.Builder
	var edits []edit
	for k := i; k < j; {
		_, size := utf8.DecodeRuneInString(a.text[k:j])
		var e strings.Builder
		for _, b := range []byte(a.text[k : k+size]) {
			fmt.Fprintf(&e, "%%%02X", b)
		}
		enc.WriteString(e.String())
		edits = append(edits, edit{k, k + size, e.String()})
		k += size
	}
	a.add(finding{start: i, end: j, code: codeNonASCII, msg: msg,
		fixes: []fix{{msg: "percent-encode as " + cut(enc.String()), edits: edits}}})
}

// nonASCIIMessage words a run of non-ASCII bytes.
func nonASCIIMessage(run string) string {
	if utf8.ValidString(run) {
		n := utf8.RuneCountInString(run)
		return fmt.Sprintf("non-ascii %s %s: URLs are US-ASCII (RFC 1738 §2.2)", plural(n, "character", "characters"), quote(run))
	}
	return fmt.Sprintf("non-ascii bytes %s, not even UTF-8: URLs are US-ASCII (RFC 1738 §2.2)", quote(run))
}

// nonASCIILabel reports the non-ASCII characters of the host name label
// text[l0:l1] as one finding. A host name admits no escapes (RFC 1738 §3.1),
// so the fix is the label's IDNA form (RFC 3490, Punycode RFC 3492).
func (a *analyzer) nonASCIILabel(l0, l1 int) {
	label := a.text[l0:l1]
	// The finding spans the whole label, which its fix rewrites.
	f := finding{start: l0, end: l1, code: codeNonASCII,
		msg: fmt.Sprintf("non-ascii host name label %s: host names are US-ASCII (RFC 1738 §3.1)", quote(label))}
	// Only a label that is a host name label but for its non-ASCII
	// characters gets a fix: its ASCII form is then letters, digits and
	// "-", safe to write in any document context.
	ldh := true
	for k := 0; k < len(label); k++ {
		ldh = ldh && (label[k] >= 0x80 || isAlnum(label[k]) || label[k] == '-')
	}
	if ascii, ok := idnaLabel(label); ok && ldh {
		f.fixes = []fix{{msg: "convert the label to punycode " + quote(ascii), edits: []edit{{l0, l1, ascii}}}}
	}
	a.add(f)
}

// schemeChecks runs scheme-case, scheme-typo, unknown-scheme and
// reserved-scheme. They look at the scheme alone, so they report whether or
// not the rest parses: unknown-scheme explains why a syntax error names
// genericurl. A scheme in use (the IANA registry or wide use, package
// schemes) is not unknown, whether or not urlls has a grammar for it.
func (a *analyzer) schemeChecks() {
	sch := a.scheme
	if sch == "" {
		return
	}
	facts := a.scratch.schemeFacts(sch)
	lower := facts.lower
	known := facts.known || a.user != nil
	if !known {
		if word, glued := gluedScheme(lower); glued {
			// "baseada emhttps://…": a space went missing before the URL.
			// The fix would be a space in the text, not in the URL: none.
			a.add(finding{start: 0, end: len(sch), code: codeSchemeTypo,
				msg: fmt.Sprintf("unknown scheme %s: the word %s run into %s?", quote(sch), quote(sch[:len(word)]), strconv.Quote(sch[len(word):]+":"))})
			return
		}
		if likely, ok := schemes.NearMiss(lower); ok {
			a.add(finding{start: 0, end: len(sch), code: codeSchemeTypo,
				msg:   fmt.Sprintf("unknown scheme %s: a misspelt %s?", quote(sch), strconv.Quote(likely)),
				fixes: []fix{{msg: "replace the scheme with " + strconv.Quote(likely), edits: []edit{{0, len(sch), likely}}}}})
			return
		}
	}
	if lower != sch {
		a.add(finding{start: 0, end: len(sch), code: codeSchemeCase,
			msg:   fmt.Sprintf("scheme %s is not lower case", quote(sch)),
			fixes: []fix{{msg: "lower-case the scheme", edits: []edit{{0, len(sch), lower}}}}})
	}
	switch {
	case facts.reserved && a.user == nil: // a user's grammar gives it a syntax
		a.add(finding{start: 0, end: len(sch), code: codeReservedScheme,
			msg: fmt.Sprintf("scheme %s is reserved by RFC 1738 §4 without a syntax; checked as genericurl", quote(lower))})
	case !known:
		a.add(finding{start: 0, end: len(sch), code: codeUnknownScheme,
			msg: fmt.Sprintf("unregistered scheme %s; checked as genericurl", quote(lower))})
	}
}

// gluedScheme reports whether scheme, in lower case, is a word of two or
// more letters run into a common scheme ("emhttps", "seehttp"), and returns
// the word.
func gluedScheme(scheme string) (string, bool) {
	for _, common := range []string{"https", "http", "mailto", "ftp"} {
		word, ok := strings.CutSuffix(scheme, common)
		if ok && len(word) >= 2 && allLetters(word) {
			return word, true
		}
	}
	return "", false
}

// authoritySchemes are the schemes whose URLs start "scheme://" and a host:
// RFC 1738 §3 (ftp, http, gopher, nntp, telnet, wais, prospero), RFC 9110
// (https) and the WebSocket schemes (RFC 6455 §3). file is not one: RFC 8089
// §2 allows "file:/path".
var authoritySchemes = map[string]bool{
	"http": true, "https": true, "ftp": true, "ftps": true, "ws": true, "wss": true,
	"gopher": true, "nntp": true, "telnet": true, "wais": true, "prospero": true,
}

// maxSchemeName is the length of the longest name of authoritySchemes.
var maxSchemeName = func() (n int) {
	for name := range authoritySchemes {
		n = max(n, len(name))
	}
	return n
}()

// separatorTypos recognises a misspelt "://" between the scheme and the host
// of a URL whose scheme needs one: "http::host", "http:/host",
// "http:host.example", "http:///host.example", the scheme written twice
// ("https://https://host"), and "https//host" without
// the ":" (which, in a link, is a relative path "https//host" and resolves
// to nonsense). It reports one syntax finding with the fix that writes "://"
// and returns true; the syntax parse is then skipped, since it would only
// report the same mistake again, less clearly.
func (a *analyzer) separatorTypos() bool {
	s := a.text
	if a.scheme == "" {
		// "https//host": a scheme that needs "//", then "//" and a host.
		// A scheme holds no "/", so the name is what comes before the
		// first "//": one map lookup, not a walk of the schemes for each
		// relative reference, and a look at its first bytes only, not a
		// search of the whole reference for a "//" too far in to follow
		// a scheme.
		n := strings.Index(s[:min(len(s), maxSchemeName+2)], "//")
		if n <= 0 || len(s) <= n+2 || !authoritySchemes[strings.ToLower(s[:n])] || !hostAt(s, n+2) {
			return false
		}
		a.add(finding{start: 0, end: n + 2, code: codeSyntax,
			msg:   fmt.Sprintf(`missing ":" after %s: %s is a relative path, not a url`, strconv.Quote(s[:n]), strconv.Quote(s[:n+2]+"…")),
			fixes: []fix{{msg: `insert ":" after the scheme`, edits: []edit{{n, n, ":"}}}}})
		a.stop = 0
		return true
	}
	if !a.scratch.schemeFacts(a.scheme).authority {
		return false
	}
	p := len(a.scheme)
	// "https://https://host": the scheme written twice, the second one
	// taken for a host name with an empty port.
	if strings.HasPrefix(s[p:], "://") {
		rest := s[p+3:]
		if second := parser.Scheme(rest); second != "" && authoritySchemes[strings.ToLower(second)] && strings.HasPrefix(rest[len(second):], "://") {
			end := p + 3 + len(second) + 3
			a.add(finding{start: 0, end: end, code: codeSyntax,
				msg:   fmt.Sprintf("the scheme is written twice: %s", quote(s[:end])),
				fixes: []fix{{msg: "remove " + quote(s[:p+3]), edits: []edit{{0, p + 3, ""}}}}})
			a.stop = 0
			return true
		}
	}
	if strings.HasPrefix(s[p:], "://") && !strings.HasPrefix(s[p:], ":///") {
		return false // written right; an empty host ("http://:8080/") is the parse's
	}
	q := p
	for q < len(s) && (s[q] == ':' || s[q] == '/') {
		q++
	}
	sep := s[p:q]
	if sep == "://" || !hostAt(s, q) {
		return false
	}
	// "http:host" and "http:///host" are typos only before what is
	// clearly a host name; "http::" and "http:/" always are.
	if (sep == ":" || sep == ":///") && !hostLike(s, q) {
		return false
	}
	a.add(finding{start: p, end: q, code: codeSyntax,
		msg:   fmt.Sprintf("%s after %s: the host must follow %s", quote(sep), quote(a.scheme), quote(a.scheme+"://")),
		fixes: []fix{{msg: fmt.Sprintf(`replace %s with "://"`, quote(sep)), edits: []edit{{p, q, "://"}}}}})
	a.stop = p
	return true
}

// hostAt reports whether a host can start at s[i]: a letter, a digit or "[".
func hostAt(s string, i int) bool {
	return i < len(s) && (isAlnum(s[i]) || s[i] == '[')
}

// hostLike reports whether the text from s[i] to the next "/", "?" or "#"
// is clearly a host: it holds a "." or is "localhost", with or without a port.
func hostLike(s string, i int) bool {
	end := len(s)
	if k := strings.IndexAny(s[i:], "/?#"); k >= 0 {
		end = i + k
	}
	h := s[i:end]
	if k := strings.LastIndexByte(h, ':'); k >= 0 && allDigits(h[k+1:]) {
		h = h[:k]
	}
	return strings.EqualFold(h, "localhost") || strings.Contains(h, ".") && !strings.HasSuffix(h, ".")
}

// placeholderPasswords are the words documentation writes where a password
// goes ("ftp://user:password@host/"): an example of the form, not a secret.
var placeholderPasswords = map[string]bool{
	"password": true, "passwd": true, "pass": true, "pwd": true, "pw": true, "secret": true,
	"mypassword": true, "yourpassword": true, "your-password": true, "your_password": true,
	"changeme": true, "xxx": true, "xxxx": true, "xxxxxx": true, "xxxxxxxx": true,
	"***": true, "****": true, "******": true, "********": true, "...": true, "…": true,
	"pass123": true, "password123": true, "secret123": true,
	"token": true, "mytoken": true, "your-token": true, "your_token": true, "yyy": true, "yyyy": true,
	// RFC 3092's metasyntactic variables: a test's or an example's password
	// ("nats://derek:foo@…", "unix://foo:bar@/tmp/redis.sock").
	"foo": true, "bar": true, "baz": true, "qux": true, "quux": true, "foobar": true,
}

// placeholderHosts are the names documentation writes where a host goes
// ("https://:token@host/", "ftp://user:pass@hostname/"): no host of a
// real URL has a single label so named.
var placeholderHosts = map[string]bool{
	"host": true, "hostname": true, "myhost": true, "yourhost": true, "your-host": true, "some-host": true,
}

// examplePassword reports whether the password text[p0:p1] of a URL whose
// host is host is an example, not a secret to warn about: a placeholder (a
// template, "<password>", "$PASSWORD"), a placeholder word ("password",
// "xxxx", "token", "foo"), the published password of Oracle's sample
// account ("scott:tiger"), or any password of a URL to a host reserved for
// examples and tests (RFC 2606, RFC 6761: example.com, .example, .test,
// .invalid, localhost) or to a placeholder host ("host", "hostname"), or
// of a URL whose port is a word ("host:port": the form of a
// URL, as git's documentation writes "http://login:passwd@proxy-host:port").
func (a *analyzer) examplePassword(p0, p1 int, host string) bool {
	if au := a.auth; au.portStart >= 0 && portWord(a.text[au.portStart:au.end]) {
		return true
	}
	for i := p0; i < p1; i++ {
		if a.isMasked(i) {
			return true
		}
	}
	if placeholderPasswords[strings.ToLower(a.text[p0:p1])] {
		return true
	}
	if strings.EqualFold(a.text[a.auth.start:p0-1], "scott") && strings.EqualFold(a.text[p0:p1], "tiger") {
		// Oracle's sample schema, user SCOTT and password TIGER, which
		// the database ships and its manuals publish: the password of
		// every example of a database URL in SQLAlchemy's documentation
		// ("oracle://scott:tiger@dsn"), no secret to anyone.
		return true
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if placeholderHosts[host] {
		return true
	}
	for _, d := range []string{"example.com", "example.net", "example.org", "example", "test", "invalid", "localhost"} {
		if host == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	return host == "127.0.0.1" || host == "[::1]"
}

// allLetters reports whether s is ASCII letters, and not empty.
func allLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isAlpha(s[i]) {
			return false
		}
	}
	return s != ""
}

// portWord reports whether a port is written as a word ("port", "PORT",
// "port_number"): a placeholder for the number. Words joined by ":" are
// one too: "http://unix:SOCK_PATH:URL_PATH", the form in which got,
// request and wait-on document HTTP over a Unix socket.
func portWord(s string) bool {
	for w := range strings.SplitSeq(s, ":") {
		if len(w) < 2 || !allLetters(strings.ReplaceAll(w, "_", "")) {
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// above reports whether the decimal digits s are a number above max.
func above(s string, max int) bool {
	s = strings.TrimLeft(s, "0")
	if len(s) > 6 {
		return true
	}
	n, _ := strconv.Atoi(s)
	return n > max
}

// authorityChecks runs credentials, port-range and host-range on the parts of
// the authority found by their delimiters, so that they report whether or not
// the URL parses: fixing a syntax error elsewhere never reveals them.
func (a *analyzer) authorityChecks() {
	au, s := a.auth, a.text
	if !au.ok {
		return
	}
	if p0, p1, ok := au.password(s); ok && !a.examplePassword(p0, p1, s[au.hostStart:au.hostEnd]) {
		a.add(finding{start: p0, end: p1, code: codeCredentials,
			msg: "password in the url: whoever sees the url can read it"})
	}
	if au.portStart >= 0 {
		if port := s[au.portStart:au.end]; allDigits(port) && above(port, 65535) {
			a.add(finding{start: au.portStart, end: au.end, code: codePortRange,
				msg: fmt.Sprintf("port %s is above 65535", cut(port))})
		}
	}
	host := s[au.hostStart:au.hostEnd]
	if strings.Count(host, ".") != 3 {
		return // no hostnumber: split nothing
	}
	parts := strings.Split(host, ".")
	for _, p := range parts {
		if !allDigits(p) {
			return
		}
	}
	off := au.hostStart
	for _, p := range parts {
		if above(p, 255) {
			a.add(finding{start: off, end: off + len(p), code: codeHostRange,
				msg: fmt.Sprintf("host number part %s is above 255", cut(p))})
		}
		off += len(p) + 1
	}
}

// standInBytes replace a byte a character-level code reported, in turn,
// for the syntax parse: a letter is valid nearly everywhere, a digit in a
// port or a host number.
var standInBytes = [...]byte{'a', '0'}

// standIns returns the text the syntax parse sees: each byte a
// character-level code reported, or that a placeholder covers, replaced by a
// stand-in (standInBytes), so that one problem is never reported twice (a
// space in a host name is unsafe-char, not also syntax) and a placeholder
// is judged as some URL text; the scheme in lower case (scheme-case reports
// it); and, under the rfc1738 profile and no user grammar, the "#" of a fragment that is a
// client-side route made "/". The text keeps its length: an offset of the
// parse is an offset of the text.
func (a *analyzer) standIns() []byte {
	s := a.text
	rep := a.scratch.bytes(s)
	switch {
	case a.masked != nil:
		for i := range rep {
			if a.flagged[i] || a.masked[i] {
				rep[i] = standInBytes[0]
			}
		}
	case a.anyFlagged:
		for i, f := range a.flagged {
			if f {
				rep[i] = standInBytes[0]
			}
		}
	}
	// A fragment that an application reads (routedFragment) may hold "#":
	// browsers keep it. No grammar allows it; the URL works as written.
	// Under a grammar the user chose (rfc3986, xbnf) the grammar decides.
	if h := strings.IndexByte(s, '#'); a.profile == parser.RFC1738 && a.user == nil && h >= 0 && routedFragment(s[h+1:]) {
		for i := h + 1; i < len(s); i++ {
			if s[i] == '#' {
				rep[i] = '/'
			}
		}
	}
	for i := 0; i < len(a.scheme); i++ {
		rep[i] = lower(rep[i])
	}
	return rep
}

// routedFragment reports whether a fragment is one a web application
// reads, where a "#" is the application's syntax: a client-side route
// ("#/room/#urlls:matrix.org", "#!/a#b", as matrix.to and the hash
// routers of web applications write them) or a snippet and its revision
// ("#T7N8Y0#12", as the Babylon.js playground writes them).
func routedFragment(frag string) bool {
	return strings.HasPrefix(frag, "/") || strings.HasPrefix(frag, "!/") || snippetRevision(frag)
}

// snippetRevision reports whether a fragment is a snippet's id and its
// revision: letters and digits, "#", digits ("T7N8Y0#12").
func snippetRevision(frag string) bool {
	k := strings.IndexByte(frag, '#')
	if k <= 0 {
		return false
	}
	for i := range k {
		if !isAlnum(frag[i]) {
			return false
		}
	}
	return allDigits(frag[k+1:])
}

// parseWithStandIns parses rep by parse until it succeeds or fails at a
// byte that is no stand-in: a failure at a stand-in is the stand-in's
// doing, so the next one is tried (a digit where a letter failed). It
// returns the failure (nil when the parse succeeded), the text that failed
// (rep as a string: the caller need not copy it again) and whether the
// syntax phase should go on to report it: not when the failure is a
// placeholder's doing or at a byte already reported (a.stop says where
// the parse stopped).
func (a *analyzer) parseWithStandIns(rep []byte, parse func(string) error) (*grammar.SyntaxError, string, bool) {
	var tried map[int]int // made when a stand-in fails: most parses succeed
	for {
		// Most URLs need no stand-in: their text is parsed as it is,
		// without a copy.
		text := a.text
		if string(rep) != text {
			text = string(rep)
		}
		err := parse(text)
		if err == nil {
			a.stop = len(a.text) + 1
			return nil, "", false
		}
		se, ok := err.(*grammar.SyntaxError)
		if !ok && !errors.As(err, &se) || se == nil {
			return nil, "", false
		}
		o := min(max(se.Offset, 0), len(rep))
		se.Offset = o
		if a.atPlaceholder(o) {
			a.stop = o // what the placeholder stands for decides
			return nil, "", false
		}
		if o < len(rep) && a.flagged[o] {
			// Already reported: try another stand-in, else give up
			// rather than report the byte twice.
			if tried == nil {
				tried = map[int]int{}
			}
			if tried[o]++; tried[o] < len(standInBytes) {
				rep[o] = standInBytes[tried[o]]
				continue
			}
			a.stop = o
			return nil, "", false
		}
		return se, text, true
	}
}

// syntax runs the syntax phase: it parses the text (standIns) by the
// grammar of the profile and reports what that grammar rejects. Under the
// rfc1738 profile a URL RFC 1738 rejects is parsed by RFC 3986 too
// (rfc1738Syntax); under rfc3986 and xbnf that grammar alone is the judge
// (profileSyntax).
func (a *analyzer) syntax() {
	rep := a.standIns()
	if a.profile == parser.RFC1738 {
		a.rfc1738Syntax(rep)
		return
	}
	a.profileSyntax(rep)
}

// profileSyntax reports what the profile's grammar (RFC 3986, the XBNF)
// rejects as one syntax error; what it accepts has no syntax-phase finding.
// A misspelt "://" the grammar rejects gets separatorTypos's finding and
// fix; a scheme the XBNF has no production for is named as such.
func (a *analyzer) profileSyntax(rep []byte) {
	se, rs, report := a.parseWithStandIns(rep, func(s string) error {
		_, err := a.profile.Parse(s, a.relative)
		return err
	})
	if !report {
		return
	}
	if a.separatorTypos() {
		return
	}
	if a.profile == parser.XBNF && a.scheme != "" && !parser.XBNFScheme(a.scheme) {
		a.stop = 0
		a.add(finding{start: 0, end: len(a.scheme), code: codeSyntax,
			msg: fmt.Sprintf("scheme %s has no production in the W3C XBNF (url = httpaddress / ftpaddress / newsaddress / …)", quote(a.scheme))})
		return
	}
	if a.profile == parser.RFC3986 {
		se = a.authorityFailure(rs, se)
	}
	a.reportSyntax(rs, se)
}

// reportSyntax reports the grammar's failure se on rep (the text with its
// stand-ins) as one syntax finding, where the URL stops matching
// (grammar.RefinedOffset), and stops the parse there.
func (a *analyzer) reportSyntax(rep string, se *grammar.SyntaxError) {
	o := grammar.RefinedOffset(rep, se.Offset, se.Expected)
	t0, t1, msg := a.describeFailure(rep, se, o)
	a.stop = t0
	a.add(finding{start: t0, end: t1, code: codeSyntax, msg: msg, fixes: a.bracketFix(t0)})
}

var (
	rule3986Host = grammar.MustRule("rfc3986", "host")
	rule3986Port = grammar.MustRule("rfc3986", "port")
)

// authorityFailure improves an RFC 3986 failure se in the userinfo of an
// authority that has no "@": authority = [ userinfo "@" ] host [ ":" port ]
// is tried with a userinfo first, which takes a host, ":" and port alike,
// so the furthest failure is where the "@" was wanted ("h:80a/" fails at
// "/"), not where the URL goes wrong. The host and the port, as the
// delimiters split them, are matched by their own rules instead, and the
// first failure is the answer, under the chain down to the authority.
func (a *analyzer) authorityFailure(rep string, se *grammar.SyntaxError) *grammar.SyntaxError {
	au := parseAuthority(rep, a.scheme)
	if !chainHas(se, "userinfo") || !au.ok || au.at >= 0 {
		return se
	}
	var chain []*grammar.Rule
	for _, r := range se.Chain {
		chain = append(chain, r)
		if r != nil && r.Name == "authority" {
			break
		}
	}
	part := func(r *grammar.Rule, start, end int) *grammar.SyntaxError {
		_, err := r.Match(rep[start:end])
		if err == nil {
			return nil
		}
		return &grammar.SyntaxError{Input: rep, Offset: start + err.Offset, Rule: err.Rule,
			Chain: append(chain[:len(chain):len(chain)], err.Chain...), Expected: err.Expected}
	}
	if err := part(rule3986Host, au.hostStart, au.hostEnd); err != nil {
		return err
	}
	if au.portStart >= 0 {
		if err := part(rule3986Port, au.portStart, au.end); err != nil {
			return err
		}
	}
	return se
}

// rfc1738Syntax parses the text by RFC 1738 (parser.Parse, RFC 1808 for a
// relative reference) and, when that rejects it, by the modern syntax
// (modernVerdict): what both reject is a syntax error; what only RFC 1738
// rejects is rfc1738-unsafe, located where RFC 1738 fails and named by
// the RFC 3986 production the byte there belongs to (laterForm). An input
// RFC 1738 accepts is not parsed by RFC 3986: under this profile RFC 1738
// is the grammar, and what it accepts has no syntax-phase finding. (RFC
// 1738's language is nearly inside RFC 3986's; parser's
// TestRFC1738WithinRFC3986 lists the exceptions: a scheme starting with a
// digit, ":" in the first segment of a relative path, "file:////x", "//"
// in a genericurl. --grammar rfc3986 holds them to RFC 3986.)
func (a *analyzer) rfc1738Syntax(rep []byte) {
	se, rs, report := a.parseWithStandIns(rep, a.scratch.parse1738(a.relative))
	if !report {
		return
	}
	o := grammar.RefinedOffset(rs, se.Offset, se.Expected)
	t0, t1 := a.failureSpan(rs, o)
	a.stop = t0
	tree, mse := a.parseModernAround(rs)
	if tree != nil {
		// What RFC 3986 says the byte is names the form only RFC 1738
		// forbids; any other form is judged by the scheme's own rules too.
		if l0, l1, lmsg, ok := a.laterForm(rs, tree, o); ok {
			a.add(finding{start: l0, end: l1, code: codeRFC1738Unsafe, msg: lmsg})
			return
		}
		if !a.modernSchemeRules(rs, tree, o) {
			tree = nil
		}
	}
	if mse != nil && chainHas(mse, "userinfo") && strings.IndexByte(rs[:max(mse.Offset, 0)], '@') < 0 {
		// RFC 3986's authority = [ userinfo "@" ] host …: without an "@",
		// the furthest failure the matcher finds is in the userinfo it
		// tried first ("h:80a/" fails at "/" for want of an "@"), not where
		// the URL goes wrong; RFC 1738's failure says that better.
		mse = nil
	}
	if mse != nil {
		mse.Offset = grammar.RefinedOffset(rs, min(max(mse.Offset, 0), len(rs)), mse.Expected)
	}
	// The message of RFC 1738's failure is worded only now: a form
	// laterForm names has a message of its own.
	msg := a.failureMessage(rs, se, o, t0, t1)
	switch {
	case tree != nil:
		a.add(finding{start: t0, end: t1, code: codeRFC1738Unsafe, msg: a.only1738(msg)})
		return
	case mse != nil && mse.Offset > o:
		// RFC 3986 gets further: what stops RFC 1738 here is only RFC
		// 1738's, and the URL goes wrong for both further on.
		a.add(finding{start: t0, end: t1, code: codeRFC1738Unsafe, msg: a.only1738(msg)})
		if a.atPlaceholder(mse.Offset) {
			return
		}
		t0, t1, msg = a.describeFailure(rs, mse, mse.Offset)
	}
	a.add(finding{start: t0, end: t1, code: codeSyntax, msg: msg, fixes: a.bracketFix(t0)})
}

// bracketFix returns the fix of a syntax error at text[t0] when that is a
// "[" or a "]" after the authority, where no URL grammar allows one (RFC
// 3986 §3.2.2 keeps them for an IP literal host; RFC 1738 §2.2 calls them
// unsafe): every bracket from t0 on percent-encoded, "[" as %5B and "]" as
// %5D, which a server decodes to what was written (a query's
// "filter[name]=x" is "filter%5Bname%5D=x" as HTML forms send it). The
// brackets the analysis masked (placeholders, router segments) stay. No
// fix when t0 is no such bracket, the brackets from t0 on do not pair up,
// or a pair in the path holds a word (bracketedWord), a placeholder the
// writer fills in.
// The fix reaches past the finding's first span: the finding takes in the
// brackets once verify keeps the fix (spanFixes), and only then, as a
// refused fix leaves one bracket to blame.
func (a *analyzer) bracketFix(t0 int) []fix {
	s := a.text
	if t0 < 0 || t0 >= len(s) || s[t0] != '[' && s[t0] != ']' || a.isMasked(t0) {
		return nil
	}
	if a.mode != withFixes {
		// No fix is read (findOnly) or offered (summary): a URL of a
		// line of 110,000 brackets spent a third of its check on an
		// edit for each.
		return nil
	}
	from := 0
	if a.scheme != "" {
		from = len(a.scheme) + 1
	}
	if a.auth.ok {
		from = a.auth.end
	}
	if t0 < from {
		return nil
	}
	var edits []edit
	depth := 0
	open := -1 // the last "[" met
	path := strings.IndexAny(s[from:], "?#")
	if path < 0 {
		path = len(s)
	} else {
		path += from
	}
	for k := t0; k < len(s) && depth >= 0; k++ {
		switch {
		case s[k] != '[' && s[k] != ']' || a.isMasked(k):
		case s[k] == '[':
			edits = append(edits, edit{k, k + 1, "%5B"})
			depth++
			open = k
		default:
			if open >= 0 && k < path && (open == 0 || s[open-1] != ']') && bracketedWord(s[open+1:k]) {
				// "gs://a/b/c.[extension]", "a_[trg]_x.txt": a
				// word in brackets in a path names what the writer
				// means to fill in, and encoding it is not what he
				// meant. A query's "filter[name]" is the query's
				// syntax, and so is a chain of them in a path
				// ("items[0][name]").
				return nil
			}
			edits = append(edits, edit{k, k + 1, "%5D"})
			depth--
			open = -1
		}
	}
	if depth != 0 {
		// A "]" with no "[" ("https://github.com/user]" in a Markdown
		// link) or a "[" never closed is a stray or a cut, not a name
		// to encode: what the writer meant is not known.
		return nil
	}
	return []fix{{msg: `percent-encode "[" and "]" as %5B and %5D`, edits: a.edits(edits...)}}
}

// bracketedWord reports whether w, the text between a "[" and its "]", is
// a word: letters, "_" and "-", two letters at least ("extension", "trg",
// "creation-timestamp"), not an index ("1") or a letter ("b").
func bracketedWord(w string) bool {
	letters := 0
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case isAlpha(c):
			letters++
		case c != '_' && c != '-':
			return false
		}
	}
	return letters >= 2
}

func chainHas(se *grammar.SyntaxError, name string) bool {
	for _, r := range se.Chain {
		if r != nil && r.Name == name {
			return true
		}
	}
	return se.Rule != nil && se.Rule.Name == name
}

// legacySchemes are the schemes whose current definition is still RFC 1738's
// (RFC 4266 for gopher, RFC 4248 for telnet, RFC 4156 for wais, RFC 4157 for
// prospero restate it; RFC 5538 keeps news and nntp's forms): their paths
// follow its productions. Their authorities follow RFC 3986 §3.2, which
// replaced RFC 1738 §3.1's common Internet scheme syntax for every scheme.
var legacySchemes = map[string]bool{
	"ftp": true, "gopher": true, "news": true, "nntp": true, "telnet": true, "wais": true, "prospero": true,
}

// parseModern parses rep, which RFC 1738 rejects, by the modern syntax
// (parser.ParseRFC3986: RFC 3986 with the scheme's current definition): the
// tree when it accepts rep, else the failure. The tree is the scratch's,
// good until the next parse.
func (sc *scratch) parseModern(rep string, relative bool) (*grammar.Tree, *grammar.SyntaxError) {
	if err := parser.ParseRFC3986Into(rep, relative, &sc.modernTree); err != nil {
		var se *grammar.SyntaxError
		if errors.As(err, &se) {
			return nil, se
		}
		return nil, nil
	}
	return &sc.modernTree, nil
}

// maxPlaceholderRetries bounds the parses parseModernAround spends on
// placeholders, so that a URL made of many stays linear.
const maxPlaceholderRetries = 4

// parseModernAround is parseModern for the syntax phase's text, whose
// placeholders hold letter stand-ins: when RFC 3986 fails inside one, the
// placeholder is tried again as digits, as the first stand-in that RFC 1738
// rejected was ("http://user:pass@host:port": a port is digits), at most
// maxPlaceholderRetries times.
func (a *analyzer) parseModernAround(rep string) (*grammar.Tree, *grammar.SyntaxError) {
	tree, mse := a.scratch.parseModern(rep, a.relative)
	var b []byte
	for range maxPlaceholderRetries {
		if tree != nil || mse == nil {
			break
		}
		o := mse.Offset
		if !a.isMasked(o) || rep[o] == standInBytes[1] {
			break
		}
		if b == nil {
			b = []byte(rep)
		}
		for i := o; a.isMasked(i) && i < len(b); i++ {
			b[i] = standInBytes[1]
		}
		for i := o - 1; a.isMasked(i); i-- {
			b[i] = standInBytes[1]
		}
		rep = string(b)
		tree, mse = a.scratch.parseModern(rep, a.relative)
	}
	return tree, mse
}

// only1738 is msg, RFC 1738's failure, said to be RFC 1738's only.
func (a *analyzer) only1738(msg string) string {
	if a.brief {
		return ""
	}
	return msg + " (RFC 1738; RFC 3986 allows it)"
}

// modernSchemeRules reports whether rep, which RFC 3986 accepts with tree
// and RFC 1738 rejects at o, also keeps the rules of its scheme that RFC
// 3986 leaves to the scheme: the paths of the legacySchemes follow RFC 1738
// (an ftp type, an nntp article number), and a registered name meant for
// the DNS follows its syntax.
func (a *analyzer) modernSchemeRules(rep string, tree *grammar.Tree, o int) bool {
	sch := strings.ToLower(parser.Scheme(rep))
	if legacySchemes[sch] {
		au, inAuthority := treeNode(tree, "authority", o)
		inAuthority = inAuthority && o < int(tree.Nodes[au].End)
		if p, ok := treeNode(tree, "port", o); ok && tree.Nodes[p].Start == tree.Nodes[p].End {
			inAuthority = true // an empty port, at the authority's end
		}
		if !inAuthority {
			return false
		}
	}
	if h, ok := treeNode(tree, "reg-name", o); ok && (authoritySchemes[sch] || sch == "") && !dnsName(tree.Text(h)) {
		// RFC 3986 §3.2.2: "A registered name intended for lookup in the
		// DNS uses the syntax defined in Section 3.5 of [RFC1034] and
		// Section 2.1 of [RFC1123]"; reg-name alone admits far more.
		return false
	}
	return true
}

// nodesHolding yields, in preorder, the index of each node of t whose span
// holds offset o, its end included (a failure right after a part is about
// it: an empty port, a host name's last label). A node's span holds its
// subtree's, so a node that does not hold o is skipped with its subtree:
// the walk reads the nodes on the way down to o and their siblings, not
// the whole tree.
func nodesHolding(t *grammar.Tree, o int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < len(t.Nodes); {
			n := &t.Nodes[i]
			if o < int(n.Start) || int(n.End) < o {
				i += max(int(n.Size), 1)
				continue
			}
			if !yield(i) {
				return
			}
			i++
		}
	}
}

// treeNode returns the index of the innermost node of rule name in t whose
// span holds offset o (nodesHolding).
func treeNode(t *grammar.Tree, name string, o int) (int, bool) {
	found := -1
	for i := range nodesHolding(t, o) {
		if t.Nodes[i].Rule().Name == name {
			found = i
		}
	}
	return found, found >= 0
}

// laterNodes are the innermost nodes of the rules laterForm asks about
// whose span holds an offset (treeNode's answer for each), -1 for none.
type laterNodes struct {
	userinfo, ipLiteral, port, regName, authority, query int
}

// laterNodesAt returns the laterNodes of t at o in one walk down to o
// (nodesHolding), where a treeNode for each would walk five times for a
// query right after the host, on each of 40,000 such URLs of a line.
func laterNodesAt(t *grammar.Tree, o int) laterNodes {
	at := laterNodes{-1, -1, -1, -1, -1, -1}
	for i := range nodesHolding(t, o) {
		switch t.Nodes[i].Rule().Name {
		case "userinfo":
			at.userinfo = i
		case "IP-literal":
			at.ipLiteral = i
		case "port":
			at.port = i
		case "reg-name":
			at.regName = i
		case "authority":
			at.authority = i
		case "query":
			at.query = i
		}
	}
	return at
}

// wordq words a finding's message: format, whose verbs are all %s, with
// text quoted (quote) and then more in their place; "" in a brief check,
// which shows no message, without quoting or formatting anything. It
// writes the message itself rather than through fmt.Sprintf, which boxed
// each argument: a line of 40,000 IP literals has as many messages.
func (a *analyzer) wordq(format, text string, more ...string) string {
	if a.brief {
		return ""
	}
	q := quote(text)
	n := len(format) + len(q)
	for _, m := range more {
		n += len(m)
	}
	var b strings.Builder
	b.Grow(n)
	for k := 0; ; k++ {
		i := strings.Index(format, "%s")
		if i < 0 {
			b.WriteString(format)
			return b.String()
		}
		b.WriteString(format[:i])
		switch {
		case k == 0:
			b.WriteString(q)
		case k-1 < len(more):
			b.WriteString(more[k-1])
		default:
			b.WriteString("%!s(MISSING)") // as fmt would
		}
		format = format[i+2:]
	}
}

// laterForm words the RFC 1738 failure at o of rep, which RFC 3986 accepts
// with tree, by what RFC 3986 says the byte there is: a userinfo in an
// http(s) URL, an IP literal, an empty port, a "." ending or a "_" in a
// registered name, a query right after the host or holding "/" or "?". It
// returns the span and message, or ok false for any other form (the caller
// names RFC 1738's production and what it expected).
func (a *analyzer) laterForm(rep string, tree *grammar.Tree, o int) (t0, t1 int, msg string, ok bool) {
	sch := strings.ToLower(parser.Scheme(rep))
	web := sch == "http" || sch == "https"
	// RFC 1738 §3.3: "http://<host>:<port>/<path>?<searchpart>", no user or
	// password (RFC 3986 §3.2.1 allows and deprecates them).
	at := laterNodesAt(tree, o)
	if u := at.userinfo; u >= 0 && web {
		n := tree.Nodes[u]
		t0, t1 = int(n.Start), int(n.End)+1
		return t0, t1, a.wordq("userinfo %s in an %s url: RFC 1738 §3.3 has none (RFC 3986 allows and deprecates it)", a.text[t0:t1], sch), true
	}
	// RFC 2732, RFC 3986 §3.2.2: an IP literal host.
	if l := at.ipLiteral; l >= 0 && o < int(tree.Nodes[l].End) {
		n := tree.Nodes[l]
		t0, t1 = int(n.Start), int(n.End)
		if _, future := treeNode(tree, "IPvFuture", int(n.Start)+1); future {
			return t0, t1, a.wordq(`IP literal host %s: RFC 1738 has no IP literals (RFC 3986 §3.2.2 added IPvFuture)`, a.text[t0:t1]), true
		}
		return t0, t1, a.wordq("ipv6 literal host %s: RFC 1738 has no IP literals (RFC 2732 added them)", a.text[t0:t1]), true
	}
	// RFC 3986 §3.2.3: "URI producers and normalizers should omit the port
	// component and its ":" delimiter if port is empty".
	if p := at.port; p >= 0 && tree.Nodes[p].Start == tree.Nodes[p].End && int(tree.Nodes[p].Start) > 0 {
		t0 = int(tree.Nodes[p].Start) - 1
		return t0, t0 + 1, `empty port: RFC 1738 requires digits after ":" (RFC 3986 allows none)`, true
	}
	if h := at.regName; h >= 0 {
		hs, he := int(tree.Nodes[h].Start), int(tree.Nodes[h].End)
		host := a.text[hs:he]
		// RFC 3986 §3.2.2: an internationalized name may be written as
		// percent-encoded UTF-8; RFC 1738 §3.1 has no escapes in a host.
		if strings.IndexByte(rep[hs:he], '%') >= 0 && dnsName(rep[hs:he]) {
			if a.brief {
				return hs, he, "", true
			}
			msg := fmt.Sprintf(`percent-encoded host name %s: RFC 1738 §3.1 has no escapes in a host (RFC 3986 §3.2.2 allows them, for names in UTF-8`, quote(host))
			if ascii, ok := idnaHost(host); ok {
				msg += fmt.Sprintf("; resolvers take %s)", quote(ascii))
			} else {
				msg += ")"
			}
			return hs, he, msg, true
		}
		// RFC 3986 §3.2.2: a registered name may hold "_"; RFC 1738 §3.1's
		// hostname is letters, digits and "-" (and so is DNS's preferred
		// name syntax, RFC 1034 §3.5, but names with "_" resolve).
		if first := strings.IndexByte(rep[hs:he], '_'); first >= 0 && hs+first <= o {
			last := strings.LastIndexByte(rep[hs:he], '_')
			return hs + first, hs + last + 1, a.wordq(`"_" in host name %s: RFC 1738 §3.1 allows letters, digits and "-" (RFC 3986 allows it)`, host), true
		}
		// RFC 3986 §3.2.2: a registered name may end in "." (a fully
		// qualified domain name); RFC 1738 §3.1's hostname may not.
		if strings.HasSuffix(rep[hs:he], ".") && he-hs > 1 {
			return he - 1, he, a.wordq(`trailing "." in host name %s: RFC 1738 §3.1 has none (RFC 3986 allows a fully qualified name)`, host), true
		}
	}
	if o < len(rep) && rep[o] == '?' && web {
		// RFC 1738 §3.3: "http://<host>:<port>/<path>?<searchpart>": a
		// search part follows a "/"; RFC 3986 §3.3 allows an empty path.
		if au := at.authority; au >= 0 && int(tree.Nodes[au].End) == o {
			return o, o + 1, `"?" right after the host: RFC 1738 §3.3 puts a search part after "/" (RFC 3986 allows an empty path)`, true
		}
	}
	// RFC 1738 §3.3: "Within the <path> and <searchpart> components, "/",
	// ";", "?" are reserved"; RFC 3986 §3.4 allows "/" and "?" in a query.
	if q := at.query; q >= 0 && o < len(rep) && (rep[o] == '/' || rep[o] == '?') && (web || sch == "wais") {
		end := int(tree.Nodes[q].End)
		last, slash, question := o, false, false
		for k := o; k < end; k++ {
			switch rep[k] {
			case '/':
				slash = true
			case '?':
				question = true
			default:
				continue
			}
			last = k
		}
		what := `"/" and "?"`
		if !question {
			what = `"/"`
		} else if !slash {
			what = `"?"`
		}
		return o, last + 1, what + ` in a search part: RFC 1738 §3.3 reserves "/" and "?" there (RFC 3986 allows them)`, true
	}
	return 0, 0, "", false
}

// dnsName reports whether host, a registered name (not an IP literal),
// follows the DNS's preferred name syntax as RFC 1123 §2.1 relaxed it
// (labels of letters, digits and "-", not starting or ending with "-", at
// most 63 bytes), with the two liberties names in use take: "_" (service
// names, RFC 2782, and hosts that resolve with it) and a final "." (a fully
// qualified name). An IPv4 address is one too.
func dnsName(host string) bool {
	if host == "" || host[0] == '[' {
		return true // an empty host is the grammar's business; IP literals too
	}
	if strings.IndexByte(host, '%') >= 0 {
		// RFC 3986 §3.2.2: a registered name may be percent-encoded
		// UTF-8, an internationalized name ("www.m%C3%BCnich.com"), which
		// resolvers take after IDNA conversion, as browsers do: judged
		// decoded, its labels may hold letters of any script.
		decoded, ok := percentDecoded(host)
		if !ok || !utf8.ValidString(decoded) || strings.IndexByte(decoded, '%') >= 0 {
			return false
		}
		host = decoded
	}
	host = strings.TrimSuffix(host, ".")
	labels := strings.Split(host, ".")
	if top := labels[len(labels)-1]; allDigits(top) && !(len(labels) == 4 && allDigits(strings.Join(labels, ""))) {
		// RFC 1123 §2.1: "the highest-level component label will be
		// alphabetic"; all digits, the name is a broken IPv4 address.
		return false
	}
	for _, label := range labels {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		if r, _ := utf8.DecodeRuneInString(label); unicode.IsMark(r) {
			return false // IDNA: a label does not begin with a combining mark (RFC 5891 §4.2.3.2)
		}
		for _, r := range label {
			if r < utf8.RuneSelf && !isAlnum(byte(r)) && r != '-' && r != '_' ||
				r >= utf8.RuneSelf && !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) {
				return false
			}
		}
	}
	return true
}

// idnaHost returns the ASCII form of a percent-encoded internationalized
// host name: decoded, each label with non-ASCII characters in its IDNA
// form ("www.m%C3%BCnich.com" is "www.xn--mnich-kva.com").
func idnaHost(host string) (string, bool) {
	decoded, ok := percentDecoded(host)
	if !ok || !utf8.ValidString(decoded) {
		return "", false
	}
	labels := strings.Split(decoded, ".")
	for i, l := range labels {
		for j := 0; j < len(l); j++ {
			if l[j] >= utf8.RuneSelf {
				if labels[i], ok = idnaLabel(l); !ok {
					return "", false
				}
				break
			}
		}
	}
	return strings.Join(labels, "."), true
}

// percentDecoded decodes the escapes of s, or reports false when a "%" is
// not followed by two hex digits.
func percentDecoded(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			return "", false
		}
		b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
		i += 2
	}
	return b.String(), true
}

// describeFailure words the parse failure se at o of rep (the text with
// its stand-ins): the text span of the byte where the parse stopped (the
// last character at the end of the input) and the message naming it, the
// production chain and what was expected there.
func (a *analyzer) describeFailure(rep string, se *grammar.SyntaxError, o int) (t0, t1 int, msg string) {
	t0, t1 = a.failureSpan(rep, o)
	return t0, t1, a.failureMessage(rep, se, o, t0, t1)
}

// failureSpan is the span of describeFailure: the character at o, or the
// last one when o is the end of rep.
func (a *analyzer) failureSpan(rep string, o int) (t0, t1 int) {
	if o < len(rep) {
		_, size := utf8.DecodeRuneInString(a.text[o:])
		return o, o + size
	}
	if len(a.text) > 0 {
		t0, t1 = len(a.text)-1, len(a.text)
		for t0 > 0 && !utf8.RuneStart(a.text[t0]) && t1-t0 < utf8.UTFMax {
			t0--
		}
	}
	return t0, t1
}

// failureMessage is the message of describeFailure, whose span is
// [t0, t1); "" in a brief check, which shows no message.
func (a *analyzer) failureMessage(rep string, se *grammar.SyntaxError, o, t0, t1 int) string {
	if a.brief {
		return ""
	}
	expected := grammar.JoinExpected(se.Expected)
	if rest, ok := grammar.LiteralRest(rep, o, se.Expected); ok {
		expected = rest
	}
	found := "end of input"
	if o < len(rep) {
		found = strconv.Quote(a.text[t0:t1])
	}
	var chain []string
	for _, rule := range se.Chain {
		if rule != nil {
			chain = append(chain, rule.Name)
		}
	}
	if len(chain) == 0 && se.Rule != nil {
		chain = []string{se.Rule.Name}
	}
	where := strings.Join(chain, " › ")
	if where == "" {
		where = "url"
	}
	return fmt.Sprintf("unexpected %s in %s: expected %s", found, where, expected)
}

func lower(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}
