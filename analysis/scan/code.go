package scan

// commentRule says where a line comment opener counts.
type commentRule uint8

const (
	anywhere commentRule = iota
	// wordStart: at the start of a line or after white space, as "#" in
	// shells, YAML and Dockerfiles ("$#", "a#b" and "http://h/#f" are not
	// comments).
	wordStart
	// lineStartOnly: first on its line, after white space (INI files).
	lineStartOnly
)

type lineComment struct {
	open string
	rule commentRule
}

type blockComment struct {
	open, close string
	nest        bool // Rust, Swift, Haskell, … comments nest
	lineStart   bool // Ruby's =begin and =end stand at the start of a line
}

// strStyle describes the string literals one quote character opens.
type strStyle struct {
	on      bool // the character opens a string literal
	esc     bool // a backslash escapes the next character
	decode  bool // backslash escapes are decoded (decString) for the URL text
	multi   bool // may span lines; otherwise a line break ends it
	char    bool // a character literal ('x', '\n'), not a string
	doubled bool // a doubled quote stands for one (SQL and YAML '…')
	// valueStart: opens a string only at the start of a value (YAML, where
	// a quote inside a plain scalar, "it's", is a character).
	valueStart bool
}

// syntax is what the code scanner knows of a language: its comments and
// string literals.
type syntax struct {
	line               []lineComment
	block              []blockComment
	dq, sq, bq         strStyle
	tripleDQ, tripleSQ bool // """…""" and '''…''', which span lines
	pyPrefix           bool // r"…", b'…', f"…", rb"…" (Python)
	rustRaw            bool // r"…", r#"…"#, br"…" (Rust)
	luaLong            bool // [[…]], [==[…]==] strings and --[[…]] comments (Lua)
	// bareInCode: URLs with a known scheme are found anywhere, not only in
	// comments and strings: in shell scripts, Dockerfiles, Makefiles, YAML
	// and INI files unquoted words and values are strings
	// ("curl https://…", "url: https://…").
	bareInCode bool
	cssURL     bool // url(…) and @import "…" hold (relative) URLs (CSS)

	starts byteSet // bytes that may start a comment or string
}

var (
	cStr     = strStyle{on: true, esc: true, decode: true}
	cChar    = strStyle{on: true, esc: true, char: true}
	multiStr = strStyle{on: true, esc: true, decode: true, multi: true}
	rawMulti = strStyle{on: true, multi: true}
	rawLine  = strStyle{on: true}
	escMulti = strStyle{on: true, esc: true, multi: true} // escapes end-aware, not decoded
	sqlStr   = strStyle{on: true, multi: true, doubled: true}

	slashComments = []lineComment{{"//", anywhere}}
	hashComments  = []lineComment{{"#", anywhere}}
	hashWord      = []lineComment{{"#", wordStart}}
	dashComments  = []lineComment{{"--", anywhere}}
	cBlock        = []blockComment{{open: "/*", close: "*/"}}
	cBlockNest    = []blockComment{{open: "/*", close: "*/", nest: true}}
)

func cLike(sq strStyle) *syntax {
	return &syntax{line: slashComments, block: cBlock, dq: cStr, sq: sq}
}

// languages maps an LSP language id to its syntax. An id that is neither
// here nor markdown or html (or one of its kin) is scanned as plain text.
var languages = func() map[string]*syntax {
	js := &syntax{line: slashComments, block: cBlock, dq: cStr, sq: cStr, bq: multiStr}
	goSyntax := &syntax{line: slashComments, block: cBlock, dq: cStr, sq: cChar, bq: rawMulti}
	rust := &syntax{line: slashComments, block: cBlockNest, dq: multiStr, sq: cChar, rustRaw: true}
	nested := &syntax{line: slashComments, block: cBlockNest, dq: cStr, sq: cChar, tripleDQ: true} // Kotlin, Scala
	swift := &syntax{line: slashComments, block: cBlockNest, dq: cStr, tripleDQ: true}             // no '…'
	dart := &syntax{line: slashComments, block: cBlockNest, dq: cStr, sq: cStr, tripleDQ: true, tripleSQ: true}
	java := &syntax{line: slashComments, block: cBlock, dq: cStr, sq: cChar, tripleDQ: true}
	groovy := &syntax{line: slashComments, block: cBlock, dq: cStr, sq: cStr, tripleDQ: true, tripleSQ: true}
	php := &syntax{line: []lineComment{{"//", anywhere}, {"#", anywhere}}, block: cBlock, dq: multiStr, sq: escMulti}
	python := &syntax{line: hashComments, dq: cStr, sq: cStr, tripleDQ: true, tripleSQ: true, pyPrefix: true}
	ruby := &syntax{line: hashComments, block: []blockComment{{open: "=begin", close: "=end", lineStart: true}}, dq: multiStr, sq: escMulti}
	perl := &syntax{line: hashComments, dq: multiStr, sq: escMulti}
	shell := &syntax{line: hashWord, dq: escMulti, sq: rawMulti, bareInCode: true}
	powershell := &syntax{line: hashWord, block: []blockComment{{open: "<#", close: "#>"}}, dq: rawMulti, sq: sqlStr, bareInCode: true}
	yaml := &syntax{line: hashWord, dq: strStyle{on: true, esc: true, decode: true, multi: true, valueStart: true},
		sq: strStyle{on: true, multi: true, doubled: true, valueStart: true}, bareInCode: true}
	toml := &syntax{line: hashComments, dq: cStr, sq: rawLine, tripleDQ: true, tripleSQ: true}
	ini := &syntax{line: []lineComment{{"#", lineStartOnly}, {";", lineStartOnly}, {"!", lineStartOnly}}, bareInCode: true}
	dotenv := &syntax{line: hashWord, dq: escMulti, sq: rawMulti, bareInCode: true}
	lua := &syntax{line: dashComments, dq: cStr, sq: cStr, luaLong: true}
	sql := &syntax{line: dashComments, block: cBlock, dq: sqlStr, sq: sqlStr}
	haskell := &syntax{line: dashComments, block: []blockComment{{open: "{-", close: "-}", nest: true}}, dq: cStr, sq: cChar}
	lisp := &syntax{line: []lineComment{{";", anywhere}}, block: []blockComment{{open: "#|", close: "|#", nest: true}}, dq: multiStr}
	css := &syntax{block: cBlock, dq: escMulti, sq: escMulti, cssURL: true}
	scss := &syntax{line: slashComments, block: cBlock, dq: escMulti, sq: escMulti, cssURL: true}
	json := &syntax{dq: cStr}
	jsonc := &syntax{line: slashComments, block: cBlock, dq: cStr, sq: cStr}
	elixir := &syntax{line: hashComments, dq: multiStr, sq: multiStr, tripleDQ: true}
	erlang := &syntax{line: []lineComment{{"%", anywhere}}, dq: multiStr}
	r := &syntax{line: hashComments, dq: multiStr, sq: multiStr}
	julia := &syntax{line: hashComments, block: []blockComment{{open: "#=", close: "=#", nest: true}}, dq: multiStr, sq: cChar, tripleDQ: true}
	nim := &syntax{line: hashComments, block: []blockComment{{open: "#[", close: "]#", nest: true}}, dq: cStr, sq: cChar, tripleDQ: true}
	cmake := &syntax{line: hashComments, dq: escMulti, bareInCode: true}
	makefile := &syntax{line: hashComments, bareInCode: true}
	zig := &syntax{line: slashComments, dq: cStr, sq: cChar}
	m := map[string]*syntax{
		"go": goSyntax, "rust": rust,
		"javascript": js, "typescript": js, "javascriptreact": js, "typescriptreact": js, "json5": js,
		"c": cLike(cChar), "cpp": cLike(cChar), "cuda-cpp": cLike(cChar), "objective-c": cLike(cChar),
		"objective-cpp": cLike(cChar), "csharp": cLike(cChar), "hlsl": cLike(cChar), "glsl": cLike(cChar),
		"shaderlab": cLike(cChar), "solidity": cLike(cStr), "proto": cLike(cStr), "proto3": cLike(cStr),
		"java": java, "kotlin": nested, "scala": nested, "swift": swift, "dart": dart, "groovy": groovy,
		"php": php, "python": python, "ruby": ruby, "perl": perl, "perl6": perl, "raku": perl,
		"shellscript": shell, "bash": shell, "sh": shell, "zsh": shell, "fish": shell, "dockerfile": shell,
		"powershell": powershell, "yaml": yaml, "toml": toml, "ini": ini, "properties": ini, "dotenv": dotenv,
		"lua": lua, "sql": sql, "haskell": haskell, "clojure": lisp, "lisp": lisp, "scheme": lisp,
		"racket": lisp, "emacs-lisp": lisp, "css": css, "scss": scss, "less": scss, "json": json,
		"jsonc": jsonc, "jsonl": json, "elixir": elixir, "erlang": erlang, "r": r, "julia": julia, "nim": nim,
		"cmake": cmake, "makefile": makefile, "zig": zig,
	}
	for _, sy := range m {
		sy.init()
	}
	return m
}()

func (sy *syntax) init() {
	for _, l := range sy.line {
		sy.starts[l.open[0]] = 1
	}
	for _, b := range sy.block {
		sy.starts[b.open[0]] = 1
	}
	for _, q := range []struct {
		c  byte
		st strStyle
	}{{'"', sy.dq}, {'\'', sy.sq}, {'`', sy.bq}} {
		if q.st.on {
			sy.starts[q.c] = 1
		}
	}
	if sy.pyPrefix {
		for _, c := range "rRbBuUfF" {
			sy.starts[c] = 1
		}
	}
	if sy.rustRaw {
		sy.starts['r'], sy.starts['b'] = 1, 1
	}
	if sy.luaLong {
		sy.starts['['] = 1
	}
	if sy.cssURL {
		sy.starts['u'], sy.starts['U'], sy.starts['@'] = 1, 1, 1
	}
}

// commentOpts are the rules of bare URLs in comments of code.
var commentOpts = bareOpts{ctx: Code, mode: decComment}

func isIdent(c byte) bool { return isAlnum(c) || c == '_' || c >= 0x80 }

// scanCode finds the URLs of source code in doc[a:b]: those in comments
// (plain text: bare URLs with a known scheme and <…> wrappers; context Code,
// or Angle and Wrapped for wrappers) and in string literals (context Code),
// and, for languages with bareInCode, those elsewhere too.
//
// In a string literal, escape sequences are decoded (Text holds the
// character, Offsets map it back; "http:\/\/example.com" in JSON is
// http://example.com), and a literal that is exactly a URL (a known scheme,
// or a scheme of two or more characters and "://": "redis://localhost:6379")
// is one candidate, whole, with no trailing punctuation dropped: its quotes
// delimit it. Otherwise the bare URLs with a known scheme inside it are
// found, and the start of a template placeholder ends them ("{id}", "${x}",
// "%s"): the rest is not URL text yet.
func (sc *scanner) scanCode(a, b int, sy *syntax) {
	doc := sc.doc
	code := a
	for i := a; ; {
		if i = sy.starts.next(doc, i, b); i >= b {
			break
		}
		end, ok := sc.codeToken(i, a, b, sy)
		if !ok {
			i++
			continue
		}
		if sy.bareInCode && code < i {
			sc.scanBare(code, i, bareOpts{ctx: Code})
		}
		i, code = end, end
	}
	if sy.bareInCode && code < b {
		sc.scanBare(code, b, bareOpts{ctx: Code})
	}
}

// codeToken scans the comment or string literal at doc[i], if one starts
// there, and returns its end.
func (sc *scanner) codeToken(i, a, b int, sy *syntax) (int, bool) {
	doc := sc.doc
	c := doc[i]
	prev := byte('\n')
	if i > a {
		prev = doc[i-1]
	}
	atLineStart := func() bool {
		for k := i - 1; k >= a; k-- {
			switch doc[k] {
			case ' ', '\t':
				continue
			case '\n', '\r':
				return true
			}
			return false
		}
		return true
	}
	if sy.luaLong && c == '-' && hasPrefix(doc[i:b], "--[") {
		if n := longBracket(doc, i+2, b); n >= 0 {
			return sc.longBracket(i, i+2, n, b, true), true
		}
	}
	for _, bc := range sy.block {
		if !hasPrefix(doc[i:b], bc.open) || bc.lineStart && !atLineStart() {
			continue
		}
		return sc.blockComment(i, b, bc), true
	}
	for _, lc := range sy.line {
		if !hasPrefix(doc[i:b], lc.open) {
			continue
		}
		switch lc.rule {
		case wordStart:
			if prev != ' ' && prev != '\t' && prev != '\n' && prev != '\r' {
				continue
			}
		case lineStartOnly:
			if !atLineStart() {
				continue
			}
		}
		eol := lineBreak(doc, i, b)
		bs := i + len(lc.open)
		sc.scanText(bs, eol, commentOpts, angleComment)
		sc.comment(i, eol, bs, eol)
		return eol, true
	}
	if sy.luaLong && c == '[' {
		if n := longBracket(doc, i, b); n >= 0 {
			return sc.longBracket(i, i, n, b, false), true
		}
	}
	if sy.cssURL {
		if end, ok := sc.cssURL(i, a, b); ok {
			return end, true
		}
	}
	// A regular expression is a pattern of URLs, not one: its literal
	// is skipped whole.
	pattern := regexArgument(doc, i, a)
	// String prefixes: Python's r, b, u, f and pairs; Rust's r#…# and b.
	raw := false
	q := i
	if (sy.pyPrefix || sy.rustRaw) && isAlpha(c) {
		if i > a && isIdent(prev) {
			return 0, false
		}
		j := i
		for j < b && j < i+2 && isAlpha(doc[j]) {
			j++
		}
		hashes := 0
		if sy.rustRaw {
			for j < b && doc[j] == '#' {
				j++
				hashes++
			}
		}
		if j >= b || doc[j] != '"' && !(sy.pyPrefix && doc[j] == '\'') {
			return 0, false
		}
		for _, p := range doc[i:j] {
			switch lower(p) {
			case 'r':
				raw = true
			case 'b', 'u', 'f':
			default:
				return 0, false
			}
		}
		if hashes > 0 && !raw {
			return 0, false
		}
		if sy.rustRaw && raw {
			close := "\""
			for k := 0; k < hashes; k++ {
				close += "#"
			}
			ce, end := sc.stringEnd(j+1, b, close, rawMulti)
			if !pattern {
				sc.stringURLs(j+1, ce, end, decRaw)
			}
			return end, true
		}
		q = j
	}
	qc := doc[q]
	var st strStyle
	switch qc {
	case '"':
		st = sy.dq
	case '\'':
		st = sy.sq
	case '`':
		st = sy.bq
	}
	if !st.on {
		return 0, false
	}
	if st.valueStart && q > a {
		switch doc[q-1] {
		case ' ', '\t', '\n', '\r', ':', '[', '{', ',', '-', '?':
		default:
			return 0, false
		}
	}
	if st.char {
		return charLiteral(doc, q, b)
	}
	if (qc == '"' && sy.tripleDQ || qc == '\'' && sy.tripleSQ) && hasPrefix(doc[q:b], string([]byte{qc, qc, qc})) {
		st.multi = true
		st.doubled = false
		ce, end := sc.stringEnd(q+3, b, string([]byte{qc, qc, qc}), st)
		if !pattern {
			sc.stringURLs(q+3, ce, end, decodeFor(st, raw))
		}
		return end, true
	}
	ce, end := sc.stringEnd(q+1, b, string(qc), st)
	if !pattern {
		sc.stringURLs(q+1, ce, end, decodeFor(st, raw))
	}
	return end, true
}

// regexCallees are the functions and constructors of standard libraries
// (and Rust's regex crate) whose first argument is a regular expression,
// as the call names them.
var regexCallees = map[string]bool{
	// Go
	"regexp.Compile": true, "regexp.MustCompile": true, "regexp.CompilePOSIX": true,
	"regexp.MustCompilePOSIX": true, "regexp.Match": true, "regexp.MatchString": true, "regexp.MatchReader": true,
	// Python
	"re.compile": true, "re.match": true, "re.fullmatch": true, "re.search": true, "re.findall": true,
	"re.finditer": true, "re.sub": true, "re.subn": true, "re.split": true,
	// JavaScript, Java, Rust
	"RegExp": true, "Pattern.compile": true, "Pattern.matches": true, "Regex::new": true,
}

// regexArgument reports whether the string literal at doc[i] (its prefix
// or quote) is the first argument of a call that regexCallees names
// ("regexp.MustCompile(`^(oci://[^:]+)`)", "re.compile(r'https://…')",
// "new RegExp('…')"): its text is a pattern, not a URL, whatever URLs it
// looks like. It looks back no further than a short fixed distance, and
// not before a.
func regexArgument(doc []byte, i, a int) bool {
	lo := max(a, i-64)
	k := i
	for k > lo && isSpace(doc[k-1]) {
		k--
	}
	if k <= lo || doc[k-1] != '(' {
		return false
	}
	k--
	for k > lo && (doc[k-1] == ' ' || doc[k-1] == '\t') {
		k--
	}
	end := k
	k = wordBefore(doc, k, lo)
	if k == end {
		return false
	}
	if k-1 > lo && doc[k-1] == '.' {
		k = wordBefore(doc, k-1, lo)
	} else if k-2 > lo && doc[k-1] == ':' && doc[k-2] == ':' {
		k = wordBefore(doc, k-2, lo)
	}
	if k == lo && lo > a || k > lo && (isWordByte(doc[k-1]) || doc[k-1] == '.') {
		return false // the name's start unseen; "myregexp.Compile(", "x.re.compile("
	}
	return regexCallees[string(doc[k:end])]
}

// wordBefore returns the start of the word characters ending at doc[k],
// not before lo.
func wordBefore(doc []byte, k, lo int) int {
	for k > lo && isWordByte(doc[k-1]) {
		k--
	}
	return k
}

func decodeFor(st strStyle, raw bool) decodeMode {
	if st.decode && !raw {
		return decString
	}
	return decRaw
}

func hasPrefix(b []byte, p string) bool { return len(b) >= len(p) && string(b[:len(p)]) == p }

// stringStops are the bytes where a string literal may end or escape: the
// first bytes of every closing delimiter (a quote), the backslash and the
// line breaks. stringEnd jumps from one to the next.
var stringStops = newByteSet("\\\n\r\"'`")

// stringEnd finds the end of a string literal whose text starts at cs and
// which close closes. It returns the end of the text and of the literal; an
// unclosed literal ends at the end of its line (or of the input, if it may
// span lines).
func (sc *scanner) stringEnd(cs, b int, close string, st strStyle) (ce, end int) {
	doc := sc.doc
	for j := cs; ; {
		if j = stringStops.next(doc, j, b); j >= b {
			break
		}
		c := doc[j]
		switch {
		case c == '\\' && st.esc:
			j += 2 // an escape, or a line continuation
			continue
		case c == close[0] && hasPrefix(doc[j:b], close):
			if st.doubled && j+1 < b && doc[j+1] == c {
				j += 2
				continue
			}
			return j, j + len(close)
		case (c == '\n' || c == '\r') && !st.multi:
			return j, j
		}
		j++
	}
	return b, b
}

// charLiteral skips a character literal at doc[q] == '\” ('x', '\n',
// '\u{1F600}'); a quote that does not start one (a Rust lifetime 'a) is no
// token.
func charLiteral(doc []byte, q, b int) (int, bool) {
	j := q + 1
	if j < b && doc[j] == '\\' {
		for k := j + 1; k < b && k < j+12; k++ {
			if doc[k] == '\'' && k > j+1 {
				return k + 1, true
			}
			if doc[k] == '\n' {
				break
			}
		}
		return 0, false
	}
	if j < b && doc[j] != '\'' && doc[j] != '\n' {
		k := j + 1
		for k < b && k < j+4 && doc[k]&0xC0 == 0x80 {
			k++ // the rest of a UTF-8 sequence
		}
		if k < b && doc[k] == '\'' {
			return k + 1, true
		}
	}
	return 0, false
}

// stringURLs finds the URLs of the string literal text doc[cs:ce], the
// literal ending at end.
func (sc *scanner) stringURLs(cs, ce, end int, mode decodeMode) {
	concat := concatenated(sc.doc, end)
	n := len(sc.cands)
	if sc.exactURL(cs, ce, mode) {
		if concat && len(sc.cands) > n {
			sc.cands[n].Continued = true
		}
		return
	}
	o := bareOpts{mode: mode, ctx: Code, code: true}
	if concat {
		o.concatEnd = ce
	}
	sc.scanBare(cs, ce, o)
}

// concatenated reports whether the string literal ending at doc[end] is
// concatenated with what follows it: a "+" comes next, after blanks
// ('http://user@' + host + '/x').
func concatenated(doc []byte, end int) bool {
	k := skipBlanks(doc, end, min(len(doc), end+16))
	return k < len(doc) && doc[k] == '+' && (k+1 >= len(doc) || doc[k+1] != '+' && doc[k+1] != '=')
}

// exactURL emits the string literal text doc[cs:ce] as one candidate when
// it is exactly a URL: a scheme that schemeStart accepts ("scheme://…" with
// a scheme of two or more characters, not a drive letter "C:/x"; a known
// scheme with its syntax, "mailto:a@b.c"; not "key:value" or "file:line"),
// then no character that ends a URL and no template placeholder.
func (sc *scanner) exactURL(cs, ce int, mode decodeMode) bool {
	doc := sc.doc
	if ce-cs > 1<<13 || ce-cs < 4 || !isAlpha(doc[cs]) {
		return false
	}
	j := cs + 1
	for j < ce && isSchemeChar(doc[j]) {
		j++
	}
	if j >= ce || doc[j] != ':' || j-cs < 2 {
		return false
	}
	q := sc.decodeSeq(cs, ce, mode)
	if _, ok := schemeStart(doc, cs, j, ce); !ok {
		// "http:\/\/…" in JSON: judge the decoded text after the colon.
		if len(q.decs) == 0 || q.decs[0].start <= j {
			return false
		}
		var buf []byte
		it := q.iter(doc)
		for u, ok := it.next(); ok && len(buf) < 300; u, ok = it.next() {
			buf = u.appendText(buf, doc)
		}
		if _, ok := schemeStart(buf, 0, j-cs, len(buf)); !ok {
			return false
		}
	}
	content := false
	it := q.iter(doc)
	for u, ok := it.next(); ok; u, ok = it.next() {
		if endsURL(u.r) || u.r == '&' && !u.dec && delimiterRef(doc, u.start, ce) || u.r == ',' && !u.dec && listComma(doc, u.start, ce) {
			return false
		}
		k := u.start
		if !u.dec && (u.r == '{' || u.r == '%' && !(k+2 < ce && isHex(doc[k+1]) && isHex(doc[k+2])) && printfVerb(doc, k+1, ce)) {
			return false
		}
		if u.start > j && (u.r >= 0x80 || u.r < 0x80 && isAlnum(byte(u.r)) || u.r == '%') {
			content = true
		}
	}
	if !content {
		return false
	}
	sc.emit(q, Code, false)
	return true
}

// blockComment scans the block comment at doc[i] and returns its end; an
// unclosed one runs to b.
func (sc *scanner) blockComment(i, b int, bc blockComment) int {
	doc := sc.doc
	bs := i + len(bc.open)
	depth := 1
	// Jump from one first byte of a delimiter to the next, each search
	// remembered until it is passed.
	j := bs
	closeAt, openAt := j-1, b // the next first byte of close, and of open where comments nest
	if bc.nest {
		openAt = j - 1
	}
	for {
		if closeAt < j {
			closeAt = nextByte(doc, j, b, bc.close[0])
		}
		if openAt < j {
			openAt = nextByte(doc, j, b, bc.open[0])
		}
		if j = min(closeAt, openAt); j >= b {
			break
		}
		switch {
		case bc.nest && hasPrefix(doc[j:b], bc.open):
			depth++
			j += len(bc.open)
			continue
		case hasPrefix(doc[j:b], bc.close):
			depth--
			if depth == 0 {
				sc.scanText(bs, j, commentOpts, angleComment)
				sc.comment(i, j+len(bc.close), bs, j)
				return j + len(bc.close)
			}
			j += len(bc.close)
			continue
		}
		j++
	}
	sc.scanText(bs, b, commentOpts, angleComment)
	sc.comment(i, b, bs, b)
	return b
}

// longBracket returns the level of the Lua long bracket "[", "="*, "[" at
// doc[i], or -1.
func longBracket(doc []byte, i, b int) int {
	if i >= b || doc[i] != '[' {
		return -1
	}
	j := i + 1
	for j < b && doc[j] == '=' {
		j++
	}
	if j < b && doc[j] == '[' {
		return j - i - 1
	}
	return -1
}

// longBracket scans a Lua long string or comment ("--" at start when
// comment) whose bracket of level n is at doc[open].
func (sc *scanner) longBracket(start, open, n, b int, comment bool) int {
	doc := sc.doc
	bs := open + n + 2
	close := make([]byte, 0, n+2)
	close = append(close, ']')
	for k := 0; k < n; k++ {
		close = append(close, '=')
	}
	close = append(close, ']')
	be, end := b, b
	if k := indexString(doc[bs:b], string(close)); k >= 0 {
		be, end = bs+k, bs+k+len(close)
	}
	if comment {
		sc.scanText(bs, be, commentOpts, angleComment)
		sc.comment(start, end, bs, be)
	} else {
		sc.stringURLs(bs, be, end, decRaw)
	}
	return end
}

// cssURL scans url(…) and @import "…" at doc[i]: the URLs of style sheets,
// relative references included. CSS escapes are not decoded.
func (sc *scanner) cssURL(i, a, b int) (int, bool) {
	doc := sc.doc
	skip := func(p int) int {
		for p < b && isSpace(doc[p]) {
			p++
		}
		return p
	}
	quoted := func(p int) int {
		q := doc[p]
		ce, end := sc.stringEnd(p+1, b, string(q), escMulti)
		sc.cssRef(p+1, ce)
		return end
	}
	switch {
	case hasPrefixFold(doc[i:b], "url(") && (i == a || !isIdent(doc[i-1]) && doc[i-1] != '-'):
		p := skip(i + 4)
		if p < b && (doc[p] == '"' || doc[p] == '\'') {
			p = quoted(p)
		} else {
			s := p
			for p < b && doc[p] != ')' && !isSpace(doc[p]) && doc[p] != '"' && doc[p] != '\'' && doc[p] != '(' {
				p++
			}
			sc.cssRef(s, p)
		}
		if p = skip(p); p < b && doc[p] == ')' {
			p++
		}
		return p, true
	case hasPrefixFold(doc[i:b], "@import"):
		p := skip(i + 7)
		if p < b && (doc[p] == '"' || doc[p] == '\'') {
			return quoted(p), true
		}
		return i + 7, true
	}
	return 0, false
}

func (sc *scanner) cssRef(s, e int) {
	for s < e && isSpace(sc.doc[s]) {
		s++
	}
	for e > s && isSpace(sc.doc[e-1]) {
		e--
	}
	sc.emit(seq{start: s, end: e}, Code, true)
}
