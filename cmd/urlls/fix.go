package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"

	"github.com/urlls/urlls/lsp/fileio"
)

// How "urlls check --fix" writes a file.
//
// It writes in place: it opens the file it read, without truncating it,
// and writes the fixed text over the old one, from the first byte that
// differs, then cuts the file to its new length. The file stays the same
// file: its inode, and with it its mode, owner and group, its hard links,
// its extended attributes (ACLs and SELinux labels among them) and the
// open descriptors of editors, and a symbolic link stays a link, the text
// being written to the file it points to. No other file is ever created,
// so nothing can be left behind, whatever stops urlls.
//
// Replacing the file with a new one renamed over it (google/renameio,
// natefinch/atomic), which is atomic, would lose all of that: a new inode
// has the owner of whoever runs urlls, no hard links to it and no extended
// attributes, and the rename replaces a symbolic link with a regular file;
// copying them back covers neither hard links nor, without privileges, the
// owner, and the temporary file stays behind after a SIGKILL. The price of
// writing in place is that a SIGKILL or a power cut during the one write
// can leave the file partly written; SIGINT, SIGTERM and SIGHUP wait for
// the write to end (holdSignals), and the file is synced before urlls goes
// on.
//
// The file must be what was read: under an exclusive lock (which another
// urlls fixing it takes too), its content is read again through the
// descriptor that writes, and compared with the text the fixes were
// computed on; a file changed in between is not written, and is reported.
// A read-only file (no write permission for its owner) is refused, even to
// root, who could write it: read-only says "do not change me".

// Test hooks, nil outside tests.
var (
	// testHookBeforeVerify runs after the file is opened and locked for
	// writing, before its content is compared with what was read: a test
	// changes the file there, as another program could.
	testHookBeforeVerify func(path string)
	// testHookInWrite runs inside the write, with the signals held.
	testHookInWrite func(path string)
)

// writeFixed replaces the content of the file at path, which was read as
// old, by fixed, in place.
func writeFixed(path string, old, fixed []byte) error {
	info, err := os.Stat(path)
	if err != nil {
		return fixError(path, err)
	}
	if info.Mode().IsRegular() && info.Mode().Perm()&0o200 == 0 {
		return fmt.Errorf("%s: read-only file (mode %04o), not fixed: make it writable (chmod u+w) to have it fixed", path, info.Mode().Perm())
	}
	f, _, err := fileio.Open(path, os.O_RDWR)
	if err != nil {
		return fixError(path, err)
	}
	defer f.Close()
	if err := fileio.Lock(f); err != nil {
		return fixError(path, err)
	}
	if testHookBeforeVerify != nil {
		testHookBeforeVerify(path)
	}
	now := make([]byte, len(old)+1)
	n, err := io.ReadFull(io.NewSectionReader(f, 0, int64(len(now))), now)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return fixError(path, err)
	}
	if !bytes.Equal(now[:n], old) {
		return fmt.Errorf("%s: changed since urlls read it, not fixed (check it again)", path)
	}

	defer writing()()
	if testHookInWrite != nil {
		testHookInWrite(path)
	}
	from := commonPrefix(old, fixed)
	if _, err := f.WriteAt(fixed[from:], int64(from)); err != nil {
		return fixError(path, err)
	}
	if len(fixed) < len(old) {
		if err := f.Truncate(int64(len(fixed))); err != nil {
			return fixError(path, err)
		}
	}
	if err := f.Sync(); err != nil {
		return fixError(path, err)
	}
	return nil
}

// fixError words an error writing the fixed file.
func fixError(path string, err error) error {
	var nr *fileio.NotRegularError
	if errors.As(err, &nr) {
		return fmt.Errorf("%s: not a regular file (%s), not fixed", path, fileio.Kind(nr.Mode))
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: could not write the fixed file: %v", path, err)
}

// commonPrefix returns the length of the longest common prefix of a and b.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// writes is held for reading by each write in progress, and for writing by
// a signal that waits for them (holdSignals).
var writes sync.RWMutex

// writing marks a write in progress until the function it returns is
// called.
func writing() (done func()) {
	writes.RLock()
	return writes.RUnlock
}
