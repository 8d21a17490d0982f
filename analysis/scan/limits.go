package scan

// MaxWrapperLines is how many line breaks a "<…>" or "<URL:…>" wrapper of
// plain text may hold (see wrapper): a caller that re-scans part of a
// plain-text document (ScanPlainTextRange) knows from it how far up a
// wrapper that reaches a line may start.
const MaxWrapperLines = maxWrapperLines
