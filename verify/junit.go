package verify

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"`
}

// WriteJUnit writes the result as JUnit XML: one suite named after the
// block with one test case named name (usually the VCD file), failed with
// the divergence report when the trace diverged.
func (r *Result) WriteJUnit(w io.Writer, name string) error {
	c := junitCase{Name: name, Classname: "verify." + r.Block}
	var text strings.Builder
	if err := r.WriteText(&text); err != nil {
		return err
	}
	if d := r.Divergence; d != nil {
		c.Failure = &junitFailure{Message: r.Summary(), Type: d.Kind, Body: text.String()}
	} else {
		c.SystemOut = text.String()
	}
	s := junitSuites{Suites: []junitSuite{{Name: "verify." + r.Block, Tests: 1, Cases: []junitCase{c}}}}
	if c.Failure != nil {
		s.Suites[0].Failures = 1
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(s); err != nil {
		return fmt.Errorf("junit: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}
