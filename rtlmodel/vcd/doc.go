// Package vcd writes and reads Value Change Dump files as defined by
// IEEE 1364-2005 section 18 (the four-state VCD format).
//
// # Writing
//
// A [Writer] emits a header ($version, optional $date, $timescale), nested
// scopes and variables, then value changes grouped under #time markers.
// Identifier codes are short printable strings assigned deterministically in
// declaration order, and $date is left out unless asked for, so the same
// calls always produce the same bytes. Values up to 64 bits take a uint64
// path that does not allocate; wider vectors and values holding x or z go
// through [Writer.SetBits]; reals through [Writer.SetReal]. A change is
// written only when the value differs from the last one written.
//
//	w, err := vcd.NewWriter(f, vcd.WriterOptions{Timescale: vcd.Timescale{Magnitude: 1, Unit: vcd.Picosecond}})
//	_ = w.PushScope(vcd.ScopeModule, "top")
//	clk, _ := w.Declare(vcd.VarWire, 1, "clk")
//	data, _ := w.Declare(vcd.VarReg, 32, "data")
//	_ = w.PopScope()
//	_ = w.Time(0)
//	_ = w.SetUint64(clk, 1)
//	_ = w.SetUint64(data, 0xdead)
//	err = w.Close()
//
// # Reading
//
// A [Reader] streams a file of any size in memory bounded by the number of
// signals and the longest token, never by the number of changes. [NewReader]
// parses the definitions into a [Header]: the scope tree (module, task,
// function, begin, fork and the common extensions), every variable with its
// full hierarchical name, width and identifier code, and one [Signal] per
// identifier code, shared by all the names that alias it. [Reader.Next] then
// returns one [Event] at a time: a new time, a value change, or the start and
// end of a $dumpvars, $dumpoff, $dumpon or $dumpall section.
//
// The reader accepts what simulators really write: scope names such as
// crc[0] (Verilog generate blocks) and gen(0) (GHDL), references with a
// bit-select written apart ("data [7:0]") or attached ("data[7:0]"), upper
// case X and Z, the nine-valued characters U W L H and - that VHDL tools
// emit, vectors shorter than their signal (extended on the left as the
// standard says: 0, x and z extend with themselves, 1 extends with 0), real
// (r) and string (s) values, $comment, $date and $version bodies, any
// timescale, and unknown $keyword ... $end sections, which are skipped.
// Malformed input yields a [*SyntaxError] carrying the line number.
package vcd
