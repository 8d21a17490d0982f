package lsp

import (
	"context"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// ordered is jsonrpc2.AsyncHandler with one more way out of the queue.
// Like it, it runs each message on a goroutine of its own, after the
// message before it has been answered, so that a request sees the changes
// sent before it and notifications apply in order. Unlike it, a handler may
// let the messages behind it go before it answers (release): a request that
// has taken the snapshot of its document waits for that document's
// analysis without making the requests about other documents wait too.
//
// Each message counts in busy from its arrival until it lets the messages
// behind it go: the analyses wait for that (quiet).
func ordered(handler jsonrpc2.Handler, busy *quiet) jsonrpc2.Handler {
	next := make(chan struct{})
	close(next)
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		wait := next
		next = make(chan struct{})
		var once sync.Once
		unlock := next
		busy.add()
		free := func() {
			once.Do(func() {
				close(unlock)
				busy.done()
			})
		}
		_, isCall := req.(*jsonrpc2.Call)
		inner := reply
		reply = func(ctx context.Context, result any, err error) error {
			// The answer is written before the messages behind go, so
			// that answers leave in the order their messages came (a
			// client's probe after a bad message sees its error first);
			// the analyses then give the client the time to read it
			// (answerGrace). A request that waits for an analysis has
			// let the queue go already (release).
			werr := inner(ctx, result, err)
			if isCall {
				busy.answered()
			}
			free()
			return werr
		}
		ctx = context.WithValue(ctx, releaseKey{}, free)
		go func() {
			<-wait
			_ = handler(ctx, reply, req)
		}()
		return nil
	}
}

type releaseKey struct{}

// release lets the messages queued behind the request of ctx start (see
// ordered); it does nothing for a context without a queue.
func release(ctx context.Context) {
	if free, ok := ctx.Value(releaseKey{}).(func()); ok {
		free()
	}
}

// quiet tells the analyses when the server has no message to handle: the
// messages that came and have not yet been answered, or let the messages
// behind them go (release), are busy. An analysis starts only when none is
// (or after maxQuietWait), so that a request sent right behind a change,
// a hover above all, is answered on a processor of its own rather than
// beside the analysis that the change started (on two cores, beside it
// and the garbage collector's share of the other one): the analysis takes
// a few milliseconds, the request tens of microseconds. A request that
// waits for an analysis releases the queue first (current), so it never
// waits for itself.
//
// Once a request has been answered, the analyses wait answerGrace more:
// the answer is of no use until the client has read it, and the client
// needs a processor for that. An analysis that started as soon as the
// answer was written took both processors of a two-core machine (its
// own goroutine and the collector's share of the other) from under the
// client: through stdio, a hover right after an edit had a p99 of 4–6 ms,
// the 4 ms of a scheduler tick, against about 1 ms for the same hover on
// an idle document; with the grace both are about 1 ms. A change alone
// (a notification) is answered by nothing: its analysis does not wait.
type quiet struct {
	mu     sync.Mutex
	busy   int
	idle   chan struct{} // closed when busy is 0; nil while it is
	answer time.Time     // when the latest answer to a request was written
}

// maxQuietWait bounds how long an analysis waits for the server to be
// quiet: a client that never stops sending still gets its diagnostics.
const maxQuietWait = 50 * time.Millisecond

// answerGrace is how long the analyses wait after the answer to a request
// has been written, for the client to read it (see quiet). It costs the
// diagnostics of an edit followed by a request that much, once: against
// the 16 ms of a display frame that issue 12 gives them, a few percent.
const answerGrace = time.Millisecond

func (q *quiet) add() {
	q.mu.Lock()
	q.busy++
	q.mu.Unlock()
}

func (q *quiet) done() {
	q.mu.Lock()
	q.busy--
	if q.busy == 0 && q.idle != nil {
		close(q.idle)
		q.idle = nil
	}
	q.mu.Unlock()
}

// answered records that the answer to a request has just been written.
func (q *quiet) answered() {
	q.mu.Lock()
	q.answer = time.Now()
	q.mu.Unlock()
}

// wait returns when no message is busy and answerGrace has passed since
// the latest answer, when ctx is done, or when maxQuietWait has passed.
func (q *quiet) wait(ctx context.Context) {
	var deadline <-chan time.Time
	for {
		q.mu.Lock()
		var ready <-chan time.Time
		var idle chan struct{}
		if q.busy == 0 {
			rest := answerGrace - time.Since(q.answer)
			if rest <= 0 {
				q.mu.Unlock()
				return
			}
			ready = time.After(rest)
		} else {
			if q.idle == nil {
				q.idle = make(chan struct{})
			}
			idle = q.idle
		}
		q.mu.Unlock()
		if deadline == nil {
			t := time.NewTimer(maxQuietWait)
			defer t.Stop()
			deadline = t.C
		}
		select {
		case <-idle: // then the grace, if an answer was written lately
		case <-ready: // and busy again meanwhile?
		case <-ctx.Done():
			return
		case <-deadline:
			return
		}
	}
}
