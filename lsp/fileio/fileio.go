// Package fileio reads the files that urlls reads from the file system, for
// both of its faces (cmd/urlls and lsp): documents and ignore files, which
// must be regular files of a bounded size, and the .urlls.json
// configuration files, which must also be found only where the user's
// project is and be owned by the user (configfile.go).
//
// A FIFO, a socket or a device is never read: opening a FIFO blocks until
// a writer comes, and a device such as /dev/zero never ends. A file is
// stat'ed before it is opened, opened with O_NONBLOCK (which makes the open
// of a FIFO swapped in meanwhile return at once) and checked again on the
// open descriptor, so no race can make urlls block or read without end.
package fileio

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// NotRegularError is the error of reading what is not a regular file.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s: not a regular file (%s)", e.Path, Kind(e.Mode))
}

// TooLargeError is the error of reading more than a size limit.
type TooLargeError struct {
	Path  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s: larger than %s", e.Path, FormatSize(e.Limit))
}

// Kind names the type of a file that is not a regular one.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "block device"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m.IsRegular():
		return "regular file"
	}
	return "irregular file"
}

// FormatSize writes a size in bytes the way a limit is given: "64 MiB",
// "1 KiB", "1000 bytes".
func FormatSize(n int64) string {
	for _, u := range []struct {
		name string
		size int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d %s", n/u.size, u.name)
		}
	}
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// ParseSize reads a size: a number of bytes, optionally followed by K, M or
// G (powers of 1024, with or without "iB" or "B"): "16MiB", "50M", "4096".
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	unit := int64(1)
	upper := strings.ToUpper(t)
	for _, u := range []struct {
		suffix string
		size   int64
	}{{"KIB", 1 << 10}, {"MIB", 1 << 20}, {"GIB", 1 << 30}, {"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1}} {
		if strings.HasSuffix(upper, u.suffix) {
			unit = u.size
			t = strings.TrimSpace(t[:len(t)-len(u.suffix)])
			break
		}
	}
	var n int64
	if t == "" {
		return 0, fmt.Errorf("size %q has no number", s)
	}
	for _, c := range t {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("size %q is not a number of bytes with an optional K, M or G", s)
		}
		if n > (1<<62)/10 {
			return 0, fmt.Errorf("size %q is too large", s)
		}
		n = n*10 + int64(c-'0')
	}
	if n > (1<<62)/unit {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	if n == 0 {
		return 0, fmt.Errorf("size %q must be above 0", s)
	}
	return n * unit, nil
}

// OpenRegular opens the file at name for reading if it is a regular file
// (a symbolic link to one is followed), and returns it with its
// information, else a *NotRegularError without having opened it.
func OpenRegular(name string) (*os.File, fs.FileInfo, error) {
	return Open(name, os.O_RDONLY)
}

// Open opens the file at name with flag (os.O_RDONLY, os.O_RDWR, …) if it
// is a regular file, as OpenRegular does.
func Open(name string, flag int) (*os.File, fs.FileInfo, error) {
	info, err := os.Stat(name)
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, nil, &NotRegularError{Path: name, Mode: info.Mode()}
	}
	f, err := os.OpenFile(name, flag|oNonblock, 0)
	if err != nil {
		return nil, nil, err
	}
	// What was opened may not be what was stat'ed.
	info, err = f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, &NotRegularError{Path: name, Mode: info.Mode()}
	}
	return f, info, nil
}

// OpenFound opens for reading the file at name that a directory walk found
// to be a regular file (by the type its directory's listing gives, which
// does not follow a symbolic link), without the stat OpenRegular makes
// first, and returns it with what the fstat(2) of the open descriptor says
// of it. What was opened is still checked to be a
// regular file, in case the file was replaced in between (a FIFO opens
// non-blocking, and is refused). It saves a system call per file of a
// walk, and where the system allows, the work of an *os.File, which would
// try to add the non-blocking descriptor to the runtime's poller, in vain
// for a regular file (openFound).
func OpenFound(name string) (io.ReadCloser, Opened, error) {
	return openFound(name)
}

// Opened is what the fstat(2) of a file opened by OpenFound said of it.
type Opened struct {
	Size int64
	// ID and Links are the file's identity and number of names (FileID,
	// Links); Links is 0 where the system does not tell them.
	ID    ID
	Links uint64
}

// notRegular is the error of a file that was opened and is not a regular
// file: its kind, as a stat of its name tells.
func notRegular(name string) error {
	info, err := os.Stat(name)
	if err != nil {
		return err
	}
	return &NotRegularError{Path: name, Mode: info.Mode()}
}

// ReadLimited reads r to its end, or fails with a *TooLargeError naming
// name as soon as it has read more than limit bytes: a reader that never
// ends costs limit+1 bytes of memory, no more.
func ReadLimited(r io.Reader, name string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{Path: name, Limit: limit}
	}
	return data, nil
}

// ReadRegular reads the regular file at name, of at most limit bytes.
func ReadRegular(name string, limit int64) ([]byte, fs.FileInfo, error) {
	f, info, err := OpenRegular(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if info.Size() > limit {
		return nil, nil, &TooLargeError{Path: name, Limit: limit}
	}
	data, err := ReadLimited(f, name, limit)
	if err != nil {
		return nil, nil, err
	}
	return data, info, nil
}

// IsNotExist reports whether err says that a file is not there: it does not
// exist, or a component of its path is not a directory.
func IsNotExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || isNotDir(err)
}

// IsRepoRoot reports whether dir holds .git: a directory, or a file (a
// worktree or a submodule) that points to one.
func IsRepoRoot(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
}

// RepoRoot returns the nearest directory at or above dir (absolute) that
// holds .git, or "".
func RepoRoot(dir string) string {
	for {
		if IsRepoRoot(dir) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Within reports whether path is dir or below it (both absolute and clean).
func Within(path, dir string) bool {
	if path == dir {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(path, dir)
}
