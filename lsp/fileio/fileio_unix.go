//go:build unix

package fileio

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// oNonblock makes opening a FIFO return at once instead of waiting for a
// writer; for a regular file it changes nothing.
const oNonblock = syscall.O_NONBLOCK

func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

// Searchable reports whether the files of the directory dir can be reached
// by name (its execute permission, for this process's user), which a
// listing of its names, allowed by its read permission, does not tell.
func Searchable(dir string) bool {
	const xOK = 1 // access(2)'s X_OK
	return syscall.Access(dir, xOK) == nil
}

// Owner returns the user id of the owner of the file that info describes.
func Owner(info fs.FileInfo) (uid int, ok bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

// ID identifies a file: two names with the same ID are one file (hard
// links, or a name reached through a symbolic link).
type ID struct{ Dev, Ino uint64 }

// FileID returns the ID of the file that info describes.
func FileID(info fs.FileInfo) (ID, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return ID{}, false
	}
	return ID{Dev: uint64(st.Dev), Ino: uint64(st.Ino)}, true
}

// Links returns the number of names (hard links) of the file that info
// describes: a file with one name cannot be reached again under another
// in a walk that follows no symbolic link.
func Links(info fs.FileInfo) (uint64, bool) {
	if info == nil {
		return 0, false
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Nlink), true
}

// Lock takes an exclusive advisory lock (flock(2)) on f, waiting for
// another holder to release it; it is released when f is closed. Other
// urlls processes fixing the same file take it too; programs that do not
// lock are not kept out by it. A file system without locks is no error.
func Lock(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var lerr error
	if err := rc.Control(func(fd uintptr) {
		for {
			lerr = syscall.Flock(int(fd), syscall.LOCK_EX)
			if lerr != syscall.EINTR {
				return
			}
		}
	}); err != nil {
		return err
	}
	if errors.Is(lerr, syscall.ENOLCK) || errors.Is(lerr, syscall.EOPNOTSUPP) || errors.Is(lerr, syscall.EINVAL) {
		return nil
	}
	return lerr
}

// openFound opens name as a bare descriptor, non-blocking, and checks with
// fstat(2) that it is a regular file.
func openFound(name string) (io.ReadCloser, Opened, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(name, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, Opened{}, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return nil, Opened{}, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		syscall.Close(fd)
		return nil, Opened{}, notRegular(name)
	}
	id := ID{Dev: uint64(st.Dev), Ino: uint64(st.Ino)}
	return &rawFile{fd: fd, name: name}, Opened{Size: st.Size, ID: id, Links: uint64(st.Nlink)}, nil
}

// rawFile reads a regular file through its descriptor.
type rawFile struct {
	fd   int
	name string
}

func (f *rawFile) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		n, err := syscall.Read(f.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &fs.PathError{Op: "read", Path: f.name, Err: err}
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f *rawFile) Close() error { return syscall.Close(f.fd) }
