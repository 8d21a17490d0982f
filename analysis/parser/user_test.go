package parser

import (
	"errors"
	"testing"

	"github.com/urlls/urlls/analysis/grammar"
)

func ticketSchemes(t *testing.T) map[string]*grammar.Rule {
	t.Helper()
	g, err := grammar.LoadUser("ticket.abnf", "ticket.abnf", []byte(
		"ticket-URI = \"ticket:\" project \"-\" number [ \"?\" query ]\n"+
			"project    = 1*10( %x41-5A / DIGIT )\n"+
			"number     = %x31-39 *DIGIT\n"))
	if err != nil {
		t.Fatal(err)
	}
	return map[string]*grammar.Rule{"ticket": g.Rule("ticket-URI")}
}

func TestParseUser(t *testing.T) {
	schemes := ticketSchemes(t)
	tests := []struct {
		input, tree string
		relative    bool
		errOffset   int // -1: parses
		errRule     string
	}{
		{input: "ticket:URLLS-42#notes", errOffset: -1, tree: `URL 0-21 "ticket:URLLS-42#notes"
  ticket-URI 0-15 "ticket:URLLS-42"
    project 7-12 "URLLS"
    number 13-15 "42"
  fragment 16-21 "notes"
`},
		// The scheme in any case; the fragment by RFC 3986, "~" and all.
		{input: "Ticket:A-1?x#~a/?", errOffset: -1, tree: `URL 0-17 "Ticket:A-1?x#~a/?"
  ticket-URI 0-12 "Ticket:A-1?x"
    project 7-8 "A"
    number 9-10 "1"
    query 11-12 "x"
  fragment 13-17 "~a/?"
`},
		{input: "ticket:urlls-42", errOffset: 7, errRule: "ticket-URI"},
		{input: "ticket:URLLS-042", errOffset: 13, errRule: "ticket-URI"},
		{input: "ticket:A-1#a#b", errOffset: 12, errRule: "fragment"},
		// Other schemes, and references, parse as before.
		{input: "http://h/ticket:A-1", errOffset: -1, tree: `URL 0-19 "http://h/ticket:A-1"
  httpurl 0-19 "http://h/ticket:A-1"
    hostport 7-8 "h"
      host 7-8 "h"
        hostname 7-8 "h"
          toplabel 7-8 "h"
    hpath 9-19 "ticket:A-1"
      hsegment 9-19 "ticket:A-1"
`},
		{input: "../ticket", relative: true, errOffset: -1, tree: `URL 0-9 "../ticket"
  relativeURL 0-9 "../ticket"
    rel_path 0-9 "../ticket"
      path 0-9 "../ticket"
        fsegment 0-2 ".."
        segment 3-9 "ticket"
`},
	}
	for _, tc := range tests {
		t.Run(tc.input, func(t *testing.T) {
			tree, err := RFC1738.ParseWith(tc.input, tc.relative, schemes)
			if tc.errOffset < 0 {
				if err != nil {
					t.Fatal(err)
				}
				if got := tree.String(); got != tc.tree {
					t.Errorf("tree:\n%s\nwant:\n%s", got, tc.tree)
				}
				return
			}
			var se *grammar.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want a syntax error", err)
			}
			if se.Offset != tc.errOffset || se.Rule.Name != tc.errRule || se.Input != tc.input {
				t.Errorf("error at %d in %s (input %q), want %d in %s: %v", se.Offset, se.Rule.Name, se.Input, tc.errOffset, tc.errRule, se)
			}
		})
	}
	if UserRule(nil, "ticket:A-1") != nil || UserRule(schemes, "tickets:A-1") != nil || UserRule(schemes, "A-1") != nil {
		t.Error("UserRule found a rule where there is none")
	}
}
