// Package checks turns a document's URLs into findings: one analyzer per
// diagnostic code of the catalog (DESIGN.md, README "Diagnostics"), each with
// its suggested fixes. Findings follow golang.org/x/tools/go/analysis: byte
// offsets into the document, no severity (the front ends apply the severity
// policy from Catalog and the configuration), fixes whose edits never overlap.
package checks

// Diagnostic is one finding.
type Diagnostic struct {
	// Start and End delimit the offending bytes in the document.
	Start, End int
	// Code is the catalog name, e.g. "bad-escape".
	Code string
	// Message is lower case, without a final period.
	Message string
	// URL is the URL the finding is about, as the document means it.
	URL string
	// SuggestedFixes are the ways to fix it, the preferred one first.
	SuggestedFixes []SuggestedFix
}

// SuggestedFix is one way to fix a finding.
type SuggestedFix struct {
	// Message is a verb phrase: "encode % as %25".
	Message string
	// Edits never overlap and stay inside the finding's URL.
	Edits []TextEdit
}

// TextEdit replaces document bytes [Start, End) with NewText.
type TextEdit struct {
	Start, End int
	NewText    string
}

// Severity is how much a finding matters, as the front ends show it.
type Severity uint8

const (
	Error Severity = iota + 1
	Warning
	Information
	Hint
)

var severityNames = [...]string{Error: "error", Warning: "warning", Information: "information", Hint: "hint"}

func (s Severity) String() string {
	if int(s) < len(severityNames) && s > 0 {
		return severityNames[s]
	}
	return "unknown"
}
