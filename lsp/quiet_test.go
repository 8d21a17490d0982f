package lsp

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// TestQuiet: an analysis waits while a message is in hand, and goes when
// it is answered or released, when its context ends, or after
// maxQuietWait.
func TestQuiet(t *testing.T) {
	var q quiet
	waited := func(ctx context.Context) <-chan struct{} {
		done := make(chan struct{})
		go func() {
			q.wait(ctx)
			close(done)
		}()
		return done
	}
	select {
	case <-waited(context.Background()):
	case <-time.After(10 * time.Second):
		t.Fatal("wait with nothing in hand did not return")
	}

	// Two messages in hand, through ordered: the first blocks until told.
	answer := make(chan struct{})
	h := ordered(func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() == "first" {
			<-answer
		}
		return reply(ctx, nil, nil)
	}, &q)
	for _, m := range []string{"first", "second"} {
		n, err := jsonrpc2.NewNotification(m, nil)
		if err != nil {
			t.Fatal(err)
		}
		h(context.Background(), func(context.Context, any, error) error { return nil }, n)
	}
	w := waited(context.Background())
	select {
	case <-w:
		t.Fatal("an analysis went while messages were in hand")
	case <-time.After(maxQuietWait / 10):
	}
	close(answer)
	select {
	case <-w:
	case <-time.After(10 * time.Second):
		t.Fatal("the analysis did not go once the messages were answered")
	}

	// A message that never ends: the context, or maxQuietWait, lets it go.
	q.add()
	ctx, cancel := context.WithCancel(context.Background())
	w = waited(ctx)
	cancel()
	select {
	case <-w:
	case <-time.After(10 * time.Second):
		t.Fatal("a cancelled analysis still waited")
	}
	began := time.Now()
	<-waited(context.Background())
	if time.Since(began) < maxQuietWait {
		t.Fatalf("waited %v, less than maxQuietWait with a message in hand", time.Since(began))
	}
	q.done()
}

// TestDocTextSlice: slice of a text that edits made, not built, is the
// slice of the text built, for every range, through chains of edits.
func TestDocTextSlice(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		text := []byte("abc\ndef\r\nghi")
		t0 := builtText(text)
		cur, want := t0, string(text)
		for range 1 + r.IntN(4) {
			start := r.IntN(len(want) + 1)
			end := start + r.IntN(len(want)-start+1)
			insert := []string{"", "x", "\n", "yz\r\n"}[r.IntN(4)]
			cur = editedText(cur, start, end, insert)
			want = want[:start] + insert + want[end:]
		}
		if cur.n != len(want) {
			t.Fatalf("length %d, want %d", cur.n, len(want))
		}
		for lo := 0; lo <= len(want); lo++ {
			for hi := lo; hi <= len(want); hi++ {
				if got := string(cur.slice(lo, hi)); got != want[lo:hi] {
					t.Fatalf("slice(%d, %d) = %q, want %q", lo, hi, got, want[lo:hi])
				}
			}
		}
		if got := string(cur.get()); got != want {
			t.Fatalf("get = %q, want %q", got, want)
		}
		if got := string(cur.slice(0, cur.n)); got != want {
			t.Fatalf("slice once built = %q, want %q", got, want)
		}
	}
}

// TestQuietAnswerGrace: a request stays busy while its answer is written,
// and the analyses wait answerGrace after that answer for the client to
// read it; a notification sets no grace.
func TestQuietAnswerGrace(t *testing.T) {
	var q quiet
	h := ordered(func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		return reply(ctx, nil, nil)
	}, &q)
	busyWhileWriting := make(chan int, 1)
	written := make(chan time.Time, 1)
	call, err := jsonrpc2.NewCall(jsonrpc2.NewNumberID(1), "textDocument/hover", nil)
	if err != nil {
		t.Fatal(err)
	}
	h(context.Background(), func(context.Context, any, error) error {
		q.mu.Lock()
		busyWhileWriting <- q.busy
		q.mu.Unlock()
		written <- time.Now()
		return nil
	}, call)
	if n := <-busyWhileWriting; n != 1 {
		t.Fatalf("%d messages busy while the answer was written, want 1", n)
	}
	answeredAt := <-written
	q.wait(context.Background())
	if waited := time.Since(answeredAt); waited < answerGrace {
		t.Fatalf("an analysis went %v after an answer, before answerGrace (%v)", waited, answerGrace)
	}

	// A notification has no answer for the client to read: it sets no
	// grace.
	q.mu.Lock()
	before := q.answer
	q.mu.Unlock()
	n, err := jsonrpc2.NewNotification("textDocument/didChange", nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	h(context.Background(), func(context.Context, any, error) error { close(done); return nil }, n)
	<-done
	q.wait(context.Background()) // after its end
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.busy != 0 || !q.answer.Equal(before) {
		t.Fatalf("after a notification: %d busy, answer moved from %v to %v", q.busy, before, q.answer)
	}
}
