package main

import (
	"bytes"
	"io"
	"os"
)

// spoolMemory is how many bytes a spool holds in memory before it moves
// them to a temporary file.
const spoolMemory = 1 << 20

// spool holds output that must wait for output written after it (a SARIF
// log's results wait for its artifacts): in memory up to spoolMemory,
// beyond that in a temporary file, so that the memory of a run does not
// grow with what it prints. When no temporary file can be made, it stays
// in memory.
type spool struct {
	mem  bytes.Buffer
	file *os.File
	name string // the file's name, for a system that cannot unlink an open file
	err  error  // the first error writing to the file
}

func (s *spool) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	if s.file == nil && s.mem.Len()+len(p) > spoolMemory {
		if f, err := os.CreateTemp("", "urlls-spool-*"); err == nil {
			// Unlinked at once where the system allows it: nothing is left
			// behind, whatever ends the run.
			os.Remove(f.Name())
			s.file, s.name = f, f.Name()
			if _, err := s.mem.WriteTo(f); err != nil {
				s.err = err
				return 0, err
			}
			s.mem = bytes.Buffer{} // its memory goes back to the heap
		}
	}
	if s.file == nil {
		return s.mem.Write(p)
	}
	n, err := s.file.Write(p)
	if err != nil {
		s.err = err
	}
	return n, err
}

// WriteTo copies everything written to w.
func (s *spool) WriteTo(w io.Writer) (int64, error) {
	if s.err != nil {
		return 0, s.err
	}
	if s.file == nil {
		return s.mem.WriteTo(w)
	}
	if _, err := s.file.Seek(0, io.SeekStart); err != nil {
		return 0, err
	}
	return io.Copy(w, s.file)
}

// Close lets go of the temporary file.
func (s *spool) Close() error {
	if s.file == nil {
		return nil
	}
	err := s.file.Close()
	os.Remove(s.name)
	s.file = nil
	return err
}
