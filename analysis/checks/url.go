package checks

import (
	"cmp"
	"context"
	"hash/maphash"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/urlls/urlls/analysis/grammar"
	"github.com/urlls/urlls/analysis/parser"
	"github.com/urlls/urlls/analysis/scan"
)

// CheckURL returns the findings for one candidate URL of doc, in document
// order. It works on c.Text, the URL as the document means it, and maps every
// span and fix edit back to document byte offsets inside [c.Start, c.End).
// The findings of one code are merged into one (merge). Every fix offered
// has been tried: applying it removes its finding and introduces no RFC 1738
// violation (no new finding of a code that is an error by default or under
// strict mode; one the fix of a scheme or its "://" only lets the parse
// reach does not count, see verifier.exposed). A fix is not offered when
// trying it would exceed the budget of the URL (verifyBudget), when it
// would touch a placeholder, or, for a merged finding, when any of its
// occurrences has none.
func CheckURL(doc []byte, c scan.Candidate) []Diagnostic {
	return Options{}.CheckURL(doc, c)
}

// CheckURL is CheckURL under o.
func (o Options) CheckURL(doc []byte, c scan.Candidate) []Diagnostic {
	return appendDiagnostics(nil, doc, &c, o.findingsOf(doc, &c, nil), nil)
}

// A Checker checks the URLs of one document under its Options one
// candidate at a time, for a caller that checks only some of them (the
// language server after an edit), and remembers the findings of each URL
// as CheckCandidates does: a URL met again costs its offsets only. Its
// memory is bounded (urlMemo). A Checker is for one goroutine and one
// document; one made with a Clean (NewCheckerClean) hands its memory to
// the next document's.
type Checker struct {
	opts Options
	memo urlMemo
}

// NewChecker returns a Checker under o.
func (o Options) NewChecker() *Checker { return &Checker{opts: o} }

// Clean remembers, across the documents one goroutine checks, URLs whose
// check found nothing: a tree of documents repeats its URLs from file to
// file (the project's home page, its repository, the licence, the same
// navigation links on every page), and most of them are fine. It holds at
// most maxClean texts of at most maxCleanText bytes each, copied (a
// candidate's text is a substring of its document's texts, which would
// otherwise stay in memory with it), starting afresh when full. What a
// text is remembered with is its reading, as in urlMemo: a text read
// another way is checked again. A Clean is for one goroutine at a time.
//
// A Clean also keeps the working memory of the last Checker made with it
// (NewCheckerClean), for the next document's: a tree of small documents
// otherwise allocated a Checker and grew its scratch again for each, a
// quarter of the bytes a check of the tree allocated and as large a share
// of its garbage collections.
type Clean struct {
	texts map[string]reading
	hits  int // how many checks it saved (for tests)
	// spare is the Checker NewCheckerClean made last, which the next one
	// reuses: the caller is done with it by then.
	spare *Checker
}

// maxClean and maxCleanText bound a Clean: at most a few megabytes.
const (
	maxClean     = 16 << 10
	maxCleanText = 256
)

// NewClean returns an empty Clean.
func NewClean() *Clean { return &Clean{} }

// has reports whether text was found clean under rd. A check for counting
// (rd.brief) finds what a full one does, only without messages and fixes
// (Options.Brief), so the two share what they remember.
func (cl *Clean) has(text string, rd reading) bool {
	if len(text) > maxCleanText {
		return false // never added: not worth hashing
	}
	rd.brief = false
	r, ok := cl.texts[text]
	if ok && r == rd {
		cl.hits++
		return true
	}
	return false
}

// add remembers that the check of text under rd found nothing, and
// reports whether it does (a text too long it does not).
func (cl *Clean) add(text string, rd reading) bool {
	if len(text) > maxCleanText {
		return false
	}
	rd.brief = false
	switch {
	case cl.texts == nil:
		cl.texts = make(map[string]reading, 256)
	case len(cl.texts) >= maxClean:
		clear(cl.texts)
	}
	cl.texts[strings.Clone(text)] = rd
	return true
}

// NewCheckerClean is NewCheckerFor(n) that also consults and fills clean
// (nil: none), which outlives the document. It reuses the memory of the
// Checker made with clean before, which must no longer be used (the
// diagnostics it returned may: their fixes and edits are in blocks never
// written again).
func (o Options) NewCheckerClean(n int, clean *Clean) *Checker {
	if clean == nil {
		return o.NewCheckerFor(n)
	}
	k := clean.spare
	if k == nil {
		k = o.NewCheckerFor(n)
		k.memo.clean = clean
		clean.spare = k
		return k
	}
	k.opts = o
	k.memo.nextDocument(n)
	return k
}

// NewCheckerFor returns a Checker under o for a document of n candidates,
// its memory sized for them (a Checker of NewChecker, for any number, has
// room for maxMemo, which a document of a few URLs would pay for).
func (o Options) NewCheckerFor(n int) *Checker {
	return &Checker{opts: o, memo: urlMemo{size: max(n, 1)}}
}

// CheckURL is Options.CheckURL, remembering.
func (k *Checker) CheckURL(doc []byte, c scan.Candidate) []Diagnostic {
	return appendDiagnostics(nil, doc, &c, k.opts.findingsOf(doc, &c, &k.memo), &k.memo)
}

// findingsOf returns the findings of candidate c of doc in the coordinates
// of its text, taking them from memo when another candidate of the
// document with the same text, read the same way, was checked before (memo
// may be nil).
func (o Options) findingsOf(doc []byte, c *scan.Candidate, memo *urlMemo) []finding {
	rd := readingOf(doc, c)
	rd.profile, rd.brief = o.Grammar, o.Brief
	rd.user = parser.UserRule(o.Schemes, c.Text)
	return memo.check(c.Text, rd)
}

// appendDiagnostics appends the diagnostics of the findings fs of
// candidate c to out, their fixes and edits taken from memo's blocks (memo
// may be nil).
func appendDiagnostics(out []Diagnostic, doc []byte, c *scan.Candidate, fs []finding, memo *urlMemo) []Diagnostic {
	if len(fs) == 0 {
		return out
	}
	if memo != nil {
		memo.findingText += len(c.Text)
	}
	first := len(out)
	m := newDocMap(doc, c)
	for _, f := range fs {
		if c.Unrendered && f.code == codeUnsafeChar && f.msg != "" { // a brief finding has no message to word
			unrendered(c.Text, &f)
		}
		d := Diagnostic{Code: f.code, Message: f.msg, URL: c.Text}
		d.Start, d.End = m.span(f.start, f.end)
		if len(f.fixes) > 0 {
			d.SuggestedFixes = memo.suggestedFixes(len(f.fixes))
			for _, fx := range f.fixes {
				if edits, ok := m.edits(fx.edits, memo); ok {
					d.SuggestedFixes = append(d.SuggestedFixes, SuggestedFix{Message: fx.msg, Edits: edits})
				}
			}
			if len(d.SuggestedFixes) == 0 {
				d.SuggestedFixes = nil
			}
		}
		out = append(out, d)
	}
	slices.SortStableFunc(out[first:], func(a, b Diagnostic) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End))
	})
	return out
}

// reading says how the checks read a URL's text, from where it stands.
type reading struct {
	// relative: a relative reference is a URL here (scan.Candidate).
	relative bool
	// profile is the grammar of the syntax phase (Options.Grammar).
	profile parser.Profile
	// spacedPath: white space is part of the path as written, not a
	// mistake. A Markdown link destination in <…> may hold spaces
	// (CommonMark §6.3), which the renderer percent-encodes: "[notes](<my
	// notes.md>)" links to my%20notes.md. Only a relative reference gets
	// this leniency: a space in an absolute URL ("<https://github.com/express
	// js/cors>") is a typo the renderer would carry into a broken link.
	spacedPath bool
	// user is the start rule of the user's grammar for the URL's scheme
	// (Options.Schemes), nil for none.
	user *grammar.Rule
	// continued: the program completes the URL after its end
	// (scan.Candidate.Continued), so its end is a placeholder's: a parse
	// that fails there ("http://user@" + host) is not the URL's fault.
	continued bool
	// brief: the findings are for counting (Options.Brief): no fixes and
	// no messages are made.
	brief bool
}

// readingOf returns how to read candidate c of doc.
func readingOf(doc []byte, c *scan.Candidate) reading {
	rd := reading{relative: c.Relative, continued: c.Continued}
	if (c.Context == scan.Link || c.Context == scan.RefDef) && c.Start > 0 && c.Start <= len(doc) && doc[c.Start-1] == '<' &&
		parser.Scheme(c.Text) == "" {
		rd.spacedPath = true
	}
	return rd
}

// unrendered words the unsafe-char finding of a Markdown link destination
// with white space (scan.Candidate.Unrendered), which CommonMark does not
// make a link of: the writer sees text where a link was meant. Its fix, which
// percent-encodes the white space, is what the writer meant only when the
// white space is inside a URL or a path; a destination that starts with
// words ("[x](see emhttps://x.org)", a translation gone wrong) keeps no fix.
func unrendered(text string, f *finding) {
	f.msg = "the link does not render: " + f.msg
	start := text
	if k := strings.IndexAny(text, " \t\n"); k >= 0 {
		start = text[:k]
		if strings.Contains(text[k:], "://") {
			f.fixes = nil
			return
		}
	}
	if parser.Scheme(start) == "" && !strings.ContainsAny(start, "/#.") && !scan.FileNameEnd(text) {
		f.fixes = nil
	}
}

// CheckDocument scans doc for the LSP language id lang (scan.Scan) and checks
// every candidate URL, returning the findings in document order. It applies
// no policy: severities, ignored URLs and the urlls-disable comments
// (scan.Result.Suppressions) are the front end's business (config.Apply),
// so a front end that applies them scans once and calls CheckCandidates.
func CheckDocument(doc []byte, lang string) []Diagnostic {
	return Options{}.CheckDocument(doc, lang)
}

// CheckDocument is CheckDocument under o.
func (o Options) CheckDocument(doc []byte, lang string) []Diagnostic {
	out, _ := o.CheckCandidatesContext(context.Background(), doc, scan.Scan(doc, lang).Candidates)
	return out
}

// CheckCandidates checks the candidate URLs scan.Scan found in doc, for a
// caller that keeps the candidates too (the language server's links, hovers
// and tokens), and returns the findings in document order.
func CheckCandidates(doc []byte, cands []scan.Candidate) []Diagnostic {
	out, _ := CheckCandidatesContext(context.Background(), doc, cands)
	return out
}

// CheckCandidates is CheckCandidates under o.
func (o Options) CheckCandidates(doc []byte, cands []scan.Candidate) []Diagnostic {
	out, _ := o.CheckCandidatesContext(context.Background(), doc, cands)
	return out
}

// CheckCandidatesContext is CheckCandidates that stops when ctx is done
// (checking ctx between candidates) and then returns ctx's error: the
// language server drops the analysis of a version a newer one replaced.
func CheckCandidatesContext(ctx context.Context, doc []byte, cands []scan.Candidate) ([]Diagnostic, error) {
	return Options{}.CheckCandidatesContext(ctx, doc, cands)
}

// CheckCandidatesContext is CheckCandidatesContext under o.
func (o Options) CheckCandidatesContext(ctx context.Context, doc []byte, cands []scan.Candidate) ([]Diagnostic, error) {
	memo := urlMemo{size: len(cands)}
	out, err := o.appendChecked(ctx, nil, doc, cands, &memo)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// CheckCandidatesClean is CheckCandidates under o that consults and fills
// clean (Clean), which outlives the document.
func (o Options) CheckCandidatesClean(doc []byte, cands []scan.Candidate, clean *Clean) []Diagnostic {
	return o.NewCheckerClean(len(cands), clean).AppendCandidates(nil, doc, cands)
}

// AppendCandidates is CheckCandidates, remembering, with the diagnostics
// appended to out: a caller that checks a document's candidates a run at
// a time (config.Config.CheckFirst) reuses out.
func (k *Checker) AppendCandidates(out []Diagnostic, doc []byte, cands []scan.Candidate) []Diagnostic {
	out, _ = k.opts.appendChecked(context.Background(), out, doc, cands, &k.memo)
	return out
}

// appendChecked appends the diagnostics of cands, in document order, to
// out.
func (o Options) appendChecked(ctx context.Context, out []Diagnostic, doc []byte, cands []scan.Candidate, memo *urlMemo) ([]Diagnostic, error) {
	// Each URL's findings become diagnostics before the next URL is
	// checked: the memo makes the findings of a URL met for the first
	// time in memory the next check reuses (urlMemo.check).
	first := len(out)
	for i := range cands {
		if i%64 == 0 && ctx.Err() != nil {
			return out[:first], ctx.Err()
		}
		fs := o.findingsOf(doc, &cands[i], memo)
		if cap(out)-len(out) < len(fs) {
			out = GrowDiagnostics(out, first, len(fs), i, len(cands))
		}
		out = appendDiagnostics(out, doc, &cands[i], fs, memo)
	}
	// Candidates come in document order and do not overlap, so this only
	// guards against a tokenizer that breaks that promise.
	added := out[first:]
	if !sort.SliceIsSorted(added, func(i, j int) bool { return added[i].Start < added[j].Start }) {
		sort.SliceStable(added, func(i, j int) bool { return added[i].Start < added[j].Start })
	}
	return out, nil
}

// GrowDiagnostics makes room in out for k more diagnostics (or anything
// made of them, as the server's findings are), i of the n URLs checked
// whose diagnostics follow out[:first]. The room at least doubles (append
// grows a large slice by a quarter: the 40k findings of one line would be
// copied a dozen times over); past a few dozen diagnostics, it is what the
// findings so far predict for all n, so that a document full of findings
// allocates them about once, but never more than four times what is used:
// findings that thin out after a dense start leave that little room
// unused, in a server's analysis as long as the document is open.
func GrowDiagnostics[T any](out []T, first, k, i, n int) []T {
	m := len(out)
	want := max(2*m, m+k, 8)
	if m-first >= 64 {
		predicted := first + int(int64(m-first)*int64(n)/int64(max(i, 1)))
		want = max(want, min(predicted+predicted/8, first+4*n, 4*m))
	}
	return slices.Grow(out, want-m)
}

// urlMemo remembers the findings of check for the URLs of one document:
// documents repeat URLs (badges, navigation links, the same link on every
// line of a table), and each repetition would cost the parse and the
// verification of its fixes again. check is a function of the text and its
// reading alone (readingOf gathers everything about the candidate and the
// document that the checks read: whether a relative reference is a URL
// there, the "<" before a link destination, the grammar and the user's
// rule), so a finding remembered is the finding check would make; what
// depends on where the URL stands (its document offsets, a Markdown
// destination that does not render) is worked out for each occurrence
// from the findings in text coordinates, which nobody changes. The memo
// holds at most maxMemo URLs, starting afresh when full, so that a document
// of a million different URLs does not keep them all twice.
type urlMemo struct {
	// m is keyed by the text alone, which hashes as a string (a struct
	// key of text and reading hashes field by field, at several times
	// the cost), and holds the reading the findings are for: a document
	// reads its URLs one or two ways, so a text met under another reading
	// is checked again and replaces the entry.
	m map[string]memoEntry
	// seen holds the hashes (by seed) of the texts met, a slot each by
	// the hash's low bits, overwritten by the next one there: a text whose
	// hash is not there was not met, or not lately (check).
	seen []uint64
	seed maphash.Seed
	// size is how many URLs the document has (0: unknown): m is made for
	// that many, up to maxMemo.
	size    int
	scratch scratch // the analyses' working memory
	// clean, when not nil, is what the documents checked before this one
	// found clean (Clean): a text there is not checked again.
	clean *Clean
	// fixBlock and editBlock are where the fixes of the document's
	// diagnostics and their edits are allocated, a block at a time.
	fixBlock  []SuggestedFix
	editBlock []TextEdit
	// findingText counts the bytes of the URLs with findings whose
	// diagnostics took their fixes and edits from the blocks (fixBlock,
	// editBlock, the scratch's) since they were made, each time it took
	// them: what the blocks' elements hold (a fix of many edits has an
	// array of its own) is in proportion to it (nextDocument).
	findingText int
}

// blockSize is how many fixes or edits a block of urlMemo holds.
const blockSize = 256

// maxKeptFindingText bounds the bytes of URLs with findings whose fixes a
// Checker reused for another document keeps in its blocks (findingText):
// 255 documents each with a URL of a thousand unsafe characters left
// their fixes, 12 MB, in the blocks the next documents reused; 4 KB of
// URLs keep a few hundred KB at most. The real-world corpus, 12 of whose
// 1846 documents have findings, never passes it.
const maxKeptFindingText = 4 << 10

// nextDocument readies memo for a document of n candidates, keeping its
// working memory: the seen slots (cleared), the scratch's arrays and the
// rest of its blocks. It forgets the findings remembered (m, which holds
// the last document's texts) and the strings of the last analysis, so
// that they do not keep the last document alive.
func (memo *urlMemo) nextDocument(n int) {
	if memo.findingText > maxKeptFindingText {
		// The blocks' elements hold the fixes of earlier documents'
		// diagnostics, printed by now: kept, they would keep those fixes
		// alive until the blocks are full, for the rest of a run of
		// clean files.
		memo.fixBlock, memo.editBlock = nil, nil
		memo.scratch.blocks, memo.scratch.short = blocks{}, blocks{}
		memo.findingText = 0
	}
	memo.size = max(n, 1)
	memo.m = nil
	if k := seenSlots(memo.size); cap(memo.seen) >= k {
		memo.seen = memo.seen[:k]
		clear(memo.seen)
	} else {
		memo.seen = nil // made at the first check, as for a new memo
	}
	if memo.scratch.retained() > maxKeptScratch {
		memo.scratch = scratch{} // grown for a huge URL: let it go
	} else {
		memo.scratch.forget()
	}
}

// maxKeptScratch bounds the working memory a Checker of a Clean keeps for
// the next document (urlMemo.nextDocument): what the URLs of ordinary
// documents need, so that one URL of megabytes does not pin as much for
// the rest of a run.
const maxKeptScratch = 256 << 10

// suggestedFixes returns an empty slice with room for n fixes, from memo's
// block when memo is not nil; appending past n copies.
func (memo *urlMemo) suggestedFixes(n int) []SuggestedFix {
	if memo == nil {
		return make([]SuggestedFix, 0, n)
	}
	return fromBlock(&memo.fixBlock, n)
}

// textEdits is suggestedFixes for edits.
func (memo *urlMemo) textEdits(n int) []TextEdit {
	if memo == nil {
		return make([]TextEdit, 0, n)
	}
	return fromBlock(&memo.editBlock, n)
}

// fromBlock returns an empty slice with room for n elements, cut from
// *block (a new block when it has no room left), or its own when n is more
// than a quarter of a block. The blocks double from 16 elements to
// blockSize, so that a document with a finding or two does not allocate
// room for hundreds.
func fromBlock[T any](block *[]T, n int) []T {
	if n > blockSize/4 {
		return make([]T, 0, n)
	}
	if cap(*block)-len(*block) < n {
		*block = make([]T, 0, max(min(2*cap(*block), blockSize), 16, n))
	}
	k := len(*block)
	*block = (*block)[:k+n]
	return (*block)[k : k : k+n]
}

// memoEntry is what a urlMemo remembers of a text: the reading (every
// input of check besides the text) and the findings.
type memoEntry struct {
	rd reading
	fs []finding
}

// maxMemo bounds the URLs a urlMemo holds.
const maxMemo = 4096

// check returns check(text, rd), remembered; a nil memo remembers nothing.
//
// Most URLs of a document are met once, and most of those have no
// findings. A text is looked up in m only when seen says it was met
// before, and the findings of one met for the first time are made in
// memory the next check reuses (the caller is done with them by then,
// scratch.short) and not remembered: met again, it is checked again, to
// keep. A text without findings is remembered the first time: it costs
// no memory of its own. With a Clean it is remembered there, and m is
// made only for what the Clean does not take (findings, long texts).
func (memo *urlMemo) check(text string, rd reading) []finding {
	if memo == nil {
		return check(text, rd, nil)
	}
	if memo.clean != nil && memo.clean.has(text, rd) {
		return nil
	}
	if memo.seen == nil {
		memo.seen = make([]uint64, seenSlots(memo.size))
		memo.seed = maphash.MakeSeed()
	}
	h := maphash.String(memo.seed, text) | 1 // 0 is an empty slot
	slot := &memo.seen[h&uint64(len(memo.seen)-1)]
	again := *slot == h
	*slot = h
	if again {
		if e, ok := memo.m[text]; ok && e.rd == rd {
			return e.fs
		}
	} else {
		memo.scratch.startShort()
	}
	fs := check(text, rd, &memo.scratch)
	memo.scratch.inShort = false
	if len(fs) == 0 && memo.clean != nil && memo.clean.add(text, rd) {
		return nil // met again, the Clean has it: m need not
	}
	if !again && len(fs) > 0 {
		return fs
	}
	switch {
	case memo.m == nil:
		// Made for the URLs to come, so that a document of thousands of
		// different URLs does not grow it by rehashing, a table at a time.
		memo.m = make(map[string]memoEntry, min(max(memo.size, 8), maxMemo))
	case len(memo.m) >= maxMemo:
		clear(memo.m)
	}
	memo.m[text] = memoEntry{rd, fs}
	return fs
}

// seenSlots is how many slots urlMemo.seen has for a document of n URLs:
// a power of two, about twice n, at most twice maxMemo, which is also the
// number for a document of unknown size (n = 0: a Checker's, which checks
// URL after URL as edits come).
func seenSlots(n int) int {
	if n == 0 {
		n = maxMemo
	}
	k := 16
	for k < 2*n && k < 2*maxMemo {
		k *= 2
	}
	return k
}

// verifyBudget bounds the bytes re-checked to verify the fixes of one URL,
// so that a pathological URL (kilobytes of binary) costs linear time; the
// fixes beyond it are not offered. A 2 KB URL with 30 fixes needs 60 KB.
const verifyBudget = 1 << 16

// place identifies a finding for verify: its code and where it starts.
type place struct {
	code  string
	start int
}

// check analyzes text, keeps the fixes that pass verify, and merges the
// findings of each code into one (merge).
//
// sc lends the analyses their working memory; nil: check has its own.
func check(text string, rd reading, sc *scratch) []finding {
	if sc == nil {
		sc = new(scratch)
	}
	// A URL longer than the budget gets no fix verified (verify), so
	// none offered, and a brief check offers none: their findings need
	// none.
	m := withFixes
	if rd.brief || !verifiable(len(text), verifyBudget) {
		m = summary
	}
	return checkIn(m, text, rd, sc)
}

// checkIn is check with the findings analyzed in mode m (sc not nil):
// withFixes, or, for a URL none of whose fixes can be verified or a brief
// check, summary, which merges to what findOnly does (TestSummary).
func checkIn(m mode, text string, rd reading, sc *scratch) []finding {
	fs, stop := analyze(text, rd, m, sc, sc.checked)
	v := verifier{text: text, rd: rd, stop: stop, findings: fs, budget: verifyBudget, scratch: sc,
		masked: sc.masked, auth: sc.auth}
	out := merge(fs, &v)
	sc.checked = fs[:0] // merge kept copies
	return out
}

// verifier checks fixes of one URL against what analyze found before.
type verifier struct {
	text string
	rd   reading
	stop int // where the syntax parse stopped
	// findings are those before any fix, and before their places, made on
	// first use: most fixes leave no finding to look up.
	findings []finding
	before   map[place]bool
	budget   int // bytes left to re-check (verifyBudget)
	scratch  *scratch
	// masked and auth are what the analysis of text found: whether it
	// has placeholders, and its authority (escapeFixKeeps).
	masked bool
	auth   authority
}

// verifiable reports whether a fix of a URL of n bytes can be verified
// within budget, whatever the fix writes: verify spends n and 16 bytes of
// the budget besides what the fix writes.
func verifiable(n, budget int) bool {
	return n+16 <= budget
}

// verify applies the edits of a fix to the text and checks again: the fix
// must remove the findings it fixes (gone: same code, same place) and
// introduce no violation, a finding of a code that is an error by default or
// under strict mode that was not there before. It is what keeps, say,
// percent-encoding a space in a host name, where escapes are not allowed
// either, from being offered. A fix past the budget is not verified, so not
// offered.
//
// The syntax parse stopped at stop, and sees no further after the fix
// either: there an escape the fix writes is judged by escapeAllowed, or a
// fix behind a syntax error would look harmless whatever it wrote, and
// fixing the syntax error would reveal the damage.
func (v *verifier) verify(gone []place, edits []edit) bool {
	grown := 0
	for _, e := range edits {
		grown += len(e.text)
	}
	if v.budget -= len(v.text) + grown + 16; v.budget < 0 {
		return false
	}
	for _, e := range edits {
		if e.start >= v.stop && strings.Contains(e.text, "%") && !escapeAllowed(v.text, e.start) {
			return false
		}
	}
	if v.escapeFixKeeps(gone, edits) {
		return true
	}
	fixed, ok := applyEdits(v.text, edits)
	if !ok {
		return false
	}
	return v.reanalyze(gone, edits, fixed)
}

// reanalyze is verify's check of fixed, the text after edits: it analyzes
// it again.
func (v *verifier) reanalyze(gone []place, edits []edit, fixed string) bool {
	after, _ := analyze(fixed, v.rd, findOnly, v.scratch, v.scratch.findings)
	defer func() { v.scratch.findings = after[:0] }() // for the next verify
	for _, g := range after {
		at := mapBack(g.start, edits)
		for _, p := range gone {
			if g.code == p.code && at == p.start {
				return false
			}
		}
		if violation(g.code) && !v.wasThere(place{g.code, at}) && !v.exposed(g, edits) {
			return false
		}
	}
	return true
}

// escapeFixKeeps reports whether the fix of edits is known to pass verify
// without an analysis of the fixed text: when the fix encodes the "%" of the
// only finding of an http or https URL, a bad escape after its authority,
// as "%25", in a URL that parsed (the bad escape's byte replaced by a
// stand-in letter, standIns) and that has no placeholder. Then the fixed
// text has no finding at all, so none that verify
// refuses:
//   - the characters: "%25" is an escape, and not a needless one ("%" is
//     reserved); every other byte and its neighbours are as they were,
//     and reported nothing (a tilde, an unsafe or non-ASCII byte is
//     reported wherever it is: there is none; the text is ASCII);
//   - the scheme, the "://" and the authority end before the fix, at the
//     first "/", "?" or "#" after "//" (parseAuthority), and are as they
//     were;
//   - the syntax: after the host and port of an http URL (RFC 1738 §3.3:
//     hpath and search; the fragment, RFC 1808 §2.2) every letter is a
//     uchar, and so is an escape ("uchar = unreserved | escape", §5): the
//     parse that accepted the stand-in letter accepts "%25" in its place;
//   - the placeholders (scan.Placeholders): the text has none, and every
//     byte but the "%" is one RFC 1738's http production allows, so none
//     opens a template action, an interpolation, a URI template or a glob
//     ("{", "<", "["), whose end could lie past the "%"; a "$NAME", a
//     "%NAME%" or a format verb that starts before the "%" ends at it, as
//     before; one cannot start at "%25", an escape; and each that starts
//     after it reads the same text as before.
//
// The parse and the character checks the analysis would run again are
// what a line of 40k different URLs, each with a bad escape, spent half its
// time on. TestEscapeFixKeeps and FuzzEscapeFixKeeps check that verify's
// analysis agrees wherever this says so.
func (v *verifier) escapeFixKeeps(gone []place, edits []edit) bool {
	if len(gone) != 1 || len(edits) != 1 || len(v.findings) != 1 || v.masked {
		return false
	}
	e, f := edits[0], v.findings[0]
	if gone[0].code != codeBadEscape || f.code != codeBadEscape || f.start != e.start || f.count() != 1 ||
		e.text != "%25" || e.end != e.start+1 || v.text[e.start] != '%' {
		return false
	}
	rd := v.rd
	if rd.user != nil || rd.profile != parser.RFC1738 || rd.relative || rd.spacedPath || rd.continued || v.stop != len(v.text)+1 {
		return false
	}
	if s := parser.Scheme(v.text); s != "http" && s != "https" {
		return false
	}
	au := v.auth
	if !au.ok || au.end >= e.start || strings.IndexByte("/?#", v.text[au.end]) < 0 {
		return false
	}
	for i := 0; i < len(v.text); i++ {
		if v.text[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// wasThere reports whether a finding was at p before any fix.
func (v *verifier) wasThere(p place) bool {
	if v.before == nil {
		v.before = make(map[place]bool, len(v.findings))
		for _, f := range v.findings {
			// Each occurrence of a run (summary) was there.
			for k := range f.count() {
				v.before[place{f.code, f.occurrence(k)}] = true
			}
		}
	}
	return v.before[p]
}

// exposed reports whether g, a finding of the fixed text, was there all
// along and only the fix let the syntax parse see it: a
// syntax-phase finding (syntax, rfc1738-unsafe) of a URL whose scheme or
// "://" the fix changed, so that another production judges it now, and not
// in the text the fix wrote. Fixing "htps" must not be refused because the
// https production then sees a "/" in the query that genericurl never
// looked at. A fix elsewhere gets no such leniency: decoding an escape in a
// host that lets the parse reach a bad port is refused, as the writer would
// see an error appear where none was.
func (v *verifier) exposed(g finding, edits []edit) bool {
	if g.code != codeSyntax && g.code != codeRFC1738Unsafe {
		return false
	}
	// The scheme and its separator end at the first ":" or "/" ("https//"
	// has no ":").
	schemeEnd := len(v.text)
	if k := strings.IndexAny(v.text, ":/"); k >= 0 {
		schemeEnd = k
	}
	shift, scheme := 0, false
	for _, e := range edits {
		ns := e.start + shift
		if g.start >= ns && g.start < ns+len(e.text) {
			return false // the fix wrote it
		}
		shift += len(e.text) - (e.end - e.start)
		scheme = scheme || e.start <= schemeEnd
	}
	return scheme
}

// applyEdits applies edits, in text order and not overlapping, to text.
func applyEdits(text string, edits []edit) (string, bool) {
	var b strings.Builder
	n := len(text)
	for _, e := range edits {
		n += len(e.text)
	}
	b.Grow(n) // at least what it needs: one allocation
	prev := 0
	for _, e := range edits {
		if e.start < prev || e.end < e.start || e.end > len(text) {
			return "", false
		}
		b.WriteString(text[prev:e.start])
		b.WriteString(e.text)
		prev = e.end
	}
	b.WriteString(text[prev:])
	return b.String(), true
}

// mapBack maps offset p of the text after edits to the text before them; an
// offset inside the new text of an edit maps to the edit's start.
func mapBack(p int, edits []edit) int {
	shift := 0
	for _, e := range edits {
		ns := e.start + shift
		if p < ns {
			break
		}
		if p < ns+len(e.text) {
			return e.start
		}
		shift += len(e.text) - (e.end - e.start)
	}
	return p - shift
}

// docMap maps offsets of a candidate's text to its document. A text byte
// comes from a document "unit": one byte, an HTML character reference that
// decoded to it (and to the other bytes of its character), never the white
// space a <URL:…> wrapper drops. Spans and edits cover whole units.
type docMap struct {
	doc    []byte
	c      *scan.Candidate
	lo, hi int // the candidate's span, clamped to the document
}

func newDocMap(doc []byte, c *scan.Candidate) *docMap {
	lo := min(max(c.Start, 0), len(doc))
	hi := min(max(c.End, lo), len(doc))
	return &docMap{doc: doc, c: c, lo: lo, hi: hi}
}

// start returns the document offset where text byte i's unit starts.
func (m *docMap) start(i int) int {
	return min(max(m.c.DocOffset(i), m.lo), m.hi)
}

// unitEnd returns the document offset where text byte i's unit ends.
func (m *docMap) unitEnd(i int) int {
	s := m.start(i)
	if m.c.Offsets == nil {
		return min(s+1, m.hi)
	}
	k := i + 1
	// The bytes of one decoded character share their unit's offset.
	for n := 0; k < len(m.c.Text) && m.start(k) == s && n < 16; n++ {
		k++
	}
	e := m.start(k)
	if e <= s {
		return min(s+1, m.hi)
	}
	// The white space a wrapper drops after the unit is not part of it.
	for e > s+1 && isSpace(m.doc[e-1]) {
		e--
	}
	return e
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' }

// span maps the text span [i, j) to the document.
func (m *docMap) span(i, j int) (int, int) {
	s := m.start(i)
	if j <= i {
		return s, s
	}
	return s, max(m.unitEnd(j-1), s)
}

// edits maps a fix's text edits to document edits, merging the ones that
// touch or share a unit; it fails if they would overlap otherwise.
//
// The edits are allocated from memo's block (urlMemo.textEdits).
func (m *docMap) edits(tes []edit, memo *urlMemo) ([]TextEdit, bool) {
	if len(tes) == 0 {
		return nil, true
	}
	out := memo.textEdits(len(tes))
	prevEnd := -1 // text end of the previous edit
	for _, te := range tes {
		s, e := m.span(te.start, te.end)
		if n := len(out); n > 0 {
			last := &out[n-1]
			switch {
			case s == last.End || s < last.End && te.start == prevEnd && s >= last.Start:
				last.End = max(last.End, e)
				last.NewText += te.text
				prevEnd = te.end
				continue
			case s < last.End:
				return nil, false
			}
		}
		out = append(out, TextEdit{Start: s, End: e, NewText: te.text})
		prevEnd = te.end
	}
	return out, true
}
