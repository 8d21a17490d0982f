// Package lsp is urlls's language server: the second thin face of package
// analysis (the first is cmd/urlls check). It keeps the open documents,
// converts byte offsets to LSP positions (UTF-16, see Mapper), publishes the
// findings of analysis/checks as diagnostics off the request path, and
// answers hovers (the grammar production under the cursor), code actions
// (fixes), document links (relative references resolved by RFC 1808) and
// semantic tokens. Its base protocol and lifecycle follow JSON-RPC 2.0 and
// LSP 3.17 (frame.go reads and writes the frames, dispatch.go answers each
// message); its features speak LSP 3.15 through go.lsp.dev/protocol v0.12.0
// over a jsonrpc2 v0.10.0 Conn, wired by hand to avoid the pitfalls of
// NewServer (shared/recipes/README.md). The server never fetches a URL and
// never reads a file a URL names; the only files it reads are .urlls.json
// configurations and the grammar files (.abnf) their "schemes" name.
package lsp

import (
	"context"
	"encoding/json"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// Options configure a server.
type Options struct {
	// Logger receives the server's log; never one that writes to stdout,
	// which carries the protocol. Nil means no logging.
	Logger *zap.Logger
	// Debounce is how long diagnostics wait after the last change of a
	// document before they are computed. 0, the default, means no wait: an
	// analysis starts at once, and the changes that come while one of the
	// document runs wait for it and are analysed together (incremental
	// analysis makes one edit cheap, see incremental.go). urlls serve
	// leaves it 0; tests set it to hold analyses back.
	Debounce time.Duration
	// Version is reported as serverInfo.version.
	Version string
}

// Serve runs the language server on rwc until the client sends "exit" or
// closes the connection, and returns the process's exit code: 0 when
// "shutdown" came first, 1 otherwise (LSP 3.17, "exit"). The connection
// is read by wireStream (frame.go) and served by handler (dispatch.go).
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options) int {
	if opts.Logger == nil {
		opts.Logger = zap.NewNop()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	wire := newWireStream(rwc, opts.Logger.Named("wire"))
	conn := jsonrpc2.NewConn(wire)
	s := newServer(protocol.ClientDispatcher(conn, opts.Logger.Named("client")), opts)
	s.ids = wire
	wire.inHand = &s.quiet // set before the connection reads
	s.notify = conn.Notify
	conn.Go(ctx, s.handler())
	select {
	case <-s.exited:
	case <-conn.Done():
		opts.Logger.Info("connection closed", zap.Error(conn.Err()))
	case <-ctx.Done():
	}
	s.stop()
	// Nothing may reach the stopped server: end the connection (for stdio
	// the process exits anyway).
	conn.Close()
	if s.state.Load() == stateShutdown {
		return 0
	}
	return 1
}

// Server is the state of one LSP session.
type Server struct {
	base
	client   protocol.Client
	log      *zap.Logger
	opts     Options
	state    atomic.Int32 // stateNew, stateInitialized, stateShutdown (dispatch.go)
	exited   chan struct{}
	exitOnce sync.Once

	// ids gives the id a request had on the wire, for $/cancelRequest;
	// notify sends a notification as given. Both nil without a connection
	// (tests that drive the handler directly).
	ids interface {
		clientID(jsonrpc2.ID) (json.RawMessage, bool)
	}
	notify func(ctx context.Context, method string, params any) error

	configFiles configFiles // .urlls.json files read lately
	quiet       quiet       // the messages in hand, which analyses wait for

	mu       sync.Mutex
	docs     map[protocol.DocumentURI]*document
	settings settings // client capabilities and configuration
	stopping bool     // stop has begun: no analysis starts
	// epoch counts the configuration changes (and saves, when a
	// .urlls.json is read again, and .urlls.json files found changed on
	// disk): an analysis is the base of the next only under the same one.
	epoch uint64

	// requests in flight, for $/cancelRequest: by idKeyRaw of their id
	inflightMu sync.Mutex
	inflight   map[string][]*flight

	wg sync.WaitGroup // background analyses
}

var _ protocol.Server = (*Server)(nil)

func newServer(client protocol.Client, opts Options) *Server {
	return &Server{
		client:   client,
		log:      opts.Logger,
		opts:     opts,
		exited:   make(chan struct{}),
		docs:     map[protocol.DocumentURI]*document{},
		inflight: map[string][]*flight{},
	}
}

// stop ends the background work.
func (s *Server) stop() {
	s.mu.Lock()
	s.stopDocuments()
	s.mu.Unlock()
	s.wg.Wait()
}

// Initialize records what the client can do and declares what the server does.
func (s *Server) Initialize(ctx context.Context, p *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	s.mu.Lock()
	s.settings.capabilities(p)
	s.settings.folders = workspaceFolders(p)
	if err := s.settings.setClient("initializationOptions", p.InitializationOptions); err != nil {
		s.log.Warn("initializationOptions", zap.Error(err))
		s.showMessageLater(protocol.MessageTypeError, "urlls: "+err.Error())
	}
	s.mu.Unlock()
	if p.ClientInfo != nil {
		s.log.Info("initialize", zap.String("client", p.ClientInfo.Name), zap.String("version", p.ClientInfo.Version))
	}
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: protocol.TextDocumentSyncOptions{
				OpenClose: true,
				Change:    protocol.TextDocumentSyncKindIncremental,
				Save:      &protocol.SaveOptions{},
			},
			HoverProvider: true,
			CodeActionProvider: &protocol.CodeActionOptions{
				CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix, fixAllKind},
			},
			DocumentLinkProvider: &protocol.DocumentLinkOptions{},
			SemanticTokensProvider: map[string]any{
				"legend": protocol.SemanticTokensLegend{TokenTypes: tokenTypes, TokenModifiers: []protocol.SemanticTokenModifiers{}},
				"full":   true,
			},
		},
		ServerInfo: &protocol.ServerInfo{Name: "urlls", Version: s.opts.Version},
	}, nil
}

// Initialized pulls the client's configuration, when it can be asked.
func (s *Server) Initialized(ctx context.Context, p *protocol.InitializedParams) error {
	go s.pullConfiguration(context.Background())
	return nil
}

// Shutdown stops answering for documents; exit follows.
func (s *Server) Shutdown(ctx context.Context) error {
	s.state.Store(stateShutdown)
	s.log.Info("shutdown")
	return nil
}

// Exit ends the session; Serve returns the exit code.
func (s *Server) Exit(ctx context.Context) error {
	s.log.Info("exit", zap.Bool("afterShutdown", s.state.Load() == stateShutdown))
	s.exitOnce.Do(func() { close(s.exited) })
	return nil
}

// SetTrace is accepted and ignored: the log goes to stderr or --log-file.
func (s *Server) SetTrace(ctx context.Context, p *protocol.SetTraceParams) error { return nil }

// publishDiagnostics sends p with version on the wire, also when it is 0:
// protocol v0.12.0's params take the version unsigned and leave out 0.
func (s *Server) publishDiagnostics(ctx context.Context, p *protocol.PublishDiagnosticsParams, version int32) error {
	if s.notify == nil {
		return s.client.PublishDiagnostics(ctx, p)
	}
	return s.notify(ctx, protocol.MethodTextDocumentPublishDiagnostics, struct {
		URI         protocol.DocumentURI  `json:"uri"`
		Version     int32                 `json:"version"`
		Diagnostics []protocol.Diagnostic `json:"diagnostics"`
	}{p.URI, version, p.Diagnostics})
}

// showMessageLater shows a message without blocking the caller (a request
// handler must not wait on the client).
func (s *Server) showMessageLater(typ protocol.MessageType, msg string) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.client.ShowMessage(ctx, &protocol.ShowMessageParams{Type: typ, Message: msg}); err != nil {
			s.log.Debug("showMessage", zap.Error(err))
		}
	}()
}
