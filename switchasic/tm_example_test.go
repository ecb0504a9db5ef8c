package switchasic

import "fmt"

// A datapath admits each packet, queues it by the verdict's Class and
// Bytes, and releases it with the same values when it leaves.
func ExampleTrafficManager() {
	cfg := DefaultTMConfig(128)
	cfg.PFC.Enabled[3] = true // RoCE traffic lossless in class 3
	cfg.Trim.Enabled = true   // lossy overflow of class 0 trimmed to 64 B in class 7
	tm, err := NewTrafficManager(cfg, 1)
	if err != nil {
		panic(err)
	}
	xoff, xon, headroom := tm.PFCThresholds()
	fmt.Println("cells:", tm.FreeCells(), "headroom reserve:", tm.Buffer().HeadroomCells())
	fmt.Println("xoff/xon/headroom bytes:", xoff, xon, headroom)

	v := tm.Admit(0, 5, 3, 4200, true)
	fmt.Println(v.Action, v.Class, v.Bytes, v.Cells, v.MarkCE, v.PFCXoff)
	fmt.Println("queue (5,3):", tm.QueueBytes(5, 3), "ingress (0,3):", tm.IngressBytes(0, 3))
	xonDue := tm.Release(0, 5, v.Class, v.Bytes)
	fmt.Println("after release:", tm.UsedCells(), xonDue)
	// Output:
	// cells: 682160 headroom reserve: 110080
	// xoff/xon/headroom bytes: 250000 245800 218224
	// enqueue 3 4200 17 false false
	// queue (5,3): 4200 ingress (0,3): 4200
	// after release: 0 false
}

// Headroom at 400G with a 4200 B MTU by both FACTS 2.7 formulas.
func ExampleHeadroomMLX5Bytes() {
	for _, m := range []int{3, 10, 100} {
		cisco, _ := HeadroomBytes(400, m, 4200)
		mlx5, _ := HeadroomMLX5Bytes(400, m, 4200)
		fmt.Printf("%3d m: component %d B, mlx5 %d B\n", m, cisco, mlx5)
	}
	q, _ := PauseQuantum(400)
	fmt.Println("pause quantum at 400G:", q)
	// Output:
	//   3 m: component 67820 B, mlx5 134224 B
	//  10 m: component 71320 B, mlx5 140224 B
	// 100 m: component 116320 B, mlx5 218224 B
	// pause quantum at 400G: 1.28ns
}
