package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/urlls/urlls/analysis/checks"
	"github.com/urlls/urlls/analysis/config"
	"github.com/urlls/urlls/analysis/scan"
)

// document is one open document. Its text is replaced, never changed in
// place, so an analysis can keep reading the snapshot it started from.
// Fields other than publishMu are guarded by Server.mu.
type document struct {
	uri        protocol.DocumentURI
	languageID string
	version    int32
	text       []byte
	gen        uint64 // bumped by every change and by close: stale work compares it
	closed     bool
	timer      *time.Timer
	result     *analysis // of the current text, once computed

	publishMu     sync.Mutex // orders the publications of this document
	publishedGen  uint64
	publishedOnce bool
}

// stopTimer (with s.mu held) cancels d's pending analysis. An analysis
// stopped before it ran will never call s.wg.Done: do it for it, or stop
// would wait for it forever.
func (s *Server) stopTimer(d *document) {
	if d.timer != nil {
		if d.timer.Stop() {
			s.wg.Done()
		}
		d.timer = nil
	}
}

// analysis is everything the features need about one version of a document.
type analysis struct {
	gen        uint64
	version    int32
	text       []byte
	mapper     *Mapper
	lang       string
	candidates []scan.Candidate
	findings   []config.Finding
	configErr  error
}

// language picks the tokenizer: the configuration's language for the file
// extension, else the client's languageId, else the extension.
func language(cfg config.Config, u protocol.DocumentURI, languageID string) string {
	ext := strings.ToLower(filepath.Ext(string(u)))
	if l := cfg.Language(ext); l != "" {
		return l
	}
	if languageID != "" {
		return languageID
	}
	if l := scan.LanguageForPath(string(u)); l != "" {
		return l
	}
	return "plaintext"
}

// analyze computes the analysis of a snapshot. It reads .urlls.json files
// and nothing else.
func (s *Server) analyze(u protocol.DocumentURI, languageID string, text []byte, version int32, gen uint64) *analysis {
	s.mu.Lock()
	st := s.settings
	s.mu.Unlock()
	cfg, cerr := st.configFor(u, &s.configFiles)
	lang := language(cfg, u, languageID)
	a := &analysis{gen: gen, version: version, text: text, mapper: NewMapper(text), lang: lang, configErr: cerr}
	a.candidates = scan.Scan(text, lang)
	a.findings = cfg.Apply(text, lang, checks.CheckCandidates(text, a.candidates))
	return a
}

// current returns the analysis of the document's current text, computing it
// now if the background analysis has not finished: hovers and actions are
// always about the text the client sees.
func (s *Server) current(u protocol.DocumentURI) (*analysis, error) {
	s.mu.Lock()
	d, ok := s.docs[u]
	if !ok {
		s.mu.Unlock()
		return nil, fmt.Errorf("document %s is not open", u)
	}
	if d.result != nil && d.result.gen == d.gen {
		a := d.result
		s.mu.Unlock()
		return a, nil
	}
	text, version, gen, langID := d.text, d.version, d.gen, d.languageID
	s.mu.Unlock()
	a := s.analyze(u, langID, text, version, gen)
	s.mu.Lock()
	if d.gen == gen {
		d.result = a
	}
	s.mu.Unlock()
	return a, nil
}

// DidOpen starts tracking a document and schedules its diagnostics.
func (s *Server) DidOpen(ctx context.Context, p *protocol.DidOpenTextDocumentParams) error {
	td := p.TextDocument
	s.mu.Lock()
	if old, ok := s.docs[td.URI]; ok {
		s.stopTimer(old)
	}
	d := &document{uri: td.URI, languageID: string(td.LanguageID), version: td.Version, text: []byte(td.Text), gen: 1}
	s.docs[td.URI] = d
	s.schedule(d, 0)
	s.mu.Unlock()
	return nil
}

// changeEvent is a content change as sent: Range is nil for a full-text
// change. (protocol.TextDocumentContentChangeEvent cannot tell a missing
// range from an insertion at 0:0, so the front handler decodes didChange
// itself into this.)
type changeEvent struct {
	Range *protocol.Range `json:"range,omitempty"`
	Text  string          `json:"text"`
}

type didChangeParams struct {
	TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []changeEvent                            `json:"contentChanges"`
}

// DidChange implements protocol.Server for callers that hold decoded
// params; a change with the zero range counts as a full-text change only
// when it replaces nothing and the document is empty. The connection uses
// didChange, which sees the raw message.
func (s *Server) DidChange(ctx context.Context, p *protocol.DidChangeTextDocumentParams) error {
	q := didChangeParams{TextDocument: p.TextDocument}
	for _, ch := range p.ContentChanges {
		r := ch.Range
		q.ContentChanges = append(q.ContentChanges, changeEvent{Range: &r, Text: ch.Text})
	}
	return s.didChange(q)
}

// didChange applies incremental (or full) changes in order. If any change
// has a range outside the document, none is applied: the document keeps its
// last good text and the client is told, rather than a corrupted text
// silently getting diagnostics.
func (s *Server) didChange(p didChangeParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.docs[p.TextDocument.URI]
	if !ok {
		return fmt.Errorf("didChange for %s, which is not open", p.TextDocument.URI)
	}
	if p.TextDocument.Version <= d.version {
		// LSP: versions increase with every change. An older one is a
		// change the document already has, or one out of order.
		err := fmt.Errorf("version %d of %s is not newer than version %d: change ignored",
			p.TextDocument.Version, p.TextDocument.URI, d.version)
		s.log.Error("didChange", zap.Error(err))
		s.showMessageLater(protocol.MessageTypeError, "urlls: "+err.Error())
		return err
	}
	text := d.text
	for i, ch := range p.ContentChanges {
		if ch.Range == nil {
			text = []byte(ch.Text)
			continue
		}
		m := NewMapper(text)
		start, err1 := m.StrictOffset(ch.Range.Start)
		end, err2 := m.StrictOffset(ch.Range.End)
		if err1 != nil || err2 != nil || end < start {
			err := fmt.Errorf("change %d of version %d of %s has range %d:%d-%d:%d outside the document: ignored, the document stays at version %d",
				i+1, p.TextDocument.Version, p.TextDocument.URI, ch.Range.Start.Line, ch.Range.Start.Character,
				ch.Range.End.Line, ch.Range.End.Character, d.version)
			s.log.Error("didChange", zap.Error(err))
			s.showMessageLater(protocol.MessageTypeError, "urlls: "+err.Error())
			return err
		}
		next := make([]byte, 0, len(text)-(end-start)+len(ch.Text))
		next = append(next, text[:start]...)
		next = append(next, ch.Text...)
		next = append(next, text[end:]...)
		text = next
	}
	d.text = text
	d.version = p.TextDocument.Version
	d.gen++
	d.result = nil
	s.schedule(d, s.opts.Debounce)
	return nil
}

// DidSave re-checks: a .urlls.json may have changed with the file.
func (s *Server) DidSave(ctx context.Context, p *protocol.DidSaveTextDocumentParams) error {
	if path, ok := filePath(p.TextDocument.URI); ok && filepath.Base(path) == config.FileName {
		// A saved .urlls.json can change every open document's findings.
		s.republishAll()
		return nil
	}
	s.configFiles.forget() // a save is when a changed .urlls.json is looked for again
	s.mu.Lock()
	defer s.mu.Unlock()
	if d, ok := s.docs[p.TextDocument.URI]; ok {
		d.gen++
		d.result = nil
		s.schedule(d, 0)
	}
	return nil
}

// DidClose forgets a document and clears its diagnostics.
func (s *Server) DidClose(ctx context.Context, p *protocol.DidCloseTextDocumentParams) error {
	s.mu.Lock()
	d, ok := s.docs[p.TextDocument.URI]
	if ok {
		s.stopTimer(d)
		d.closed = true
		d.gen++
		delete(s.docs, p.TextDocument.URI)
	}
	s.mu.Unlock()
	if !ok {
		return nil
	}
	d.publishMu.Lock()
	defer d.publishMu.Unlock()
	return s.client.PublishDiagnostics(ctx, &protocol.PublishDiagnosticsParams{URI: p.TextDocument.URI, Diagnostics: []protocol.Diagnostic{}})
}

// republishAll re-analyses every open document, after a configuration change.
func (s *Server) republishAll() {
	s.configFiles.forget()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.docs {
		d.gen++
		d.result = nil
		s.schedule(d, 0)
	}
}

// schedule (with s.mu held) analyses d after delay, off the request path,
// and publishes the result unless the document has changed meanwhile.
func (s *Server) schedule(d *document, delay time.Duration) {
	s.stopTimer(d)
	gen := d.gen
	s.wg.Add(1)
	d.timer = time.AfterFunc(delay, func() {
		defer s.wg.Done()
		s.mu.Lock()
		if d.closed || d.gen != gen {
			s.mu.Unlock()
			return
		}
		text, version, langID := d.text, d.version, d.languageID
		s.mu.Unlock()
		a := s.analyze(d.uri, langID, text, version, gen)
		s.mu.Lock()
		if d.closed || d.gen != gen {
			s.mu.Unlock()
			return
		}
		d.result = a
		st := s.settings
		s.mu.Unlock()
		s.publish(d, a, st)
	})
}

// publish sends a's diagnostics, unless a newer generation was published
// already or the document changed: versions never go backwards.
func (s *Server) publish(d *document, a *analysis, st settings) {
	d.publishMu.Lock()
	defer d.publishMu.Unlock()
	s.mu.Lock()
	stale := d.closed || d.gen != a.gen || (d.publishedOnce && d.publishedGen >= a.gen)
	s.mu.Unlock()
	if stale {
		return
	}
	params := &protocol.PublishDiagnosticsParams{URI: d.uri, Version: uint32(a.version), Diagnostics: s.diagnostics(a, st)}
	if a.configErr != nil {
		s.showMessageLater(protocol.MessageTypeError, "urlls: "+a.configErr.Error())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.publishDiagnostics(ctx, params, a.version); err != nil {
		s.log.Warn("publishDiagnostics", zap.Error(err))
		return
	}
	d.publishedGen = a.gen
	d.publishedOnce = true
	s.log.Debug("published", zap.String("uri", string(d.uri)), zap.Int32("version", a.version), zap.Int("diagnostics", len(params.Diagnostics)))
}
