//go:build linux

package main

import (
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal and returns its terminal side, the
// standard input of a program run in it.
func openPTY(t *testing.T) *os.File {
	t.Helper()
	_, pts := openPTYPair(t)
	return pts
}

// openPTYPair opens a pseudo-terminal and returns its two sides: what a
// program run in it writes to pts, the terminal, is read from ptm.
func openPTYPair(t *testing.T) (ptm, pts *os.File) {
	t.Helper()
	ptm, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { ptm.Close() })
	if err := unix.IoctlSetPointerInt(int(ptm.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetUint32(int(ptm.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("ptsname: %v", err)
	}
	pts, err = os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open the terminal side: %v", err)
	}
	t.Cleanup(func() { pts.Close() })
	return ptm, pts
}

// TestServeHintOnTerminal: bare urlls at a terminal tells the person what
// it is waiting for, on stderr, and still serves; from a pipe (an editor)
// or /dev/null it says nothing.
func TestServeHintOnTerminal(t *testing.T) {
	if !stdinIsTerminal(openPTY(t)) {
		t.Fatal("a pseudo-terminal is not a terminal")
	}
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	defer r.Close()
	for _, in := range []*os.File{devNull, r} {
		if stdinIsTerminal(in) {
			t.Errorf("%s is taken for a terminal", in.Name())
		}
	}

	// The server at a terminal: the input ends at once (Ctrl-D), the server
	// with it, and the hint comes before anything else.
	real := stdinIsTerminal
	t.Cleanup(func() { stdinIsTerminal = real })
	stdinIsTerminal = func(io.Reader) bool { return true }
	_, errOut, code := urllsIn(t, "")
	if code != 1 || !strings.HasPrefix(errOut, terminalHint) {
		t.Errorf("exit %d, stderr %q; want the hint first", code, errOut)
	}
	stdinIsTerminal = func(io.Reader) bool { return false }
	if _, errOut, _ := urllsIn(t, ""); strings.Contains(errOut, "Ctrl-D") {
		t.Errorf("hint without a terminal: %q", errOut)
	}
}
