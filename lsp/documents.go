package lsp

import (
	"context"
	"errors"
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

// How a document is analysed, and why no request waits for another
// document's analysis:
//
//   - Every version of a document is a snapshot: its text, which never
//     changes (built on first use from the text before and the edit, by
//     the analysis: a didChange copies nothing, see docText), its line
//     table (built once, shared by every reader, from the line table of the
//     text before when an edit made it) and its analysis, computed at most
//     once, on a goroutine of its own. It starts at once when no analysis
//     of the document is under way, else when that one ends, for the
//     latest version only (so a burst of changes is analysed together), or
//     when a request about that version asks first; and it waits for the
//     messages already received to be answered (quiet), so that a hover
//     sent right behind a change does not share the processors with it.
//   - An analysis starts from the latest finished analysis of the document
//     and redoes only what the edits since touched (incremental.go).
//   - Hovers, links and tokens need the candidates only: they are answered
//     once the analysis has them (snapshot.scanned), before its checks; a
//     hover right after an edit of plain text or Markdown does not even
//     wait for that (hoverAnalysis).
//   - A request (hover, code action, links, tokens) takes the snapshot of
//     its document in order, after the changes sent before it, and then
//     lets the requests behind it go (release): it waits for its
//     document's analysis off the queue. So a hover on a small document is
//     answered while a 50 MB one is analysed, even when a request about the
//     big one came first.
//   - A newer version, a close or a configuration change cancels the
//     analysis of the snapshot it replaces (checked between candidates); a
//     request still waiting for it is answered ContentModified. A request
//     that the client cancels ($/cancelRequest) stops waiting and is
//     answered RequestCancelled; the analysis goes on for the diagnostics.
//   - Diagnostics are published by the goroutine that analysed the
//     snapshot, at most maxFindings of them (config.Config.Limit), with the
//     version; a stale result is never published over a newer one.

// document is one open document. Fields other than publishMu and those of
// the snapshots are guarded by Server.mu.
type document struct {
	uri     protocol.DocumentURI
	closed  bool
	timer   *time.Timer // a pending analysis (Options.Debounce)
	snap    *snapshot   // the current version
	last    *analysis   // the latest finished analysis, the base of the next
	running int         // analyses of d under way
	scratch scratchText // what hovers right after an edit re-scan Markdown in

	publishMu     sync.Mutex // orders the publications of this document
	publishedGen  uint64
	publishedOnce bool
}

// snapshot is one generation of a document: a version of its text (a
// configuration change or a save makes a new generation of the same text)
// and, once computed, its analysis.
type snapshot struct {
	uri        protocol.DocumentURI
	languageID string
	version    int32
	gen        uint64   // bumped by every change, save, close and configuration change
	text       *docText // never changed: a change makes a new snapshot
	lines      *lines   // shared by the snapshots of one text

	// ctx is done when a newer generation replaces this one, or the
	// document closes, or the server stops: the analysis stops then.
	ctx     context.Context
	cancel  context.CancelFunc
	started bool          // the analysis has started (guarded by Server.mu)
	done    chan struct{} // closed when the analysis has ended
	result  *analysis     // set before done is closed; nil if it was cancelled
	// scanned is closed when the analysis has its candidates (and line
	// table), all that hovers, links and tokens need, or has ended;
	// partial, set before, is the analysis then (its findings may come
	// later), nil if it was cancelled before.
	scanned     chan struct{}
	partial     *analysis
	scannedOnce sync.Once

	// prev, when not nil, is the generation this one's text was made from
	// by change, one edit (guarded by Server.mu; cleared when a newer
	// generation comes, so that no chain of old texts stays).
	prev   *snapshot
	change textChange
}

// docText is the text of one version of a document, built once on first
// use. A change makes it from the text before without building it: a
// didChange answers without copying a 1 MB document on the request path
// (nor making that much garbage there); the analysis builds it, off the
// request path, and a hover right after the edit reads the few bytes it
// needs through slice (hoverAnalysis).
type docText struct {
	once sync.Once // builds it
	n    int       // its length, known before it is built
	mu   sync.Mutex
	// bytes, once built; until then source is the text it is made from:
	// source's [start, end) replaced by insert. Guarded by mu.
	bytes      []byte
	source     *docText
	start, end int
	insert     string
}

// builtText returns the docText of text.
func builtText(text []byte) *docText {
	t := &docText{bytes: text, n: len(text)}
	t.once.Do(func() {})
	return t
}

// editedText returns the text of src with [start, end) replaced by insert,
// to be built on first use.
func editedText(src *docText, start, end int, insert string) *docText {
	return &docText{n: src.n - (end - start) + len(insert), source: src, start: start, end: end, insert: insert}
}

// get returns the text, building it (and the texts it is made from) if no
// one has yet.
func (t *docText) get() []byte {
	t.once.Do(func() {
		t.mu.Lock()
		src, start, end, insert := t.source, t.start, t.end, t.insert
		t.mu.Unlock()
		old := src.get()
		b := make([]byte, 0, t.n)
		b = append(b, old[:start]...)
		b = append(b, insert...)
		b = append(b, old[end:]...)
		t.mu.Lock()
		t.bytes, t.source = b, nil // the older texts can go
		t.mu.Unlock()
	})
	return t.bytes
}

// slice returns the text's bytes [lo, hi) (0 <= lo <= hi <= n), without
// building the text when it is not built yet: a copy of them then.
func (t *docText) slice(lo, hi int) []byte {
	t.mu.Lock()
	b, src := t.bytes, t.source
	t.mu.Unlock()
	if src == nil {
		return b[lo:hi]
	}
	out := make([]byte, hi-lo)
	t.copyTo(out, lo)
	return out
}

// copyTo fills dst with the text's bytes [lo, lo+len(dst)), without
// building the text (slice, into a buffer of the caller's).
func (t *docText) copyTo(dst []byte, lo int) {
	t.mu.Lock()
	b, src, start, end, insert := t.bytes, t.source, t.start, t.end, t.insert
	t.mu.Unlock()
	if src == nil {
		copy(dst, b[lo:])
		return
	}
	hi := lo + len(dst)
	if lo < start {
		src.copyTo(dst[:min(hi, start)-lo], lo)
	}
	if a, z := max(lo, start), min(hi, start+len(insert)); a < z {
		copy(dst[a-lo:], insert[a-start:z-start])
	}
	if after := start + len(insert); hi > after {
		from := max(lo, after)
		src.copyTo(dst[from-lo:], from+end-after)
	}
}

// built returns the text when it is built already.
func (t *docText) built() ([]byte, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.bytes, t.source == nil
}

// lines is the line table of one text, built once on first use: by the
// analysis, or by the change that edits the text next. A text made by an
// edit builds it from the line table of the text before (Mapper.edit),
// which costs the changed lines, not the text.
type lines struct {
	once   sync.Once
	text   *docText
	mapper *Mapper
	// edited, when not nil, is the line table of the text before the edit
	// that made text: [start, oldEnd) of it became text[start:newEnd].
	edited                *lines
	start, oldEnd, newEnd int
}

func (l *lines) get() *Mapper {
	l.once.Do(func() {
		if l.edited != nil {
			l.mapper = l.edited.get().edit(l.text.get(), l.start, l.oldEnd, l.newEnd)
			l.edited = nil // the older texts can go
		} else {
			l.mapper = NewMapper(l.text.get())
		}
	})
	return l.mapper
}

// newSnapshot returns generation gen of d's text; ls is the line table of
// text when the previous generation had the same text, else nil.
func newSnapshot(u protocol.DocumentURI, languageID string, version int32, gen uint64, text []byte, ls *lines) *snapshot {
	return newSnapshotOf(u, languageID, version, gen, builtText(text), ls)
}

// newSnapshotOf is newSnapshot of a docText.
func newSnapshotOf(u protocol.DocumentURI, languageID string, version int32, gen uint64, text *docText, ls *lines) *snapshot {
	if ls == nil {
		ls = &lines{text: text}
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &snapshot{uri: u, languageID: languageID, version: version, gen: gen, text: text, lines: ls,
		ctx: ctx, cancel: cancel, done: make(chan struct{}), scanned: make(chan struct{})}
}

// setScanned makes a, with its candidates, the partial analysis of snap,
// unless it has one already.
func (snap *snapshot) setScanned(a *analysis) {
	snap.scannedOnce.Do(func() {
		snap.partial = a
		close(snap.scanned)
	})
}

// replace (with s.mu held) makes snap d's current generation, cancelling
// the analysis of the one it replaces.
func (d *document) replace(snap *snapshot) {
	if d.snap != nil {
		d.snap.cancel()
	}
	d.snap = snap
}

// regenerate (with s.mu held) makes a new generation of d's current text:
// something other than the text changed (the configuration, a save).
func (d *document) regenerate() {
	old := d.snap
	d.replace(newSnapshotOf(d.uri, old.languageID, old.version, old.gen+1, old.text, old.lines))
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
	gen     uint64
	version int32
	text    []byte
	mapper  *Mapper
	lang    string
	checked               // the candidates and the checks' diagnostics
	plain   bool          // scan.PlainText(text, lang): edits re-scan paragraphs only
	outline *scan.Outline // Markdown: what edits re-scan a window with (nil in other languages)
	// baseIdx is the index in candidates of the document's first
	// <base href> with a scheme, or -1; docBase, when not nil, is its
	// text ("" for none), also for an analysis whose candidates are those
	// near the cursor only (hoverAnalysis).
	baseIdx  int
	docBase  *string
	epoch    uint64           // Server.epoch when it was computed: its configuration
	findings []config.Finding // all of them: the fix-all fixes them all
	// kept says, for each of diags, what the configuration made of it:
	// 0 dropped (off, suppressed, ignored), else its finding's severity
	// plus one (applyConfig); sups are the suppressions it applied.
	kept      []uint8
	sups      []scan.Suppression
	shown     []config.Finding // the diagnostics: findings cut to maxFindings
	configErr error
	// opts say how the checks judged the URLs: hovers and tokens parse as
	// they did (the grammar profile, the user grammars of schemes).
	opts checks.Options
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

// analyze computes the analysis of a snapshot, or returns ctx's error when
// it is cancelled. It reads .urlls.json files and the grammar files they
// name, nothing else. base, when not nil, is a finished analysis of an
// older version of the document: what the edits since left alone is taken
// from it (incremental.go).
func (s *Server) analyze(ctx context.Context, snap *snapshot, base *analysis) (*analysis, error) {
	s.mu.Lock()
	st := s.settings
	epoch := s.epoch
	s.mu.Unlock()
	cfg, changed, cerr := st.configFor(snap.uri, &s.configFiles)
	if changed {
		// A .urlls.json, or a grammar file it names, changed on disk
		// (another editor, a git checkout): as after a save of one, every
		// open document is analysed again, this one too, and no analysis
		// before is the base of one after, or the diagnostics it hands on
		// would keep the old file's severities, suppressions and checks
		// beside the new file's. An open document's analysis under way
		// is cancelled with its generation.
		s.republishAll()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		base = nil
	}
	lang := language(cfg, snap.uri, snap.languageID)
	opts := cfg.CheckOptions()
	text := snap.text.get() // built here, off the request path
	a := &analysis{gen: snap.gen, version: snap.version, text: text, mapper: snap.lines.get(), lang: lang,
		epoch: epoch, configErr: cerr, opts: opts}
	if base != nil && (base.epoch != epoch || base.lang != lang || base.diagStart == nil) {
		base = nil // another configuration, language or (unsorted) result: start afresh
	}
	var change textChange // from base's text to this one
	if base != nil {
		change = diffTexts(base.text, text)
	}
	if base != nil && base.plain {
		a.plain = stillPlainText(base, snap.text, change)
	} else {
		a.plain = scan.PlainText(text, lang)
	}
	sc, ok := scanEdit(base, text, change, a.plain)
	if !ok {
		sc = scanWhole(base, text, lang, change)
	}
	a.candidates, a.outline, a.baseIdx = sc.candidates, sc.outline, sc.baseIdx
	a.docBase = new("")
	if a.baseIdx >= 0 {
		a.docBase = &a.candidates[a.baseIdx].Text
	}
	snap.setScanned(a) // hovers, links and tokens may go on
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var err error
	sizeHint := 0
	if base != nil {
		sizeHint = len(base.diags) + 8 // an edit adds a few
	}
	var from []int32
	a.diags, a.diagStart, from, err = checkCandidates(ctx, opts, text, sc.candidates, base, sc.reuse, sizeHint)
	if err != nil {
		return nil, err
	}
	a.sups = sc.sups
	a.findings, a.kept = applyConfig(cfg, a.sups, a.diags, base, change, from)
	a.shown = cfg.Limit(a.findings)
	return a, nil
}

// startLocked (with s.mu held) starts the analysis of snap on a goroutine
// of its own, unless it has started already (or the server is stopping),
// from the latest finished analysis of d. When it ends, its diagnostics are
// published if snap is still its document's current generation, and the
// current generation's analysis starts if it has not: while an analysis
// runs, newer versions wait for it and only the latest is analysed.
func (s *Server) startLocked(d *document, snap *snapshot) {
	if snap.started {
		return
	}
	snap.started = true
	if s.stopping {
		snap.cancel()
		snap.setScanned(nil)
		close(snap.done)
		return
	}
	s.wg.Add(1)
	d.running++
	base := d.last
	go func() {
		defer s.wg.Done()
		s.quiet.wait(snap.ctx) // the requests in hand first
		began := time.Now()
		a, err := s.analyze(snap.ctx, snap, base)
		if err != nil {
			s.log.Debug("analysis cancelled", zap.String("uri", string(snap.uri)), zap.Int32("version", snap.version))
		} else {
			s.log.Debug("analysed", zap.String("uri", string(snap.uri)), zap.Int32("version", snap.version),
				zap.Duration("took", time.Since(began)), zap.Int("urls", len(a.candidates)), zap.Int("findings", len(a.findings)))
		}
		snap.setScanned(nil) // if cancelled before the scan
		snap.result = a
		close(snap.done)
		s.mu.Lock()
		d.running--
		snap.prev = nil // no hover needs the version before now
		if a != nil && (d.last == nil || a.gen > d.last.gen) {
			d.last = a
		}
		current := a != nil && !d.closed && d.snap == snap
		st := s.settings
		if !d.closed && d.snap != snap && d.running == 0 && d.timer == nil {
			s.startLocked(d, d.snap)
		}
		s.mu.Unlock()
		if current {
			s.publish(d, a, st)
		}
	}()
}

// errNotOpen answers a request about a document that is not open.
var errNotOpen = errors.New("not open")

// current returns the analysis of the document's current text, as of the
// moment the request came (the changes before it applied), waiting for it
// if it is not done; the requests behind this one need not wait for it
// (release). Hovers and actions are always about the text the client sees.
// With findings false it returns as soon as the analysis has the
// candidates (snapshot.scanned), whose findings may not be set yet: all
// that hovers, links and tokens need. It fails with RequestCancelled when
// the client cancels the request, and with ContentModified when a newer
// version replaced the text before its analysis was done.
func (s *Server) current(ctx context.Context, u protocol.DocumentURI, findings bool) (*analysis, error) {
	s.mu.Lock()
	d, ok := s.docs[u]
	var snap *snapshot
	if ok {
		snap = d.snap
		s.startLocked(d, snap)
	}
	s.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("document %s is %w", u, errNotOpen)
	}
	ready := snap.done
	if !findings {
		ready = snap.scanned
	}
	select {
	case <-ready: // done already: answer in turn
	default:
		// Let the messages behind this one go while it waits (only then:
		// an answer that needs no wait keeps its place in the order).
		release(ctx)
		select {
		case <-ready:
		case <-ctx.Done():
			return nil, protocol.ErrRequestCancelled
		}
	}
	var a *analysis
	if findings {
		a = snap.result
	} else {
		a = snap.partial
		if snap.ctx.Err() != nil {
			// Replaced (or closed) meanwhile: answer only if its
			// analysis ended, as a request that waits for it would.
			select {
			case <-snap.done:
				a = snap.result
			default:
				a = nil
			}
		}
	}
	if a == nil {
		return nil, protocol.ErrContentModified
	}
	return a, nil
}

// DidOpen starts tracking a document and schedules its diagnostics.
func (s *Server) DidOpen(ctx context.Context, p *protocol.DidOpenTextDocumentParams) error {
	td := p.TextDocument
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.docs[td.URI]; ok {
		s.stopTimer(old)
		old.closed = true
		old.snap.cancel()
	}
	d := &document{uri: td.URI}
	d.replace(newSnapshot(td.URI, string(td.LanguageID), td.Version, 1, []byte(td.Text), nil))
	s.docs[td.URI] = d
	s.schedule(d, 0)
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
// silently getting diagnostics. The new text is built without the server's
// lock held (changes come one at a time, in order), from the line table of
// the current text, which its analysis has usually built already.
func (s *Server) didChange(p didChangeParams) error {
	s.mu.Lock()
	d, ok := s.docs[p.TextDocument.URI]
	var base *snapshot
	if ok {
		base = d.snap
	}
	s.mu.Unlock()
	if !ok {
		return fmt.Errorf("didChange for %s, which is not open", p.TextDocument.URI)
	}
	if p.TextDocument.Version <= base.version {
		// LSP: versions increase with every change. An older one is a
		// change the document already has, or one out of order.
		err := fmt.Errorf("version %d of %s is not newer than version %d: change ignored",
			p.TextDocument.Version, p.TextDocument.URI, base.version)
		s.log.Error("didChange", zap.Error(err))
		s.showMessageLater(protocol.MessageTypeError, "urlls: "+err.Error())
		return err
	}
	text, ls := base.text, base.lines
	for i, ch := range p.ContentChanges {
		if ch.Range == nil {
			text, ls = builtText([]byte(ch.Text)), nil
			continue
		}
		if ls == nil {
			ls = &lines{text: text}
		}
		m := ls.get() // the table of the text before this change
		start, err1 := m.StrictOffset(ch.Range.Start)
		end, err2 := m.StrictOffset(ch.Range.End)
		if err1 != nil || err2 != nil || end < start {
			err := fmt.Errorf("change %d of version %d of %s has range %d:%d-%d:%d outside the document: ignored, the document stays at version %d",
				i+1, p.TextDocument.Version, p.TextDocument.URI, ch.Range.Start.Line, ch.Range.Start.Character,
				ch.Range.End.Line, ch.Range.End.Character, base.version)
			s.log.Error("didChange", zap.Error(err))
			s.showMessageLater(protocol.MessageTypeError, "urlls: "+err.Error())
			return err
		}
		next := editedText(text, start, end, ch.Text) // built by the analysis
		text, ls = next, &lines{text: next, edited: ls, start: start, oldEnd: end, newEnd: start + len(ch.Text)}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if d.closed {
		return nil
	}
	// A configuration change may have made a new generation meanwhile: take
	// its number, not its text (it has the same text as base).
	snap := newSnapshotOf(d.uri, base.languageID, p.TextDocument.Version, d.snap.gen+1, text, ls)
	if len(p.ContentChanges) == 1 && p.ContentChanges[0].Range != nil && d.snap == base {
		// One edit of the current generation: a hover may answer from
		// base's analysis before this one's (hoverAnalysis).
		snap.prev, snap.change = base, textChange{start: ls.start, oldEnd: ls.oldEnd, newEnd: ls.newEnd}
	}
	d.snap.prev = nil // older generations can go
	d.replace(snap)
	s.schedule(d, s.opts.Debounce)
	return nil
}

// DidSave re-checks: a .urlls.json may have changed with the file.
func (s *Server) DidSave(ctx context.Context, p *protocol.DidSaveTextDocumentParams) error {
	if path, ok := filePath(p.TextDocument.URI); ok && (filepath.Base(path) == config.FileName || strings.EqualFold(filepath.Ext(path), ".abnf")) {
		// A saved .urlls.json, or a grammar file one may name (its
		// "schemes"), can change every open document's findings.
		s.republishAll()
		return nil
	}
	s.configFiles.forget() // a save is when a changed .urlls.json is looked for again
	s.mu.Lock()
	defer s.mu.Unlock()
	s.epoch++ // no analysis before it is the base of one after it
	if d, ok := s.docs[p.TextDocument.URI]; ok {
		d.regenerate()
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
		d.snap.cancel()
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
	s.epoch++
	for _, d := range s.docs {
		d.regenerate()
		s.schedule(d, 0)
	}
}

// schedule (with s.mu held) starts the analysis of d's current generation
// off the request path: at once, unless one of d is under way (then it
// starts when that ends, see startLocked), or after delay when the server
// has a debounce (Options.Debounce); a request about it may start it
// sooner.
func (s *Server) schedule(d *document, delay time.Duration) {
	s.stopTimer(d)
	if s.stopping {
		return
	}
	snap := d.snap
	if delay <= 0 {
		if d.running == 0 {
			s.startLocked(d, snap)
		}
		return
	}
	s.wg.Add(1)
	d.timer = time.AfterFunc(delay, func() {
		defer s.wg.Done()
		s.mu.Lock()
		defer s.mu.Unlock()
		if !d.closed && d.snap == snap {
			d.timer = nil
			s.startLocked(d, snap)
		}
	})
}

// stopDocuments (with s.mu held) stops the background work of every
// document: timers, analyses, and those that would start later.
func (s *Server) stopDocuments() {
	s.stopping = true
	for _, d := range s.docs {
		s.stopTimer(d)
		d.snap.cancel()
	}
}

// publish sends a's diagnostics, unless a newer generation was published
// already or the document changed: versions never go backwards.
func (s *Server) publish(d *document, a *analysis, st settings) {
	d.publishMu.Lock()
	defer d.publishMu.Unlock()
	s.mu.Lock()
	stale := d.closed || d.snap.gen != a.gen || (d.publishedOnce && d.publishedGen >= a.gen)
	s.mu.Unlock()
	if stale {
		return
	}
	params := &protocol.PublishDiagnosticsParams{URI: d.uri, Version: uint32(a.version), Diagnostics: s.diagnostics(a, st)}
	if a.configErr != nil {
		kind := protocol.MessageTypeError
		var w configWarning
		if errors.As(a.configErr, &w) {
			kind = protocol.MessageTypeWarning
		}
		s.showMessageLater(kind, "urlls: "+a.configErr.Error())
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
