package vcd

import (
	"errors"
	"io"
)

const (
	defaultBufSize     = 64 << 10
	defaultMaxTokenLen = 64 << 20
)

// scanner splits its input into whitespace-separated tokens and counts
// lines. A returned token aliases the internal buffer and is valid until
// the next call.
type scanner struct {
	r      io.Reader
	buf    []byte
	pos    int
	end    int
	eof    bool
	line   int // line of the next unread byte
	tok    int // line of the last token
	maxTok int
}

func newScanner(r io.Reader, maxTok int) *scanner {
	return &scanner{r: r, buf: make([]byte, defaultBufSize), line: 1, maxTok: maxTok}
}

var errTokenTooLong = errors.New("token too long")

var spaceTable = [256]bool{' ': true, '\n': true, '\t': true, '\r': true, '\v': true, '\f': true}

// fill reads more input after s.end, first moving the unread bytes from
// keep on to the front of the buffer. It returns false at end of input.
func (s *scanner) fill(keep int) (bool, error) {
	if s.eof {
		return false, nil
	}
	n := copy(s.buf, s.buf[keep:s.end])
	s.pos -= keep
	s.end = n
	if s.end == len(s.buf) {
		if len(s.buf) >= s.maxTok {
			return false, errTokenTooLong
		}
		nb := make([]byte, min(2*len(s.buf), s.maxTok))
		copy(nb, s.buf[:s.end])
		s.buf = nb
	}
	for tries := 0; tries < 100; tries++ {
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		if err == io.EOF {
			s.eof = true
			return n > 0, nil
		}
		if err != nil {
			return n > 0, err
		}
		if n > 0 {
			return true, nil
		}
	}
	return false, io.ErrNoProgress
}

// next returns the next token, or nil at end of input.
func (s *scanner) next() ([]byte, error) {
	for {
		b := s.buf[s.pos:s.end]
		for j, c := range b {
			if !spaceTable[c] {
				s.pos += j
				goto token
			}
			if c == '\n' {
				s.line++
			}
		}
		s.pos = s.end
		ok, err := s.fill(s.end)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, nil
		}
	}
token:
	s.tok = s.line
	i := s.pos
	for {
		for j, c := range s.buf[i:s.end] {
			if spaceTable[c] {
				t := s.buf[s.pos : i+j]
				s.pos = i + j
				return t, nil
			}
		}
		i = s.end
		start := s.pos
		ok, err := s.fill(start)
		i -= start
		if err != nil {
			return nil, err
		}
		if !ok {
			t := s.buf[s.pos:i]
			s.pos = i
			return t, nil
		}
	}
}
