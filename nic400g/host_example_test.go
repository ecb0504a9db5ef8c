package nic400g_test

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/nic400g"
)

// The host-side stages of a 64-byte RDMA WRITE on the default Gen5 x16
// link: the doorbell with its two-block inline WQE on the sender, the
// data and CQE writes on the receiver (FACTS 6.2).
func ExampleHostTxBudget() {
	pc, hc := nic400g.DefaultPCIeConfig(), nic400g.DefaultHostConfig()
	tx, _ := nic400g.HostTxBudget(pc, hc, 128, 0)
	rx, _ := nic400g.HostRxBudget(pc, hc, 64)
	for _, r := range append(tx, rx...).Rows() {
		fmt.Printf("%-36s %9s ns\n", r[0], r[4])
	}
	miss, _ := nic400g.HostQPCMissLatency(pc, hc)
	fmt.Println("QP context miss:", miss)
	// Output:
	// host: doorbell + inline WQE (MMIO)     167.792 ns
	// host: RX data DMA write                126.396 ns
	// host: CQE write until visible           31.396 ns
	// total                                  325.584 ns
	// QP context miss: 654.76ns
}

// Effective PCIe Gen5 x16 rates per direction (FACTS 5.2).
func ExamplePCIeConfig_WritePayloadRate() {
	c := nic400g.DefaultPCIeConfig()
	gb := func(bps float64) float64 { return bps / 8e9 }
	fmt.Printf("raw %.1f GB/s, MPS 256 %.1f GB/s, MPS 512 %.1f GB/s\n",
		gb(c.RawRate().BitsPerSecond().Float64()),
		gb(c.WritePayloadRate(256).BitsPerSecond().Float64()),
		gb(c.WritePayloadRate(512).BitsPerSecond().Float64()))
	// Output:
	// raw 63.0 GB/s, MPS 256 57.6 GB/s, MPS 512 60.2 GB/s
}
