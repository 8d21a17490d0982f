package scan

// PlainText reports whether Scan reads doc of language lang as plain text
// (scanText): a language with no tokenizer of its own, and a document that
// does not look like AsciiDoc (looksLikeAsciiDoc reads the first
// sniffLimit bytes only).
func PlainText(doc []byte, lang string) bool {
	kind, _ := languageKind(lang)
	return kind == kindText && !looksLikeAsciiDoc(doc)
}

// SniffLimit is how many bytes from the start of a plain-text document
// decide whether it is read as AsciiDoc: an edit after them cannot change
// PlainText.
const SniffLimit = sniffLimit

// ScanPlainTextRange returns the candidates that Scan finds in doc[a:b]
// when it reads doc as plain text (PlainText), for a caller that re-scans
// only the part of a document an edit touched. It is exact when a and b
// are paragraph boundaries (0, len(doc), or the start of a line after a
// blank line): in plain text no candidate spans a blank line (a bare URL
// ends at white space, a template action at its line's end, a wrapper at a
// blank line, see wrapper), and the scan looks at no byte before a or
// after b beyond the line break before a.
func ScanPlainTextRange(doc []byte, a, b int) []Candidate {
	a, b = max(0, a), min(b, len(doc))
	if a >= b {
		return nil
	}
	sc := &scanner{doc: doc, partFrom: a, partTo: b}
	sc.scanText(a, b, bareOpts{}, angleText)
	return sc.sorted()
}

// PlainTextSuppressions returns the suppressions Scan finds in doc when it
// reads doc as plain text (PlainText): what a caller that re-scans part of
// a document with ScanPlainTextRange needs beside its candidates. Like
// Scan, it reads only the lines that hold "urlls-".
func PlainTextSuppressions(doc []byte) []Suppression {
	sc := &scanner{doc: doc, wantComments: true}
	sc.textComments()
	return suppressions(doc, sc.comments)
}
