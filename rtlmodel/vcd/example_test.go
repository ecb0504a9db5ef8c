package vcd_test

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fabricmodel/fabricmodel/rtlmodel/vcd"
)

func ExampleWriter() {
	w, err := vcd.NewWriter(os.Stdout, vcd.WriterOptions{Timescale: vcd.Timescale{Magnitude: 1, Unit: vcd.Nanosecond}})
	if err != nil {
		panic(err)
	}
	_ = w.PushScope(vcd.ScopeModule, "top")
	clk, _ := w.Declare(vcd.VarWire, 1, "clk")
	data, _ := w.Declare(vcd.VarReg, 8, "data")
	_ = w.PopScope()
	_ = w.SetUint64(clk, 0)
	_ = w.Time(0)
	for t := uint64(1); t <= 2; t++ {
		_ = w.Time(t * 5)
		_ = w.SetUint64(clk, t&1)
		_ = w.SetUint64(data, t*3)
	}
	_ = w.SetBits(data, "zz")
	if err := w.Close(); err != nil {
		panic(err)
	}
	// Output:
	// $version
	// 	fabricmodel rtlmodel/vcd
	// $end
	// $timescale 1ns $end
	// $scope module top $end
	// $var wire 1 ! clk $end
	// $var reg 8 " data [7:0] $end
	// $upscope $end
	// $enddefinitions $end
	// #0
	// $dumpvars
	// 0!
	// bx "
	// $end
	// #5
	// 1!
	// b11 "
	// #10
	// 0!
	// b110 "
	// bz "
}

func ExampleReader() {
	const file = `$timescale 1ps $end
$scope module tb $end
$var wire 4 ! nib [3:0] $end
$scope begin crc[0] $end
$var reg 1 " st $end
$upscope $end
$upscope $end
$enddefinitions $end
#0
$dumpvars
b1 !
x"
$end
#10
b1x !
1"
`
	rd, err := vcd.NewReader(strings.NewReader(file))
	if err != nil {
		panic(err)
	}
	for _, v := range rd.Header().Vars {
		fmt.Printf("%s %d bits, code %s\n", v.FullName(), v.Width, v.Code)
	}
	for {
		ev, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			panic(err)
		}
		if ev.Kind == vcd.EventChange {
			u, known := ev.Value.Uint64()
			fmt.Printf("t=%d %s=%s known=%v %d\n", ev.Time, ev.Signal.Vars[0].FullName(), ev.Value, known, u)
		}
	}
	// Output:
	// tb.nib 4 bits, code !
	// tb.crc[0].st 1 bits, code "
	// t=0 tb.nib=0001 known=true 1
	// t=0 tb.crc[0].st=x known=false 0
	// t=10 tb.nib=001x known=false 0
	// t=10 tb.crc[0].st=1 known=true 1
}
