package lsp

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
)

// FuzzProtocol feeds the server random and truncated input and asserts
// that it answers or ignores each message, writes nothing but well-formed
// JSON-RPC 2.0 (rawClient checks every frame: an id, one of result and
// error, a non-zero code), and never ends before an exit. The first byte
// of the input says how the rest is sent:
//
//   - bit 0 clear: the rest is a list of bodies separated by NUL bytes,
//     each framed with its right Content-Length. Every body that is a valid
//     request must be answered with its id as written, before the answer
//     of a probe request sent last, which must come unless a body was an
//     exit. (Requests are answered in order.)
//   - bit 0 set: the rest is sent as it is, headers and all, then the
//     input is closed; the server must not have ended before unless the
//     input may hold an exit, and must end after.
//   - bit 1 set: the harness does not send initialize first.
func FuzzProtocol(f *testing.F) {
	join := func(mode byte, bodies ...string) []byte {
		return append([]byte{mode}, strings.Join(bodies, "\x00")...)
	}
	const (
		framed = 0
		raw    = 1
		noInit = 2
	)
	didOpen := `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.md","languageId":"markdown","version":0,"text":"[a](http://x.org/%zz) <http://x.org:99999/>\n"}}}`
	didChange := `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///a.md","version":1},"contentChanges":[{"range":{"start":{"line":0,"character":1},"end":{"line":0,"character":1}},"text":"b"}]}}`
	session := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":` + initParams + `}`,
		`{"jsonrpc":"2.0","method":"initialized","params":{}}`,
		didOpen, didChange,
		hoverReq(`"h"`),
		`{"jsonrpc":"2.0","id":2,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"file:///b.md"},"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":3}},"context":{"diagnostics":[]}}}`,
		`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"file:///a.md"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"shutdown"}`,
		`{"jsonrpc":"2.0","method":"exit"}`,
	}
	f.Add(join(framed|noInit, session...))
	f.Add(join(framed|noInit, session[:len(session)-1]...))
	f.Add(join(framed, session[2:6]...))
	f.Add(join(framed, `{"jsonrpc":"2.0","id":"","method":"shutdown","params":{}}`, `{"jsonrpc":"2.0","id":null,"method":"shutdown","params":[]}`, hoverReq("1.0")))
	f.Add(join(framed, `{not json`, `[]`, `[1,{"jsonrpc":"2.0","id":9}]`, `{}`, `null`, `{"jsonrpc":"2.0","id":{},"method":"x"}`, hoverReq("9007199254740993")))
	f.Add(join(framed, `{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{"textDocument":5}}`, `{"jsonrpc":"2.0","id":1,"method":"$/cancelRequest","params":{"id":1}}`, ``))
	f.Add(join(framed|noInit, hoverReq("1"), `{"jsonrpc":"2.0","method":"exit","params":null}`))
	f.Add(join(framed, strings.Replace(didOpen, `"version":0`, `"version":-1`, 1), didChange, strings.Replace(didChange, `"version":1`, `"version":4294967296`, 1)))
	for _, tc := range wireCases {
		f.Add(append([]byte{raw}, tc.send...))
	}
	full := frame(hoverReq("5"))
	for _, cut := range []int{1, 10, 16, 18, 19, 20, 40, len(full) - 1} {
		f.Add(append([]byte{raw}, full[:cut]+full...))
		f.Add(append([]byte{raw}, full+full[:cut]...))
	}
	f.Add(append([]byte{raw | noInit}, frame(session[0])+frame(session[len(session)-2])+frame(session[len(session)-1])...))

	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		mode, rest := data[0], data[1:]
		c := newRawClient(t, zap.NewNop())
		write := func(s string) bool {
			// A server that stops reading fails the test, not hangs it.
			c.conn.SetWriteDeadline(time.Now().Add(patience))
			_, err := io.WriteString(c.w, s)
			if errors.Is(err, os.ErrDeadlineExceeded) {
				t.Fatal("the server stopped reading")
			}
			return err == nil
		}
		if mode&noInit == 0 {
			if !write(frame(`{"jsonrpc":"2.0","id":"fuzz-init","method":"initialize","params":` + initParams + `}`)) {
				t.Fatal("the server went away before initialize")
			}
		}
		if mode&raw != 0 {
			wrote := write(string(rest))
			mayExit := bytes.Contains(rest, []byte("exit")) || bytes.Contains(rest, []byte(`\u`))
			select {
			case code := <-c.code:
				c.exited = true
				if !mayExit {
					t.Fatalf("the server ended (code %d) on input without an exit", code)
				}
				return
			default:
			}
			if !wrote && !mayExit {
				t.Fatal("the server stopped reading")
			}
			c.close()
			if code := c.waitExit(); code != 0 && code != 1 {
				t.Errorf("exit code %d", code)
			}
			return
		}

		var want []string // ids of the requests, as written
		exits := false
		for _, body := range bytes.Split(rest, []byte{0}) {
			if !json.Valid(body) && bytes.Contains(bytes.ToLower(body), []byte("content-")) || bytes.Contains(body, []byte("fuzz-")) {
				// Not JSON, but holding what looks like the next header
				// (the server may take it for one: an over-long
				// Content-Length, which this mode does not test), or the
				// harness's own ids.
				body = []byte("{")
			}
			if !write(frame(string(body))) {
				break
			}
			if exits {
				continue
			}
			if id, isRequest, isExit := classify(body); isExit {
				exits = true
			} else if isRequest {
				want = append(want, id)
			}
		}
		if exits {
			select {
			case code := <-c.code:
				c.exited = true
				if code != 0 && code != 1 {
					t.Errorf("exit code %d", code)
				}
			case <-time.After(patience):
				c.exited = true
				t.Fatal("the server did not end after an exit")
			}
			return
		}
		if !write(frame(`{"jsonrpc":"2.0","id":"fuzz-probe","method":"fuzz/probe"}`)) {
			t.Fatal("the server went away without an exit")
		}
		// Every request answered exactly once, among the other answers
		// (parse errors, invalid requests), before or after the probe: a
		// request that waits for its document's analysis lets the ones
		// behind it go, and LSP lets answers come in another order.
		pending := map[string]int{}
		for _, id := range want {
			pending[id]++
		}
		var got []string
		probed := false
		for !probed || len(pending) > 0 {
			m, ok := c.next(rawMsg.isResponse)
			if !ok {
				t.Fatalf("requests %q not answered (probe answered: %v); answers: %q", keys(pending), probed, got)
			}
			id := string(m.fields["id"])
			switch {
			case id == `"fuzz-probe"`:
				probed = true
			case m.fields != nil && id != `"fuzz-init"`:
				got = append(got, id)
				if pending[id] > 0 {
					if pending[id]--; pending[id] == 0 {
						delete(pending, id)
					}
				}
			}
		}
		select {
		case code := <-c.code:
			c.exited = true
			t.Fatalf("the server ended (code %d) without an exit", code)
		default:
		}
	})
}

// classify tells what the server must make of a body, by JSON-RPC 2.0
// alone: a request (its id as written), an exit, or neither (a
// notification, a response, or something to be refused).
func classify(body []byte) (id string, isRequest, isExit bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil {
		return "", false, false
	}
	var version, method string
	if json.Unmarshal(m["jsonrpc"], &version) != nil || version != "2.0" {
		return "", false, false
	}
	rawMethod, ok := m["method"]
	if !ok || !bytes.HasPrefix(bytes.TrimSpace(rawMethod), []byte(`"`)) || json.Unmarshal(rawMethod, &method) != nil {
		return "", false, false
	}
	if p, ok := m["params"]; ok {
		if p := bytes.TrimSpace(p); string(p) != "null" && p[0] != '{' && p[0] != '[' {
			return "", false, false
		}
	}
	rawID, hasID := m["id"]
	if hasID {
		// A string, a number or null.
		if id := bytes.TrimSpace(rawID); string(id) != "null" && !bytes.ContainsAny(id[:1], `"-0123456789`) {
			return "", false, false
		}
	}
	if method == "exit" {
		return "", false, true
	}
	if !hasID {
		return "", false, false
	}
	return string(rawID), true, false
}

// keys returns the keys of m, for messages.
func keys(m map[string]int) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
