package packet_test

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/packet"
)

// The lean native framing and RoCEv2 over IPv4 at 400 Gb/s and 4 KB
// payloads (FACTS 1.4).
func ExampleStack_Goodput() {
	for _, s := range []packet.Stack{packet.StackRoCEv2IPv4, packet.StackNativeIB} {
		exact, f := s.Goodput(400e9, 4096)
		fmt.Printf("%s: %d B overhead, %s b/s = %.1f Gb/s\n", s.Name, s.Overhead(), exact.RatString(), f/1e9)
	}
	// Output:
	// RoCEv2/IPv4: 82 B overhead, 819200000000000/2089 b/s = 392.1 Gb/s
	// native IB: 26 B overhead, 819200000000000/2061 b/s = 397.5 Gb/s
}

// Build an RDMA WRITE FIRST frame and parse it back.
func ExampleBuildRoCEv2Write() {
	f := packet.RoCEv2{
		Eth: packet.Ethernet{EtherType: packet.EtherTypeIPv4},
		IP4: packet.IPv4{IHL: 5, TTL: 64, Src: [4]byte{10, 0, 0, 1}, Dst: [4]byte{10, 0, 0, 2}},
		UDP: packet.UDP{SrcPort: 0xC000},
		Transport: packet.Transport{
			BTH:  packet.BTH{OpCode: packet.RCWriteFirst, PKey: packet.DefaultPKey, DestQP: 0x11, PSN: 7},
			RETH: packet.RETH{VA: 0x1000, RKey: 0x42, DMALen: 8192},
		},
	}
	buf := make([]byte, 4200)
	n, err := packet.BuildRoCEv2Write(buf, &f, make([]byte, 4096))
	if err != nil {
		panic(err)
	}
	var g packet.RoCEv2
	if err := g.Decode(buf[:n]); err != nil {
		panic(err)
	}
	fmt.Println(n, g.BTH.OpCode, g.RETH.DMALen, g.PayloadOff, g.PayloadLen, g.ICRCOff)
	// Output: 4174 RC_RDMA_WRITE_FIRST 8192 70 4096 4166
}
