package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap/zaptest"
)

// bigDocument is a generated Markdown document of about size bytes, every
// line with an error, an information and a link: a million findings at
// 50 MB.
func bigDocument(size int) string {
	const line = "See http://example.org/a%zz and [x](http://b.example.org/~u/page.html) ok.\n"
	return strings.Repeat(line, max(1, size/len(line)))
}

// bigSize is the size of the large documents of the tests: 20 MB, or 2 MB
// under the race detector.
func bigSize() int {
	if raceDetector || testing.Short() {
		return 2 << 20
	}
	return 20 << 20
}

// TestHoverWhileBigDocumentIsAnalysed: over the wire, a hover on a small
// document is answered while a 20 MB document opened before it is being
// analysed, even when a request about the big document came first and waits
// for that analysis. The order of events is what is checked: the small
// hover's answer arrives before the big document's diagnostics and before
// the answer to the big document's hover.
func TestHoverWhileBigDocumentIsAnalysed(t *testing.T) {
	// bigHoverSent is closed once the server has read the big document's
	// hover (sentConn): the small hover, written after, comes after it.
	bigHoverSent := make(chan struct{})
	var sentOnce sync.Once
	c := newTestClient(t, clientOptions{wrote: func(b []byte) {
		if bytes.Contains(b, []byte(`"method":"textDocument/hover"`)) && bytes.Contains(b, []byte("/big.md")) {
			sentOnce.Do(func() { close(bigHoverSent) })
		}
	}})
	c.initialize(capabilities{})
	small := c.uri("small.md")
	c.didOpen(small, "markdown", 1, "<http://example.org:99999/>\n")
	c.waitDiagnostics(small, 1, nil)

	big := c.uri("big.md")
	c.didOpen(big, "markdown", 1, bigDocument(bigSize()))
	type answer struct {
		h   *protocol.Hover
		err error
	}
	bigHover := make(chan answer, 1)
	go func() {
		h, err := c.server.Hover(c.ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: big}, Position: pos(0, 20),
		}})
		bigHover <- answer{h, err}
	}()
	select {
	case <-bigHoverSent:
	case <-time.After(patience):
		t.Fatal("the big document's hover was never sent")
	}

	h := c.hover(small, pos(0, 21))
	c.mu.Lock()
	var bigPubs int
	for _, p := range c.pubs {
		if p.URI == big {
			bigPubs++
		}
	}
	c.mu.Unlock()
	if h == nil || !strings.Contains(h.Contents.Value, "port") {
		t.Errorf("hover on the small document: %+v", h)
	}
	select {
	case a := <-bigHover:
		t.Errorf("the big document's hover (%v) was answered before the small one's", a.err)
	default:
	}
	if bigPubs > 0 {
		t.Errorf("the big document's diagnostics were published before the small document's hover was answered")
	}

	// The big document still gets its diagnostics: maxFindings of them and
	// one that counts the rest. (Its analysis may take longer than the
	// harness's patience on a slow machine: wait for it a few times.)
	var p protocol.PublishDiagnosticsParams
	for range 6 {
		var ok bool
		if p, ok = c.tryWaitDiagnostics(big, 1, 0, nil); ok {
			break
		}
	}
	if len(p.Diagnostics) == 0 {
		t.Fatal("no diagnostics for the big document")
	}
	if n := len(p.Diagnostics); n != 1001 || fmt.Sprint(p.Diagnostics[n-1].Code) != "too-many-findings" {
		t.Errorf("%d diagnostics for the big document, the last %v", n, p.Diagnostics[n-1].Code)
	}
	select {
	case a := <-bigHover:
		if a.err != nil || a.h == nil || !strings.Contains(a.h.Contents.Value, "host") {
			t.Errorf("the big document's hover: %+v, %v", a.h, a.err)
		}
	case <-time.After(patience):
		t.Fatal("the big document's hover was never answered")
	}
}

// recorder is a protocol.Client that logs the publications, for the
// handler-level tests, in one sequence with the answers they log.
type recorder struct {
	protocol.Client
	mu     sync.Mutex
	events []string
	change chan struct{}
}

func newRecorder() *recorder { return &recorder{change: make(chan struct{}, 1000)} }

func (r *recorder) log(event string) {
	r.mu.Lock()
	r.events = append(r.events, event)
	r.mu.Unlock()
	r.change <- struct{}{}
}

func (r *recorder) PublishDiagnostics(_ context.Context, p *protocol.PublishDiagnosticsParams) error {
	r.log(fmt.Sprintf("publish %s v%d", p.URI[strings.LastIndexByte(string(p.URI), '/')+1:], p.Version))
	return nil
}
func (r *recorder) ShowMessage(context.Context, *protocol.ShowMessageParams) error { return nil }

// waitFor waits until the log holds every one of events.
func (r *recorder) waitFor(t *testing.T, events ...string) []string {
	t.Helper()
	deadline := time.After(patience)
	for {
		r.mu.Lock()
		log := append([]string(nil), r.events...)
		r.mu.Unlock()
		missing := false
		for _, e := range events {
			missing = missing || !contains(log, e)
		}
		if !missing {
			return log
		}
		select {
		case <-r.change:
		case <-deadline:
			t.Fatalf("waiting for %q; the log is %q", events, log)
		}
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestAnalysisScheduling drives the handler chain directly, so that the
// messages arrive in a known order, and logs the answers and the
// publications in one sequence. A request about a document that is being
// analysed lets the requests behind it go; $/cancelRequest ends its wait;
// a newer version cancels the analysis of the one it replaces, whose
// waiting requests are answered ContentModified and whose diagnostics are
// never published.
func TestAnalysisScheduling(t *testing.T) {
	rec := newRecorder()
	s := newServer(rec, Options{Logger: zaptest.NewLogger(t), Debounce: time.Hour})
	s.state.Store(stateInitialized) // as after initialize
	h := s.handler()
	ctx := context.Background()
	t.Cleanup(func() {
		stopped := make(chan struct{})
		go func() { s.stop(); close(stopped) }()
		select {
		case <-stopped:
		case <-time.After(patience):
			t.Error("stop did not return")
		}
	})
	send := func(name string, req jsonrpc2.Request) {
		t.Helper()
		err := h(ctx, func(_ context.Context, result any, err error) error {
			if _, call := req.(*jsonrpc2.Call); call {
				switch {
				case err != nil:
					rec.log(fmt.Sprintf("%s: error %d", name, errorCode(err)))
				case result == nil || fmt.Sprint(result) == "<nil>":
					rec.log(name + ": null")
				default:
					rec.log(name + ": answered")
				}
			}
			return nil
		}, req)
		if err != nil {
			t.Fatal(err)
		}
	}
	notify := func(method string, params any) {
		t.Helper()
		req, err := jsonrpc2.NewNotification(method, params)
		if err != nil {
			t.Fatal(err)
		}
		send(method, req)
	}
	call := func(name string, id int32, method string, params any) {
		t.Helper()
		req, err := jsonrpc2.NewCall(jsonrpc2.NewNumberID(id), method, params)
		if err != nil {
			t.Fatal(err)
		}
		send(name, req)
	}
	hover := func(u protocol.DocumentURI, p protocol.Position) protocol.HoverParams {
		return protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: p}}
	}
	open := func(u protocol.DocumentURI, text string) {
		notify(protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
			URI: u, LanguageID: "markdown", Version: 1, Text: text}})
	}
	small, big := protocol.DocumentURI("file:///w/small.md"), protocol.DocumentURI("file:///w/big.md")

	open(small, "<http://example.org:99999/>\n")
	rec.waitFor(t, "publish small.md v1")
	open(big, bigDocument(bigSize()/4))
	call("big hover", 1, protocol.MethodTextDocumentHover, hover(big, pos(0, 20)))
	call("cancelled big hover", 2, protocol.MethodTextDocumentHover, hover(big, pos(0, 20)))
	call("small hover", 3, protocol.MethodTextDocumentHover, hover(small, pos(0, 21)))
	notify(protocol.MethodCancelRequest, json.RawMessage(`{"id":2}`))
	log := rec.waitFor(t, "small hover: answered", "cancelled big hover: error -32800")
	for _, e := range []string{"publish big.md v1", "big hover: answered"} {
		if contains(log, e) {
			t.Errorf("%q came before the small hover's answer: %q", e, log)
		}
	}

	// Version 2 replaces the text while version 1 is analysed: its analysis
	// stops, the hover waiting for it is answered ContentModified, and only
	// version 2's diagnostics are published.
	text2 := "<http://example.org/%zz>\n"
	notify(protocol.MethodTextDocumentDidChange, map[string]any{
		"textDocument":   map[string]any{"uri": big, "version": 2},
		"contentChanges": []any{map[string]any{"text": text2}},
	})
	call("big hover v2", 4, protocol.MethodTextDocumentHover, hover(big, pos(0, 20)))
	log = rec.waitFor(t, "big hover: error -32801", "big hover v2: answered", "publish big.md v2")
	if contains(log, "publish big.md v1") {
		t.Errorf("the diagnostics of the replaced version 1 were published: %q", log)
	}
}
