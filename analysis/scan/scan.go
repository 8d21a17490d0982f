// Package scan is the document tokenizer: it finds the candidate URLs of a
// document, with their exact byte spans, in the context they stand in (bare
// text, <…> and <URL:…> wrappers, quotes, Markdown links, autolinks and
// reference definitions, HTML attributes, comments and string literals of
// code). It knows nothing of URL syntax beyond what finding a URL's end needs,
// and never stops at a bad character inside a URL, or the checks could never
// report it.
//
// The package does no I/O, never panics, and runs in time linear in the
// document (the Markdown code-span index adds a logarithmic factor): every
// search that could fail is either bounded by the next delimiter or a short
// limit, or remembered (scanner.misses, scanner.nextIndex), and the link
// delimiter stack is bounded.
//
// # Decisions
//
// Where the sources leave a choice, the tokenizer takes these:
//
//   - A bare URL in running text needs a scheme, and the scheme must be
//     meant as one, because prose and code are full of words before a colon
//     ("Note:", "file:line", "key:value") and many are registered schemes
//     too (about, content, data, feed, info, message, news, service,
//     session, shell, tag, …). So: any scheme-shaped word of two or more
//     characters followed by "://" and a host-like character ("foo://bar",
//     "htps://x": the checks call an unknown scheme information and a
//     near-miss an error; a word with a "." must be a scheme in use, as
//     "http.https://…" of git config is a key); or a scheme of the bareSchemes table followed by
//     ":" and what its syntax needs: "/" for the hierarchical ones (http,
//     https, ftp, file, ws, ssh, git, …: "file:/etc/x", not "file:line" or
//     "http:" alone), an address with "@" for mailto, a newsgroup with a "."
//     for news, a namespace and ":" for urn, a media type or "," for data,
//     digits for tel and sms, "about:" and a lower-case page name, and so
//     on. Every other scheme in use is a bare URL only before "//"; any
//     scheme is a URL where the writer said so: a wrapper, a Markdown link
//     or autolink, an HTML URL attribute, a string literal that is exactly
//     "scheme://…".
//   - A scheme name with an upper-case letter ("Note:", "TODO:", "WARNING:",
//     "File:") starts a bare URL only before "//", but for "MAILTO:" with an
//     address and "URN:" with a namespace.
//   - Typos the checks report are candidates, as written: "https//host"
//     and "http//host" (no colon, then a letter, digit or "["),
//     "http:/host" (one slash), "http::host.example" (a doubled colon, then
//     a dotted host name; "http::Request" is a Rust path), "hhttps://" and
//     "htps://" (any scheme before "://").
//   - No scheme, no URL: "www.example.com", bare domains and e-mail
//     addresses are not candidates (urlls would have to invent the scheme);
//     Markdown e-mail autolinks <user@example.com> are skipped.
//   - A bare URL starts at a word boundary: not after a letter, digit, "+",
//     "-" or ".", nor after a "_" inside a word
//     ("SSL_CTX_use_PrivateKey_file:PEM"); a "_" that starts a word is
//     emphasis ("_http://a.com_"). A cased non-ASCII letter ("é", "α", "я")
//     is part of the word too; an uncased one (CJK, Thai, Hangul) is not,
//     as those scripts put no spaces between words and URLs.
//     A scheme right after "^" starts a regular expression
//     ("^https://([^.]+)\.github\.io/"), not a URL.
//     The letter of an escape sequence that stands for a control
//     character ("\n", "\t", "\r", "\f", "\v", "\b") is not a scheme's:
//     "URL:\nhttps://x.org" in a string, or quoted in a comment, holds
//     https://x.org (escapeLetterAt).
//   - A bare URL ends at white space and controls, < > " and the backquote,
//     non-ASCII white space, Unicode quotation marks and CJK/full-width
//     punctuation, and where references are not decoded (plain text,
//     comments, string literals) at "&lt;", "&gt;" and "&quot;", HTML
//     written as text (delimiterRef), and at a "," that separates the
//     items of a list (listComma: another URL follows, or GOPROXY's
//     "direct" or "off" ends the list) and a "|" that another URL follows
//     (urlFollows), and at a "\n", "\r" or "\t" escape that a program
//     expands into a line break or a tab (newlineEscape); else not at | { }
//     ^ \ [ ] ~, non-ASCII letters or a bad "%zz", which stay in it to be
//     reported. Then . , : ; ! ? * _ ~ and "…" are dropped from its end,
//     repeatedly, and "'" when unbalanced, and outside Markdown a "|" (a
//     text table's border) and a "\" before the quotation mark that ends
//     the URL (an escaped string); a closing ) ] } without its opening
//     partner ends it. In plain text and comments, a "[" or "{" that opens
//     words closed on its line ("https://x.org/y[the text]", "vault://{vault
//     node}") ends it too (spacedTextOpen).
//   - Template syntax does not end a bare URL in running text: an action
//     "{{ … }}", "{% … %}" or "<% … %>" closed on its line (256 bytes at
//     most) is stepped over whole, spaces and quotes included
//     ("https://{{ .Site.BaseURL }}/about" is one candidate), and so is a
//     "<name>" placeholder after "/", "=", ":" or "@" that is not an HTML
//     tag name ("https://github.com/<user>/<repo>"); "${HOST}" never ended
//     one. The checks mask what Placeholders finds.
//   - After a quote, "http://…" and 'http://…' are Quoted; the quote ends
//     the URL, white space too. In comments and string literals of code,
//     'http://…' ends at its closing quote too (its context stays Code).
//   - The target of a JSDoc or TSDoc inline link tag ("{@link
//     https://x.org/a|text}", "{@linkcode …}", "{@linkplain …}") ends at
//     the "|" that starts the link's text (linkTagBefore).
//   - <URL:…> and <scheme:…> may span up to 8 line breaks, not a blank
//     line, and their white space is removed (RFC 1738 appendix); a hyphen
//     before a line break is kept, and nothing is trimmed. <URL:…> may hold
//     any white space and is Relative: the writer said it is a URL.
//     <scheme:…> needs a scheme in use (the IANA registry, the widely used
//     unregistered ones, bareSchemes) or "://", and its white space may
//     only break it over lines (a line break right after a URL character,
//     then indentation, as in RFC 3986 Appendix C): a space within a line
//     means prose or a placeholder ("<note: this is prose>",
//     "<user:password>", "<T: Clone>").
//   - References are decoded where the renderer decodes them (HTML
//     attributes and text, Markdown destinations and text, escape sequences
//     of string literals, reStructuredText's backslash escapes in the URI
//     of a target, an embedded URI or a directive), never in autolinks,
//     wrappers or comments (but for TSDoc's "\@", "\{" and "\}", an "@"
//     and braces, in any comment of code: decComment); Text is then the
//     decoded URL and Offsets maps each byte back.
//   - Template actions of site generators ("{{ .Site.BaseURL }}",
//     "{{< ref "a.md" >}}", "{{% eturl x %}}", "{% link a.md %}") in a
//     Markdown link destination, reference definition or autolink are part
//     of the URL, white space and all: Hugo and Jekyll replace them before
//     the Markdown is rendered. The checks leave them alone (Placeholders).
//   - A Markdown inline link or image whose destination holds white space
//     outside <…> and template actions ("[About](https://example.com/about
//     us)") is text to CommonMark, but the writer meant a link: the
//     destination is a candidate with Unrendered set, when it looks like
//     one (see scanMarkdown), so that the checks can say the link does not
//     render. Prose in parentheses after a bracket ("[see](the docs)") is
//     not one.
//   - Code spans, fenced and indented code blocks, HTML comments and the
//     text of <a> elements are not scanned; the text of inline and
//     reference links and image descriptions is not either (GFM never
//     links it).
//   - HTML <script> is scanned as JavaScript and <style> as CSS. A template
//     action ("{{ … }}", "{% … %}") in HTML text is not markup, and in an
//     attribute value it is part of the value, quotes inside included. Bare
//     URLs in the text of <pre>, <code>, <samp> and <kbd> are examples, as
//     in Markdown's code blocks, and are not scanned.
//   - Plain text that looks like AsciiDoc (looksLikeAsciiDoc: link macros,
//     attribute entries, block attributes) is scanned as AsciiDoc: git and
//     others write AsciiDoc in .txt files.
//   - reStructuredText: targets, embedded URIs, image and figure URIs and
//     the :target: and :url: options are URLs (Relative set; white space
//     inside removed, as docutils does); literal blocks, code directives,
//     inline literals, interpreted text (roles name labels, not URLs) and
//     comments are skipped.
//   - AsciiDoc: a URL ends at "[" ("https://a.org[text]" is a link macro)
//     and its bracketed text is not scanned; link: and image: targets are
//     URLs (Relative set); a URL that starts with an attribute reference
//     ("{url-repo}/issues[…]") is skipped, as its value is checked where the
//     attribute is set; listing, literal, passthrough and comment blocks,
//     literal paragraphs, passthroughs and cross references are skipped.
//   - In string literals of code, a template placeholder ("{", "${", "#{",
//     a printf verb, "{{") ends a URL, as does Python's "\N{NAME}", a
//     character by name, and an escape sequence is decoded:
//     there the rest is filled in by the program (concatenated, formatted),
//     and the literal part before it is what the writer typed. Such a URL,
//     and one that runs to the end of a literal concatenated with what
//     follows ('http://user@' + host), is Continued: the checks do not
//     hold its end against it. In running text a template action does not
//     end a URL (see above). A string literal that is the first argument
//     of a regular-expression constructor or matcher of a standard library
//     ("regexp.MustCompile(`^(oci://[^:]+)`)", "re.compile(r'…')", "new
//     RegExp('…')": regexArgument) is a pattern, and no URL is found in it.
package scan

import (
	"slices"
	"strings"
	"sync"
)

// Context says where a candidate URL stands in its document.
type Context uint8

const (
	// Bare is a URL in running text, recognised by its scheme.
	Bare Context = iota
	// Angle is a URL in <…> (RFC 1738 appendix, Markdown autolinks).
	Angle
	// Wrapped is a URL in <URL:…> (RFC 1738 appendix); white space inside
	// is not part of the URL.
	Wrapped
	// Quoted is a URL in quotes in plain text.
	Quoted
	// Link is a Markdown inline link or image destination, a
	// reStructuredText embedded URI or image URI, or an AsciiDoc link: or
	// image: target.
	Link
	// RefDef is a Markdown link reference definition's destination, or the
	// URI of a reStructuredText hyperlink target.
	RefDef
	// Attr is an HTML attribute value that holds a URL (href, src, …).
	Attr
	// Base is the href of an HTML <base> element.
	Base
	// Code is a URL inside a comment or string literal of source code.
	Code
)

var contextNames = [...]string{"bare", "angle", "wrapped", "quoted", "link", "refdef", "attr", "base", "code"}

func (c Context) String() string {
	if int(c) < len(contextNames) {
		return contextNames[c]
	}
	return "unknown"
}

// Candidate is one URL found in a document.
type Candidate struct {
	// Start and End delimit the URL's bytes in the document, wrappers
	// excluded: doc[Start:End] is what the writer typed for the URL.
	Start, End int
	// Text is the URL the document means: doc[Start:End] with the white space
	// of a <URL:…> wrapper removed and HTML character references decoded
	// (and, where they apply, Markdown backslash escapes and the escape
	// sequences of string literals).
	Text string
	// Offsets maps Text back to the document: byte i of Text comes from
	// document offset Offsets[i], and Offsets[len(Text)] == End. It is nil
	// when Text == doc[Start:End], each byte at Start+i.
	Offsets []int
	// Context is where the URL stands.
	Context Context
	// Relative is set where a relative reference is a URL too (links,
	// attributes, reference definitions): parse it with RFC 1808 relativeURL.
	Relative bool
	// Unrendered is set on a Markdown link destination the renderer will not
	// make a link of as written: white space in a destination outside <…>
	// ("[About](https://example.com/about us)"). The writer meant a link and
	// gets text; Text holds the destination, white space included.
	Unrendered bool
	// Continued is set on a URL in a string literal of code that the
	// program completes: a template placeholder cut it ("http://u:p@{host}/x"
	// is checked up to "@"), or the literal is concatenated with what
	// follows it ('http://user@' + host). Its end is not the URL's: what
	// the URL lacks there (a host after "@") is the program's to add. So
	// is a URL that a backslash ending its line wraps onto the next line
	// ("# see http://x.org/a/\" then "# b/"), in code or text.
	Continued bool
}

// DocOffset maps byte offset i of c.Text (0 <= i <= len(c.Text)) to its
// document offset.
func (c *Candidate) DocOffset(i int) int {
	if c.Offsets == nil {
		return c.Start + i
	}
	if i < 0 {
		return c.Start
	}
	if i >= len(c.Offsets) {
		return c.End
	}
	return c.Offsets[i]
}

// Result is what Scan finds in a document.
type Result struct {
	// Candidates are the candidate URLs, in document order.
	Candidates []Candidate
	// Suppressions are the spans of the document where the suppression
	// directives of its comments suppress diagnostics, ordered by Start.
	//
	// A directive is the first word of a comment (after white space and
	// decoration such as "*", "#", "/" or "-"), so that prose that mentions
	// one is not one; codes may follow, separated by white space or commas,
	// up to the end of the comment or a "--" that starts a free-form reason
	// ("// urlls-disable-next-line bad-escape, unsafe-char -- legacy link"),
	// on the directive's line:
	//   - urlls-disable-line: the line of the directive;
	//   - urlls-disable-next-line: the line after the comment's last line;
	//   - urlls-disable … urlls-enable: from the start of the disabling
	//     comment to the start of the enabling one, or to the end of the
	//     document. An urlls-enable with codes ends the regions of those
	//     codes only; one without codes ends them all. A region that
	//     disables all codes is ended only by an urlls-enable without codes.
	//
	// A line span runs from the start of the line to the start of the next
	// one (its line break included).
	//
	// The comments are those of the language, found by the same pass that
	// finds the URLs: //, /* */ and the other comments of code (so a
	// directive inside a string is not one); <!-- --> in HTML and Markdown
	// (not in code blocks or code spans); the comments of reStructuredText
	// and AsciiDoc; in plain text and unknown languages, a line whose first
	// non-blank characters are //, #, ;, --, /* or <!--, up to the end of
	// the line or the comment's closing delimiter.
	Suppressions []Suppression
}

// Scan finds, in one pass over doc, its candidate URLs (in document order)
// and its suppression directives (see Result; plain text, which has no
// comment syntax, finds its directives by a search for "urlls-"), for the
// LSP language id
// lang: "markdown"; "html" (and "xml", "xhtml", "svg", "vue",
// "svelte", which are scanned as HTML); "restructuredtext"; "asciidoc";
// "plaintext"; or a code language
// ("go", "python", "javascript", "typescript", "javascriptreact",
// "typescriptreact", "c", "cpp", "java", "rust", "shellscript", "ruby",
// "yaml", "toml", "json", "jsonc", "css", "lua", "sql", and the others of
// the languages table). An unknown language is scanned as plain text.
//
// Plain text (and comments of code) holds:
//   - bare URLs: a scheme at a word boundary that is meant as one (see the
//     package doc's Decisions, schemeStart and bareSchemes): any scheme
//     before "://", a known scheme followed by its syntax ("mailto:a@b.c",
//     "urn:isbn:…", "file:/x", "about:blank"), and the typos "https//host",
//     "http:/host" and "http::host.example". See scanBare and bareURL for
//     where one ends: at white space, controls, "<", ">", '"', "`",
//     non-ASCII white space, quotation marks and CJK punctuation (endsURL),
//     but not at other bad characters, which are left in to be reported,
//     nor inside a template action; then trailing punctuation and
//     unbalanced brackets are dropped. A URL right after a quote,
//     "http://…" or 'http://…', has context Quoted and ends at the closing
//     quote (white space still ends it too).
//   - RFC 1738 appendix wrappers: <URL:…> (context Wrapped) and <scheme:…>
//     for a scheme in use or before "://" (context Angle); white space
//     inside is removed from Text, with Offsets (in <scheme:…> only at line
//     breaks).
//
// Markdown is scanned by scanMarkdown, HTML by scanHTML, reStructuredText
// by scanRST, AsciiDoc by scanAsciiDoc and code by scanCode; their doc
// comments give the rules. Scan never panics and runs in
// time linear in len(doc) (up to a logarithmic factor for Markdown code
// spans).
func Scan(doc []byte, lang string) Result {
	return ScanInto(nil, doc, lang)
}

// ScanInto is Scan with the candidates in dst's memory, which it writes
// over: a caller that scans document after document and is done with
// each one's candidates before the next allocates their memory once.
func ScanInto(dst []Candidate, doc []byte, lang string) Result {
	kind, _ := languageKind(lang)
	sc := newScanner(doc, kind != kindText)
	defer sc.release()
	sc.cands = dst[:0]
	sc.run(lang)
	if kind == kindText {
		// Plain text has no comment syntax of its own (and the AsciiDoc
		// that looksLikeAsciiDoc finds in it keeps to the plain-text one).
		return Result{Candidates: sc.sorted(), Suppressions: PlainTextSuppressions(doc)}
	}
	return Result{Candidates: sc.sorted(), Suppressions: suppressions(doc, sc.comments)}
}

// scannerPool keeps the scratch of Scan's scanners (comments, decoded
// units, tag attributes, text, remembered searches) for the next one: a
// scan of a small document would otherwise allocate more for them than
// for its candidates.
var scannerPool = sync.Pool{New: func() any { return new(scanner) }}

// newScanner returns a scanner of doc, with the scratch of an earlier one
// if there is one (release left it empty).
func newScanner(doc []byte, wantComments bool) *scanner {
	sc := scannerPool.Get().(*scanner)
	sc.doc, sc.wantComments = doc, wantComments
	return sc
}

// release puts sc's scratch back in scannerPool, unless it grew too large
// (maxPooled). Its candidates are the caller's: they are not kept.
func (sc *scanner) release() {
	if cap(sc.comments) > maxPooled || cap(sc.decs) > maxPooled || cap(sc.attrs) > maxPooled ||
		cap(sc.text) > maxPooled || len(sc.misses) > 64 || len(sc.next) > 64 {
		return
	}
	clear(sc.misses)
	clear(sc.next)
	*sc = scanner{comments: sc.comments[:0], decs: sc.decs[:0], attrs: sc.attrs[:0], text: sc.text[:0],
		misses: sc.misses, next: sc.next}
	scannerPool.Put(sc)
}

func (sc *scanner) run(lang string) {
	n := len(sc.doc)
	switch kind, sy := languageKind(lang); kind {
	case kindMarkdown:
		sc.scanMarkdown(0, n)
	case kindHTML:
		sc.scanHTML(0, n)
	case kindCode:
		sc.scanCode(0, n, sy)
	case kindRST:
		sc.scanRST(0, n)
	case kindAsciiDoc:
		sc.scanAsciiDoc(0, n)
	default:
		if looksLikeAsciiDoc(sc.doc) {
			sc.scanAsciiDoc(0, n)
			return
		}
		sc.scanText(0, n, bareOpts{}, angleText)
	}
}

// sorted returns the candidates in document order. The scanners find them
// in runs that are in order (a wrapper before the bare URLs that precede
// it, a link's destination before the bare URLs of its text, Markdown's
// reference definitions and HTML blocks before its inline regions, which
// wait for the end of the document), so this is cheap.
func (sc *scanner) sorted() []Candidate {
	if !slices.IsSortedFunc(sc.cands, func(x, y Candidate) int { return x.Start - y.Start }) {
		slices.SortStableFunc(sc.cands, func(x, y Candidate) int { return x.Start - y.Start })
	}
	sc.fillTexts()
	return sc.cands
}

// fillTexts sets the Text of the candidates that emit left without one,
// whose Text is doc[Start:End], to substrings of one string: one
// allocation instead of one for each.
func (sc *scanner) fillTexts() {
	if sc.rawText == 0 {
		return
	}
	pending := func(c *Candidate) bool { return c.Text == "" && c.Offsets == nil && c.End > c.Start }
	var b strings.Builder
	b.Grow(sc.rawText)
	for i := range sc.cands {
		if c := &sc.cands[i]; pending(c) {
			b.Write(sc.doc[c.Start:c.End])
		}
	}
	all, k := b.String(), 0
	for i := range sc.cands {
		if c := &sc.cands[i]; pending(c) {
			c.Text = all[k : k+c.End-c.Start]
			k += c.End - c.Start
		}
	}
	sc.rawText = 0
}

type langKind uint8

const (
	kindText langKind = iota
	kindMarkdown
	kindHTML
	kindCode
	kindRST
	kindAsciiDoc
)

// markupKinds are the languages read as markup, by their LSP ids and the
// names users give them.
var markupKinds = map[string]langKind{
	"markdown": kindMarkdown, "mdx": kindMarkdown,
	"html": kindHTML, "xhtml": kindHTML, "xml": kindHTML, "xsl": kindHTML, "svg": kindHTML, "vue": kindHTML,
	"svelte": kindHTML, "vue-html": kindHTML, "django-html": kindHTML, "handlebars": kindHTML, "razor": kindHTML,
	"restructuredtext": kindRST, "rst": kindRST,
	"asciidoc": kindAsciiDoc, "adoc": kindAsciiDoc,
	"plaintext": kindText,
}

func languageKind(lang string) (langKind, *syntax) {
	lang = strings.ToLower(lang)
	if k, ok := markupKinds[lang]; ok {
		return k, nil
	}
	if sy, ok := languages[lang]; ok {
		return kindCode, sy
	}
	return kindText, nil
}
