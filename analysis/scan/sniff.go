package scan

import (
	"bytes"
	"regexp"
	"strings"
)

// sniffLimit is how much of a plain-text document looksLikeAsciiDoc reads.
const sniffLimit = 64 << 10

// asciiDocMarkers are the constructs that plain text hardly ever holds and
// AsciiDoc documents are full of: inline macros with their bracketed text
// ("linkgit:git-log[1]", "link:x.html[x]", "https://x.org/y[text]",
// "image:a.png[]", or a text that a line break wraps, "https://x.org/y[the"
// at a line's end; a URL macro's target is not empty, as Asciidoctor's
// InlineLinkRx has it, so "http://[::1]:80/" is an IP literal, not a
// macro), attribute entries (":toc: left"), block attribute lines
// ("[source,go]", "[NOTE]") and include and image block macros.
//
// Each comes with a test of what every match of it holds, so that the
// expression runs only on the lines where it may match: that halves the
// sniff of a tree's plain text, and finds the same (FuzzAsciiDocSniffLines).
var asciiDocMarkers = []struct {
	re       *regexp.Regexp
	mayMatch func(line []byte) bool
}{
	// A macro's "[" follows its name and target (macroBracket).
	{regexp.MustCompile(`(?m)\b(?:(?:https?|ftp|irc)://[^\s\[\]]+|(?:` + strings.Join(macroNames, "|") + `):[^\s\[\]]*)\[(?:[^\]\n]*\]|\pL[^\]\n]*$)`),
		macroBracket},
	// An attribute entry starts with ":".
	{regexp.MustCompile(`(?m)^:!?[A-Za-z0-9_][A-Za-z0-9_-]*!?:(?: |$)`),
		func(line []byte) bool { return line[0] == ':' }},
	// A block attribute line starts with "[".
	{regexp.MustCompile(`(?m)^\[(?:source|listing|literal|verse|quote|NOTE|TIP|IMPORTANT|WARNING|CAUTION|horizontal|glossary)(?:[,\]])`),
		func(line []byte) bool { return line[0] == '[' }},
	// A block macro starts its line with its name and "::" (a line of
	// 40,000 "http://[::1]/" holds "::" 40,000 times, and the expression
	// tried each of its bytes).
	{regexp.MustCompile(`(?m)^(?:` + strings.Join(blockMacroNames, "|") + `)::\S*\[`),
		blockMacroStart},
}

// looksLikeAsciiDoc reports whether doc, given as plain text, is AsciiDoc:
// at least three markers (asciiDocMarkers) in its first sniffLimit bytes.
// Projects write AsciiDoc in .txt files (git's documentation is), and read
// as plain text every "https://x.org/y[text]" link macro would be a URL
// with a broken "[" in it.
//
// No marker spans a line ("\s", "\S" and "[^\]\n]" stop at its end, "^"
// and "$" are a line's), so the expressions run on the lines that can hold
// one only: a line with a "[" (every marker but an attribute entry has
// one) or that starts with ":" (an attribute entry). On a text of prose
// that is a few lines in a hundred, where running them over the whole
// head cost a check of a tree of real documents 15% of its time. The
// count is the same (TestAsciiDocSniffLines).
func looksLikeAsciiDoc(doc []byte) bool {
	head := doc[:min(len(doc), sniffLimit)]
	if bytes.IndexByte(head, '[') < 0 {
		return false
	}
	n := 0
	for len(head) > 0 {
		line := head
		if nl := bytes.IndexByte(head, '\n'); nl >= 0 {
			line, head = head[:nl], head[nl+1:]
		} else {
			head = nil
		}
		if len(line) == 0 || line[0] != ':' && bytes.IndexByte(line, '[') < 0 {
			continue
		}
		for _, m := range asciiDocMarkers {
			if !m.mayMatch(line) {
				continue
			}
			n += len(m.re.FindAllIndex(line, 3-n))
			if n >= 3 {
				return true
			}
		}
	}
	return false
}

// blockMacroNames are the names of the block macros of asciiDocMarkers'
// last expression.
var blockMacroNames = []string{"include", "image", "ifdef", "ifndef", "toc"}

// blockMacroStart reports whether line starts with a block macro's name
// and "::", as every match of asciiDocMarkers' last expression does.
func blockMacroStart(line []byte) bool {
	for _, name := range blockMacroNames {
		if rest, ok := bytes.CutPrefix(line, []byte(name)); ok && bytes.HasPrefix(rest, []byte("::")) {
			return true
		}
	}
	return false
}

// macroNames are the names of the inline macros of asciiDocMarkers' first
// expression whose target may be empty.
var macroNames = []string{"linkgit", "link", "xref", "image", "footnote", "kbd", "btn", "menu", "mailto"}

// macroBracket reports whether a "[" of line may end an inline macro's
// name and target, as the first expression of asciiDocMarkers has them:
// the bytes before it back to white space or a bracket (the target's
// [^\s\[\]]) hold a ":" after one of macroNames, or a "://" with a byte
// after it. A line of 40,000 IP literals ("http://[::1]/") has a "[" and a
// ":" in each URL and no macro; the expression ran over all of it.
func macroBracket(line []byte) bool {
	for i := bytes.IndexByte(line, '['); i >= 0; {
		t := i
		for t > 0 && !macroStop(line[t-1]) {
			t--
		}
		for run, j := line[t:i], 0; ; {
			k := bytes.IndexByte(run[j:], ':')
			if k < 0 {
				break
			}
			j += k
			if bytes.HasPrefix(run[j:], []byte("://")) && len(run)-j > 3 {
				return true
			}
			for _, name := range macroNames {
				if bytes.HasSuffix(run[:j], []byte(name)) {
					return true
				}
			}
			j++
		}
		k := bytes.IndexByte(line[i+1:], '[')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return false
}

// macroStop reports whether c ends a macro's target: white space as the
// expressions' \s has it, or a bracket.
func macroStop(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\f', '\r', '[', ']':
		return true
	}
	return false
}
