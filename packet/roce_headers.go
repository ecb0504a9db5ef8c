package packet

// DecodeHeaders parses a RoCEv2 frame of frameLen bytes (first Ethernet
// byte to FCS) from b, which holds at least its headers: the payload may
// be elided, as the models carry payload lengths rather than bytes
// (ARCHITECTURE "Fidelity"). Length fields are checked against frameLen
// instead of len(b); everything else is checked as Decode checks it, and
// PayloadOff, PayloadLen and ICRCOff are offsets in the full frame.
func (f *RoCEv2) DecodeHeaders(b []byte, frameLen int) error {
	off, ipEnd, err := decodeIPUDPIn(b, frameLen, &f.Eth, &f.IP4, &f.IP6, &f.UDP, RoCEv2Port)
	if err != nil {
		return err
	}
	if ipEnd-off < BTHLen+wireICRC || (ipEnd-off)%4 != 0 {
		return badField("UDP", "Length", BadLength, uint64(f.UDP.Length))
	}
	icrc := ipEnd - wireICRC
	if err := f.Transport.Decode(b[off:min(icrc, len(b))]); err != nil {
		return err
	}
	off += f.Transport.Len()
	pay := icrc - off - int(f.BTH.PadCnt)
	if pay < 0 {
		return badField("BTH", "PadCnt", BadLength, uint64(f.BTH.PadCnt))
	}
	f.PayloadOff, f.PayloadLen, f.ICRCOff = off, pay, icrc
	return nil
}
