package vcd

import (
	"fmt"
	"strings"
)

// maxWidth bounds a declared width so that a corrupt file cannot make the
// reader allocate without limit.
const maxWidth = 1 << 20

// parseHeader reads declarations up to and including $enddefinitions $end.
func (r *Reader) parseHeader() error {
	h := &Header{byCode: map[string]*Signal{}, byName: map[string][]*Var{}}
	r.h = h
	var cur *Scope
	for {
		tok, err := r.token()
		if err != nil {
			return err
		}
		if tok == nil {
			return r.errf(r.sc.line, "end of file before $enddefinitions")
		}
		line := r.sc.tok
		switch string(tok) {
		case "$comment":
			body, err := r.body(line, "$comment")
			if err != nil {
				return err
			}
			h.Comments = append(h.Comments, body)
		case "$date":
			if h.Date, err = r.body(line, "$date"); err != nil {
				return err
			}
		case "$version":
			if h.Version, err = r.body(line, "$version"); err != nil {
				return err
			}
		case "$timescale":
			body, err := r.body(line, "$timescale")
			if err != nil {
				return err
			}
			ts, perr := ParseTimescale(body)
			if perr != nil {
				return r.errf(line, "bad $timescale %q", body)
			}
			h.Timescale = ts
		case "$scope":
			s, err := r.parseScope(line, cur)
			if err != nil {
				return err
			}
			cur = s
		case "$upscope":
			if err := r.expectEnd(line, "$upscope"); err != nil {
				return err
			}
			if cur == nil {
				return r.errf(line, "$upscope without an open $scope")
			}
			cur = cur.Parent
		case "$var":
			if err := r.parseVar(line, cur); err != nil {
				return err
			}
		case "$enddefinitions":
			return r.expectEnd(line, "$enddefinitions")
		default:
			if tok[0] != '$' {
				return r.errf(line, "unexpected %q in the definitions", clip(tok))
			}
			if string(tok) == "$end" {
				return r.errf(line, "$end without a command")
			}
			if _, err := r.body(line, string(tok)); err != nil {
				return err
			}
		}
	}
}

// maxBody bounds the text kept from a $comment, $date or $version body;
// the rest is read and dropped.
const maxBody = 64 << 10

// body collects the tokens up to $end, joined by single spaces.
func (r *Reader) body(line int, cmd string) (string, error) {
	var b strings.Builder
	for {
		tok, err := r.token()
		if err != nil {
			return "", err
		}
		if tok == nil {
			return "", r.errf(line, "%s is not closed by $end", cmd)
		}
		if string(tok) == "$end" {
			return b.String(), nil
		}
		if b.Len() >= maxBody {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.Write(tok)
	}
}

// words reads the tokens of a declaration up to $end.
func (r *Reader) words(line int, cmd string, max int) ([]string, error) {
	var w []string
	for {
		tok, err := r.token()
		if err != nil {
			return nil, err
		}
		if tok == nil {
			return nil, r.errf(line, "%s is not closed by $end", cmd)
		}
		if string(tok) == "$end" {
			return w, nil
		}
		if isKeyword(tok) {
			return nil, r.errf(r.sc.tok, "%s is not closed by $end before %q", cmd, clip(tok))
		}
		if len(w) == max {
			return nil, r.errf(r.sc.tok, "too many words in %s", cmd)
		}
		w = append(w, string(tok))
	}
}

func (r *Reader) expectEnd(line int, cmd string) error {
	_, err := r.words(line, cmd, 0)
	return err
}

func (r *Reader) parseScope(line int, parent *Scope) (*Scope, error) {
	w, err := r.words(line, "$scope", 2)
	if err != nil {
		return nil, err
	}
	if len(w) != 2 {
		return nil, r.errf(line, "$scope needs a type and a name")
	}
	siblings := &r.h.Scopes
	if parent != nil {
		siblings = &parent.Scopes
	}
	for _, s := range *siblings {
		if s.Name == w[1] {
			return s, nil
		}
	}
	s := &Scope{Type: ParseScopeType(w[0]), TypeName: w[0], Name: w[1], Parent: parent, Line: line}
	s.fullName = s.Name
	if parent != nil {
		s.fullName = parent.fullName + "." + s.Name
	}
	*siblings = append(*siblings, s)
	return s, nil
}

func (r *Reader) parseVar(line int, scope *Scope) error {
	w, err := r.words(line, "$var", 6)
	if err != nil {
		return err
	}
	if len(w) < 4 {
		return r.errf(line, "$var needs a type, a size, an identifier code and a reference")
	}
	width, ok := atoiSigned(w[1])
	if !ok || width <= 0 || width > maxWidth || w[1][0] == '+' || w[1][0] == '-' {
		return r.errf(line, "bad $var size %q", w[1])
	}
	v := &Var{Type: ParseVarType(w[0]), TypeName: w[0], Width: width, Code: w[2], Scope: scope, Line: line}
	v.Name = w[3]
	if len(w) > 4 {
		v.Range = strings.Join(w[4:], "")
		if v.Range[0] != '[' {
			return r.errf(line, "unexpected %q after the $var reference", clip([]byte(w[4])))
		}
	} else {
		v.Name, v.Range = splitRange(v.Name)
	}
	v.fullName = v.Name
	if scope != nil {
		v.fullName = scope.fullName + "." + v.Name
		scope.Vars = append(scope.Vars, v)
	}
	sig := r.h.byCode[v.Code]
	if sig == nil {
		sig = &Signal{Code: v.Code, Width: width, Real: v.Type.IsReal(), Index: len(r.h.Signals)}
		if sig.Real {
			sig.val.kind = ValueReal
		}
		r.h.Signals = append(r.h.Signals, sig)
		r.h.byCode[v.Code] = sig
		r.addFast(sig)
	} else if sig.Width != width && !sig.Real && !v.Type.IsReal() {
		return r.errf(line, "identifier code %q declared with size %d, earlier with %d", v.Code, width, sig.Width)
	}
	v.Signal = sig
	sig.Vars = append(sig.Vars, v)
	r.h.Vars = append(r.h.Vars, v)
	r.h.byName[v.fullName] = append(r.h.byName[v.fullName], v)
	return nil
}

// keywords are the commands of IEEE 1364-2005 section 18.2. Identifier
// codes may start with '$', so only these words end a declaration early.
var keywords = map[string]bool{
	"$comment": true, "$date": true, "$enddefinitions": true, "$scope": true,
	"$timescale": true, "$upscope": true, "$var": true, "$version": true,
	"$dumpall": true, "$dumpoff": true, "$dumpon": true, "$dumpvars": true,
}

func isKeyword(tok []byte) bool { return len(tok) > 1 && tok[0] == '$' && keywords[string(tok)] }

// clip shortens a token for an error message.
func clip(tok []byte) string {
	if len(tok) > 40 {
		return string(tok[:40]) + "..."
	}
	return string(tok)
}

func (r *Reader) errf(line int, format string, args ...any) error {
	return &SyntaxError{Name: r.name, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// token reads the next token, turning read errors into errors with a line.
func (r *Reader) token() ([]byte, error) {
	tok, err := r.sc.next()
	if err != nil {
		if err == errTokenTooLong {
			return nil, r.errf(r.sc.line, "token longer than %d bytes", r.sc.maxTok)
		}
		return nil, fmt.Errorf("vcd: line %d: %w", r.sc.line, err)
	}
	return tok, nil
}
