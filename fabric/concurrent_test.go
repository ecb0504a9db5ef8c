package fabric

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// Simulations in concurrent goroutines share no state: each of four runs
// at once (the default scenario and an EQDS ring all-reduce, twice each,
// as `fabricmodel explore` runs its points) gives the JSON the same
// scenario gives alone. Run it with -race to check the kernel and models
// for shared writes (a package-level read-ahead sink was one).
func TestConcurrentRunsShareNothing(t *testing.T) {
	scenarios := []func(s *Scenario){
		func(s *Scenario) { s.Workload.Bytes = 256 << 10 },
		func(s *Scenario) {
			s.Topology.Leaves, s.Topology.Spines, s.Topology.HostsPerLeaf = 2, 2, 4
			s.NIC.CC = "eqds"
			s.Workload.Kind, s.Workload.Bytes = "ring_allreduce", 128<<10
		},
	}
	// encode runs without require: it is called from other goroutines
	encode := func(change func(*Scenario)) (string, error) {
		s, err := DefaultScenario()
		if err != nil {
			return "", err
		}
		change(s)
		r, err := NewRun(s)
		if err != nil {
			return "", err
		}
		if err := r.Complete(context.Background(), 10*rtlmodel.Microsecond, 2*rtlmodel.Millisecond, nil); err != nil {
			return "", err
		}
		if r.Done() != len(r.Flows) {
			return "", fmt.Errorf("%d of %d flows complete", r.Done(), len(r.Flows))
		}
		var b bytes.Buffer
		err = json.NewEncoder(&b).Encode(r.Results())
		return b.String(), err
	}
	alone := make([]string, len(scenarios))
	for i, c := range scenarios {
		var err error
		alone[i], err = encode(c)
		require.NoError(t, err)
	}
	got := make([]string, 2*len(scenarios))
	errs := make([]error, len(got))
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = encode(scenarios[i%len(scenarios)])
		}()
	}
	wg.Wait()
	for i, g := range got {
		require.NoError(t, errs[i], "run %d", i)
		require.Equal(t, alone[i%len(scenarios)], g, "run %d", i)
	}
}
