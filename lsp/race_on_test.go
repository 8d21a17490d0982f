//go:build race

package lsp

// raceDetector is true in a test binary built with -race, which runs the
// analyses about ten times slower: the large documents of the tests shrink
// accordingly (what they show is an order of events, not a duration).
const raceDetector = true
