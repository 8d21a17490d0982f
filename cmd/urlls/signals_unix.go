//go:build unix

package main

import (
	"os"
	"os/signal"
	"syscall"
	"time"
)

// holdSignals makes SIGINT, SIGTERM and SIGHUP wait for the writes in
// progress (writing): on such a signal no write starts any more, those in
// progress end, and then the process dies of the signal, as it would have
// at once. Signals the process was started to ignore stay ignored. It
// returns the function that stops holding them.
func holdSignals() (stop func()) {
	var sigs []os.Signal
	for _, s := range []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		if !signal.Ignored(s) {
			sigs = append(sigs, s)
		}
	}
	ch := make(chan os.Signal, 1)
	done := make(chan struct{})
	exited := make(chan struct{})
	signal.Notify(ch, sigs...)
	go func() {
		defer close(exited)
		var sig os.Signal
		select {
		case sig = <-ch:
		case <-done:
			// A signal that came before stop is still due.
			select {
			case sig = <-ch:
			default:
				return
			}
		}
		writes.Lock() // the writes in progress have ended; no other starts
		signal.Reset(sigs...)
		syscall.Kill(os.Getpid(), sig.(syscall.Signal))
		// Dying of the signal is what a shell reports as such; should it
		// not come, exit with the status a shell would report.
		time.Sleep(time.Second)
		os.Exit(128 + int(sig.(syscall.Signal)))
	}()
	return func() {
		// From here a signal has its default effect; one that came before
		// is handled, and then stop does not return.
		signal.Stop(ch)
		close(done)
		<-exited
	}
}
