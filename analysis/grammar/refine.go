package grammar

import (
	"strconv"
	"strings"
)

// The matcher tests a literal as a whole: when "http://" fails on
// "http:foo", the failure is at the literal's first byte, 0, and the
// literal is what was expected there. A reader wants the byte where the URL
// stops matching it, 5, and the part still missing, "//". These functions
// refine a failure that way when the only thing expected is one literal, as
// at the start of RFC 1738's productions (they are shared by the checks'
// messages and explain's caret).

// RefinedOffset moves a failure at offset o of input, where the only thing
// expected is one literal, to the first byte of input from o that differs
// from the literal (compared case-insensitively, as the grammars' quoted
// strings are): "file:PEM" goes wrong at "P", not at "f". Any other failure
// stays at o.
func RefinedOffset(input string, o int, expected []string) int {
	lit, ok := onlyLiteral(expected)
	if !ok || o < 0 || o > len(input) {
		return o
	}
	k := 0
	for k < len(lit) && o+k < len(input) && lower(input[o+k]) == lower(lit[k]) {
		k++
	}
	if k == len(lit) {
		return o
	}
	return o + k
}

// LiteralRest returns, quoted, what is still expected at offset o of input
// of a literal that the failure expected at an earlier offset
// (RefinedOffset): "//" of "file://" at offset 5 of "file:/x".
func LiteralRest(input string, o int, expected []string) (string, bool) {
	lit, ok := onlyLiteral(expected)
	if !ok || o > len(input) {
		return "", false
	}
	for k := 1; k < len(lit) && k <= o; k++ {
		if strings.EqualFold(input[o-k:o], lit[:k]) {
			return strconv.Quote(lit[k:]), true
		}
	}
	return "", false
}

// Refined returns e located as RefinedOffset says, expecting the rest of
// the literal, or e itself when it needs no refinement.
func (e *SyntaxError) Refined() *SyntaxError {
	o := RefinedOffset(e.Input, e.Offset, e.Expected)
	if o == e.Offset {
		return e
	}
	r := *e
	r.Offset = o
	if rest, ok := LiteralRest(e.Input, o, e.Expected); ok {
		r.Expected = []string{rest}
	}
	return &r
}

// onlyLiteral returns the literal when expected holds exactly one.
func onlyLiteral(expected []string) (string, bool) {
	if len(expected) != 1 || len(expected[0]) < 3 || expected[0][0] != '"' {
		return "", false
	}
	lit, err := strconv.Unquote(expected[0])
	return lit, err == nil
}
