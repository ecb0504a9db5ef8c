package packet

// IBPacket is one native InfiniBand packet: LRH, an optional GRH (LNH 3),
// the BTH and its extension headers, payload, pad, ICRC and VCRC
// (FACTS 1.2 [R6b][R79][R81]). This is the lean framing of FACTS 1.4.
type IBPacket struct {
	LRH LRH
	GRH GRH // used when LRH.LNH is LNHGRH
	Transport

	// Set by Decode and Build, offsets into the packet.
	PayloadOff int // first payload byte
	PayloadLen int // payload bytes, without pad
	ICRCOff    int // first ICRC byte; the VCRC follows the ICRC
}

// HasGRH reports whether a GRH follows the LRH.
func (p *IBPacket) HasGRH() bool { return p.LRH.LNH == LNHGRH }

// VCRCOff is the offset of the 2-byte VCRC.
func (p *IBPacket) VCRCOff() int { return p.ICRCOff + wireICRC }

// End is the offset just past the VCRC.
func (p *IBPacket) End() int { return p.VCRCOff() + wireVCRC }

// Decode parses a native IB packet from its first LRH byte. LRH.PktLen
// bounds the packet, which must leave room for the 2-byte VCRC in b; LNH
// must be BTH or GRH, and a GRH must announce a BTH (NxtHdr 0x1B).
func (p *IBPacket) Decode(b []byte) error {
	if err := p.LRH.Decode(b); err != nil {
		return err
	}
	end := int(p.LRH.PktLen) * 4
	if len(b) < end+wireVCRC {
		return truncated("IB", "VCRC", end+wireVCRC, len(b))
	}
	off := LRHLen
	switch p.LRH.LNH {
	case LNHBTH:
	case LNHGRH:
		if err := p.GRH.Decode(b[off:end]); err != nil {
			return err
		}
		if p.GRH.NxtHdr != GRHNextHdrBTH {
			return badField("GRH", "NxtHdr", BadValue, uint64(p.GRH.NxtHdr))
		}
		off += GRHLen
		if int(p.GRH.PayLen) != end-off {
			return badField("GRH", "PayLen", BadLength, uint64(p.GRH.PayLen))
		}
	default:
		return badField("LRH", "LNH", BadValue, uint64(p.LRH.LNH))
	}
	if end-off < BTHLen+wireICRC {
		return badField("LRH", "PktLen", BadLength, uint64(p.LRH.PktLen))
	}
	icrc := end - wireICRC
	if err := p.Transport.Decode(b[off:icrc]); err != nil {
		return err
	}
	off += p.Transport.Len()
	pay := icrc - off - int(p.BTH.PadCnt)
	if pay < 0 {
		return badField("BTH", "PadCnt", BadLength, uint64(p.BTH.PadCnt))
	}
	p.PayloadOff, p.PayloadLen, p.ICRCOff = off, pay, icrc
	return nil
}

// Build writes a complete packet for payload into b and returns its length,
// VCRC included. It fills in, and stores into p: BTH.PadCnt, LRH.PktLen,
// GRH.PayLen and GRH.NxtHdr when a GRH is present, and the offsets. Pad
// bytes are zero; the ICRC and VCRC are left as zero bytes to be filled.
func (p *IBPacket) Build(b []byte, payload []byte) (int, error) {
	pad := -len(payload) & 3
	p.BTH.PadCnt = uint8(pad)
	hdr := LRHLen
	if p.HasGRH() {
		hdr += GRHLen
	} else if p.LRH.LNH != LNHBTH {
		return 0, badField("LRH", "LNH", BadValue, uint64(p.LRH.LNH))
	}
	end := hdr + p.Transport.Len() + len(payload) + pad + wireICRC
	if end/4 > 0x7FF {
		return 0, badField("LRH", "PktLen", BadLength, uint64(end/4))
	}
	p.LRH.PktLen = uint16(end / 4)
	total := end + wireVCRC
	if len(b) < total {
		return 0, short("IB", total, len(b))
	}
	off, err := p.LRH.Encode(b)
	if err != nil {
		return 0, err
	}
	if p.HasGRH() {
		p.GRH.PayLen = uint16(end - hdr)
		p.GRH.NxtHdr = GRHNextHdrBTH
		if _, err := p.GRH.Encode(b[off:]); err != nil {
			return 0, err
		}
		off += GRHLen
	}
	k, err := p.Transport.Encode(b[off:])
	if err != nil {
		return 0, err
	}
	off += k
	p.PayloadOff, p.PayloadLen = off, len(payload)
	off += copy(b[off:], payload)
	p.ICRCOff = off + pad
	clear(b[off:total])
	return total, nil
}
