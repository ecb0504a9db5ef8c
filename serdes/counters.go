package serdes

// FECCounters count what one receive path did with its codewords. The
// decoder's own view (corrected symbols and bits, uncorrectable codewords)
// is what hardware reports; the injected and residual counts are the
// model's ground truth, known because it also holds what was sent.
type FECCounters struct {
	// Codewords is the number of codewords received.
	Codewords uint64
	// CorrectedCodewords counts codewords with errors that were corrected.
	CorrectedCodewords uint64
	// UncorrectableCodewords counts codewords flagged uncorrectable.
	UncorrectableCodewords uint64
	// CorrectedSymbols counts symbols the decoder corrected.
	CorrectedSymbols uint64
	// CorrectedBits counts bits the decoder flipped back.
	CorrectedBits uint64

	// LineBits counts codeword bits received (5440 per codeword).
	LineBits uint64
	// InjectedBitErrors counts bits flipped on the line (truth).
	InjectedBitErrors uint64
	// InjectedSymbolErrors counts symbols that arrived wrong (truth).
	InjectedSymbolErrors uint64
	// MessageBits counts message bits delivered (5140 per codeword).
	MessageBits uint64
	// ResidualBitErrors counts message bits still wrong after decoding
	// (truth).
	ResidualBitErrors uint64
	// ErroredCodewords counts codewords the receiver lost: flagged
	// uncorrectable (their frames fail FCS) or delivered with a wrong
	// message (truth). This is the post-FEC codeword error count the
	// binomial formula predicts.
	ErroredCodewords uint64
	// MiscorrectedCodewords counts codewords the decoder called clean or
	// corrected whose message is wrong (truth).
	MiscorrectedCodewords uint64
}

// Add accumulates o into c (to merge shards of a run).
func (c *FECCounters) Add(o FECCounters) {
	c.Codewords += o.Codewords
	c.CorrectedCodewords += o.CorrectedCodewords
	c.UncorrectableCodewords += o.UncorrectableCodewords
	c.CorrectedSymbols += o.CorrectedSymbols
	c.CorrectedBits += o.CorrectedBits
	c.LineBits += o.LineBits
	c.InjectedBitErrors += o.InjectedBitErrors
	c.InjectedSymbolErrors += o.InjectedSymbolErrors
	c.MessageBits += o.MessageBits
	c.ResidualBitErrors += o.ResidualBitErrors
	c.ErroredCodewords += o.ErroredCodewords
	c.MiscorrectedCodewords += o.MiscorrectedCodewords
}

func ratio(a, b uint64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// PreFECBER returns the bit error ratio on the line (truth).
func (c *FECCounters) PreFECBER() float64 { return ratio(c.InjectedBitErrors, c.LineBits) }

// ObservedPreFECBER returns the pre-FEC BER as a receiver estimates it,
// corrected bits over bits received; it undercounts once codewords become
// uncorrectable.
func (c *FECCounters) ObservedPreFECBER() float64 { return ratio(c.CorrectedBits, c.LineBits) }

// PostFECBER returns the bit error ratio of delivered message bits (truth).
func (c *FECCounters) PostFECBER() float64 { return ratio(c.ResidualBitErrors, c.MessageBits) }

// CodewordErrorRatio returns the fraction of codewords delivered wrong
// (truth), the post-FEC codeword error ratio.
func (c *FECCounters) CodewordErrorRatio() float64 { return ratio(c.ErroredCodewords, c.Codewords) }

// HighSERWindow is the window of the FEC degradation (hi-SER) alarm,
// 8192 codewords. FACTS 3 [R24].
const HighSERWindow = 8192

// HighSERThresholdRS544 is the hi-SER threshold for RS(544,514): the alarm
// is raised when more than 6380 symbol errors are counted in one window.
// FACTS 3 [R24] (417 for RS(528,514)).
const HighSERThresholdRS544 = 6380

// HighSERThresholdRS528 is the hi-SER threshold for RS(528,514). FACTS 3 [R24].
const HighSERThresholdRS528 = 417

// HighSERMonitor raises the FEC degradation alarm: symbol errors are summed
// over consecutive, non-overlapping windows of Window codewords, and the
// alarm state after each window is whether that window's sum exceeded
// Threshold. FACTS 3 [R24]. An uncorrectable codeword counts t+1 symbol
// errors, the fewest it can hold (tag E: the receiver cannot know more).
type HighSERMonitor struct {
	// Window is the window length in codewords.
	Window uint64
	// Threshold is the symbol error count the window must exceed.
	Threshold uint64

	inWindow, errs uint64
	alarm          bool
	windows        uint64
	alarmWindows   uint64
}

// NewHighSERMonitor returns the RS(544,514) monitor: 6380 symbol errors in
// 8192 codewords. FACTS 3 [R24].
func NewHighSERMonitor() *HighSERMonitor {
	return &HighSERMonitor{Window: HighSERWindow, Threshold: HighSERThresholdRS544}
}

// Observe records one decoded codeword.
func (m *HighSERMonitor) Observe(r DecodeResult) {
	switch r.Status {
	case DecodeCorrected:
		m.errs += uint64(r.Symbols)
	case DecodeUncorrectable:
		m.errs += RS544T + 1
	}
	m.inWindow++
	if m.inWindow == m.Window {
		m.alarm = m.errs > m.Threshold
		m.windows++
		if m.alarm {
			m.alarmWindows++
		}
		m.inWindow, m.errs = 0, 0
	}
}

// Alarm reports whether the last complete window raised the alarm.
func (m *HighSERMonitor) Alarm() bool { return m.alarm }

// Windows returns the number of complete windows.
func (m *HighSERMonitor) Windows() uint64 { return m.windows }

// AlarmWindows returns the number of windows that raised the alarm.
func (m *HighSERMonitor) AlarmWindows() uint64 { return m.alarmWindows }
