package fabric

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// resultsDigest is the SHA-256 of the results as `fabricmodel run --json`
// writes them, so that a test can pin a run's every figure to the output
// of that command (`sha256sum` of its file).
func resultsDigest(t *testing.T, res *Results) string {
	b, err := json.MarshalIndent(res, "", " ")
	require.NoError(t, err)
	sum := sha256.Sum256(append(b, '\n'))
	return hex.EncodeToString(sum[:])
}

// runFile runs a scenario file to completion as `fabricmodel run` does.
func runFile(t *testing.T, file string) *Results {
	s, err := LoadScenario(file)
	require.NoError(t, err)
	r, err := NewRun(s)
	require.NoError(t, err)
	require.NoError(t, r.Complete(context.Background(), 10*rtlmodel.Microsecond, 0, nil))
	return r.Results()
}

// The experiments of docs/experiments.md give, figure for figure, the
// results written there: their JSON is pinned. Speed work must leave it
// as it is. A change of the model that moves a result on purpose updates
// docs/experiments.md and these digests, from
// `fabricmodel run --json F docs/scenarios/NAME.yaml; sha256sum F`.
func TestExperimentResultsArePinned(t *testing.T) {
	pinned := []struct{ name, digest string }{
		{"exp1_permutation_dlb", "595cae8cc60b67b7b4797147062d325e9ca9a3759951f1757c804a64c9294e56"},
		{"exp1_permutation_ecmp", "ec7b7c9222d36a8fe34c841a65950a5c1b6670c1c8e7f77e3bc4efaac5a5c9e1"},
		{"exp1_permutation_spray", "b38c5655a57f8186866a88ea767e61ca13d7a5582d091e3c378e8eeabb90096a"},
		{"exp2_incast_dcqcn", "b6288b845607210b9515e7f2a79f6014964a6c6f4e116092b1264454c432d080"},
		{"exp2_incast_eqds", "7ef4e540f3636d14134245301ea52396abb0732f03f9cf2b9d08d0aa906805cb"},
		{"exp3_lossless_pfc_dcqcn", "d6966ef7e354fc52d93e9ee79390e519ec256f494e8749b5ff0bde44eb4522c2"},
		{"exp3_lossy_trimming", "1126b2797dd70ad470af8afb9094b9011115b3496c48bc1b65bcace528bcba4e"},
		{"exp4_degraded_pathaware", "d22bbef5158c01bde551811db38169970301b60fb06fa621a9cbb487a2e2ce9a"},
		{"exp4_degraded_pathaware_roce", "163d8bc327fdb6fbba12768be163cabc223e3014793f3900d9a0d9f676029849"},
		{"exp4_degraded_spray", "6f72a79a274ab731adbee29ee629ddc7e648384e2d1268be0d8e873cbeff40d1"},
		{"exp4_degraded_spray_roce", "27d0c6ce3ef68a675a89edae534334eddaafcde3f1f038855c7824a306460e67"},
	}
	for _, p := range pinned {
		t.Run(p.name, func(t *testing.T) {
			res := runFile(t, "../docs/scenarios/"+p.name+".yaml")
			require.Equal(t, p.digest, resultsDigest(t, res), "the results of %s changed", p.name)
		})
	}
}
