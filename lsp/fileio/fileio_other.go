//go:build !unix

package fileio

import (
	"io"
	"io/fs"
	"os"
)

const oNonblock = 0

func isNotDir(err error) bool { return false }

// Searchable would report whether the files of the directory dir can be
// reached by name; here a listed directory's files are taken to be.
func Searchable(dir string) bool { return true }

// Owner returns the user id of the owner of the file that info describes;
// ok is false where the system has no such thing.
func Owner(info fs.FileInfo) (uid int, ok bool) { return 0, false }

// ID identifies a file: two names with the same ID are one file.
type ID struct{ Dev, Ino uint64 }

// FileID returns the ID of the file that info describes; ok is false where
// the system does not tell.
func FileID(info fs.FileInfo) (ID, bool) { return ID{}, false }

// Links would return the number of names of the file that info describes;
// ok is false where the system does not tell.
func Links(info fs.FileInfo) (uint64, bool) { return 0, false }

// Lock would take an exclusive advisory lock on f; there is none here.
func Lock(f *os.File) error { return nil }

// openFound opens name and checks that it is a regular file.
func openFound(name string) (io.ReadCloser, Opened, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, Opened{}, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, Opened{}, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, Opened{}, &NotRegularError{Path: name, Mode: info.Mode()}
	}
	return f, Opened{Size: info.Size()}, nil
}
