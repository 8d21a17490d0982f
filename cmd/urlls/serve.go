package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"golang.org/x/term"

	"github.com/urlls/urlls/lsp"
)

// stdio joins standard input and output into the connection of the
// language server. Closing it does not unblock a pending read of stdin
// (recipes/README.md), which is why serve ends the process explicitly.
type stdio struct {
	in  io.Reader
	out io.Writer
}

func (s stdio) Read(p []byte) (int, error)  { return s.in.Read(p) }
func (s stdio) Write(p []byte) (int, error) { return s.out.Write(p) }
func (s stdio) Close() error                { return nil }

func runServe(e *env, cmd *command, args []string) int {
	fs := newFlagSet(cmd)
	fs.Bool("stdio", true, "talk LSP on standard input and output (the only transport; accepted for clients that pass it)")
	logFile := fs.String("log-file", "", "write the log to this `file` instead of standard error")
	logLevel := fs.String("log-level", "info", "log `level`: debug, info, warn or error")
	pos, code, done := e.parse(cmd, fs, args)
	if done {
		return code
	}
	if len(pos) > 0 {
		return e.usageError(cmd, fs, "unexpected argument %s", oneLine(pos[0]))
	}
	var level zapcore.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		return e.usageError(cmd, fs, "unknown log level %s (want debug, info, warn or error)", oneLine(*logLevel))
	}
	logger, closeLog, err := newLogger(e.stderr, *logFile, level)
	if err != nil {
		fmt.Fprintf(e.stderr, "urlls: serve: %s\n", message(err.Error()))
		return exitUsage
	}
	defer closeLog()
	if stdinIsTerminal(e.stdin) {
		// Someone typed "urlls" to see what it does: the server would wait
		// for LSP messages without a word.
		fmt.Fprint(e.stderr, terminalHint)
	}
	v, _ := version()
	logger.Info("urlls language server starting", zap.String("version", v))
	return lsp.Serve(context.Background(), stdio{in: e.stdin, out: e.stdout}, lsp.Options{Logger: logger, Version: v})
}

// terminalHint is what serve tells a person at a terminal.
const terminalHint = `urlls: serving the Language Server Protocol on standard input and output,
as an editor starts it; press Ctrl-D to end. To check files, run
"urlls check PATH..."; "urlls help" lists the commands.
`

// stdinIsTerminal reports whether r, serve's standard input, is a
// terminal (not a pipe, a file or /dev/null); tests replace it.
var stdinIsTerminal = func(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// newLogger logs to stderr or a file, never to stdout, which carries the
// protocol.
func newLogger(stderr io.Writer, file string, level zapcore.Level) (*zap.Logger, func(), error) {
	var sink zapcore.WriteSyncer = zapcore.AddSync(stderr)
	closeLog := func() {}
	if file != "" {
		f, err := os.OpenFile(file, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, nil, err
		}
		sink = f
		closeLog = func() { f.Close() }
	}
	enc := zapcore.NewConsoleEncoder(zap.NewDevelopmentEncoderConfig())
	logger := zap.New(zapcore.NewCore(enc, zapcore.Lock(sink), level))
	return logger, func() { logger.Sync(); closeLog() }, nil
}
