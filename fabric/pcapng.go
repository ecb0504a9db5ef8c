package fabric

import (
	"bufio"
	"encoding/binary"
	"io"
)

// pcapngWriter writes the pcapng format (the capture format of Wireshark
// and tcpdump; IETF draft-ietf-opsawg-pcapng) as little-endian blocks: a
// section header, interface descriptions of Ethernet links with
// nanosecond times, and enhanced packet blocks. It is small and written
// here rather than imported: gopacket's pcapgo writes the same blocks
// (its reader checks these in the tests), but its decoders' start-up
// took about 7 MiB of every run's memory.
type pcapngWriter struct {
	w   *bufio.Writer
	n   int64 // bytes of the blocks written
	err error
}

// pcapng block types and option codes.
const (
	pcapngSectionHeader  = 0x0A0D0D0A
	pcapngInterface      = 0x00000001
	pcapngEnhancedPacket = 0x00000006
	pcapngByteOrder      = 0x1A2B3C4D
	pcapngOptEnd         = 0
	pcapngOptUserAppl    = 4 // shb_userappl
	pcapngOptIfName      = 2 // if_name
	pcapngOptIfTsresol   = 9 // if_tsresol
	pcapngLinkEthernet   = 1 // LINKTYPE_ETHERNET
)

// newPcapngWriter starts a section written by app.
func newPcapngWriter(w io.Writer, app string) *pcapngWriter {
	p := &pcapngWriter{w: bufio.NewWriterSize(w, 1<<16)}
	body := []byte{}
	body = binary.LittleEndian.AppendUint32(body, pcapngByteOrder)
	body = binary.LittleEndian.AppendUint16(body, 1) // version 1.0
	body = binary.LittleEndian.AppendUint16(body, 0)
	body = binary.LittleEndian.AppendUint64(body, ^uint64(0)) // section length not given
	body = pcapngOption(body, pcapngOptUserAppl, []byte(app))
	body = pcapngOption(body, pcapngOptEnd, nil)
	p.block(pcapngSectionHeader, body)
	return p
}

// addInterface describes the next interface: an Ethernet link named name
// whose times count nanoseconds.
func (p *pcapngWriter) addInterface(name string) {
	body := []byte{}
	body = binary.LittleEndian.AppendUint16(body, pcapngLinkEthernet)
	body = binary.LittleEndian.AppendUint16(body, 0)
	body = binary.LittleEndian.AppendUint32(body, 0) // no snap length
	body = pcapngOption(body, pcapngOptIfName, []byte(name))
	body = pcapngOption(body, pcapngOptIfTsresol, []byte{9}) // 10^-9 s
	body = pcapngOption(body, pcapngOptEnd, nil)
	p.block(pcapngInterface, body)
}

// packet writes frame, whole, seen on interface intf at ns nanoseconds.
func (p *pcapngWriter) packet(intf int, ns uint64, frame []byte) {
	body := make([]byte, 0, 20+len(frame)+3)
	body = binary.LittleEndian.AppendUint32(body, uint32(intf))
	body = binary.LittleEndian.AppendUint32(body, uint32(ns>>32))
	body = binary.LittleEndian.AppendUint32(body, uint32(ns))
	body = binary.LittleEndian.AppendUint32(body, uint32(len(frame)))
	body = binary.LittleEndian.AppendUint32(body, uint32(len(frame)))
	body = append(body, frame...)
	body = append(body, make([]byte, -len(frame)&3)...)
	p.block(pcapngEnhancedPacket, body)
}

// block writes one block: its type, its total length before and after
// the body.
func (p *pcapngWriter) block(typ uint32, body []byte) {
	if p.err != nil {
		return
	}
	var head [8]byte
	n := uint32(12 + len(body))
	binary.LittleEndian.PutUint32(head[0:], typ)
	binary.LittleEndian.PutUint32(head[4:], n)
	_, p.err = p.w.Write(head[:])
	if p.err == nil {
		_, p.err = p.w.Write(body)
	}
	if p.err == nil {
		_, p.err = p.w.Write(head[4:8])
	}
	if p.err == nil {
		p.n += int64(n)
	}
}

// flush writes what is buffered and returns the first error; n then
// counts the bytes the underlying writer took, short of an error.
func (p *pcapngWriter) flush() error {
	if p.err == nil {
		p.err = p.w.Flush()
	}
	return p.err
}

// pcapngOption appends an option: its code, its length, its value padded
// to 32 bits.
func pcapngOption(b []byte, code uint16, v []byte) []byte {
	b = binary.LittleEndian.AppendUint16(b, code)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(v)))
	b = append(b, v...)
	return append(b, make([]byte, -len(v)&3)...)
}
