package fabric

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Settings written over a scenario give the scenario of the file edited
// by hand, a key replaced or added at any depth, and the results name
// them; none is ParseScenario itself.
func TestSettingsEqualTheFileEdited(t *testing.T) {
	base := scenarioBase + "nic:\n  cc: dcqcn\n" + scenarioWorkload
	edited := scenarioBase + "nic:\n  cc: hpcc\n  mtu: 1024\nswitch:\n  pfc_classes: [0, 3]\n" +
		"workload:\n  kind: permutation\n  bytes: 65536\n"
	var settings []Setting
	for _, text := range []string{"nic.cc=hpcc", "nic.mtu=1024", "switch.pfc_classes=[0, 3]", "workload.bytes=65536"} {
		st, err := ParseSetting(text)
		require.NoError(t, err)
		require.Equal(t, text, st.String())
		settings = append(settings, st)
	}
	got, err := ParseScenarioWith("s.yaml", []byte(base), settings)
	require.NoError(t, err)
	want, err := ParseScenario("s.yaml", []byte(edited))
	require.NoError(t, err)
	require.Equal(t, []string{"nic.cc=hpcc", "nic.mtu=1024", "switch.pfc_classes=[0, 3]", "workload.bytes=65536"}, got.Settings())
	got.src, got.settings, want.src = nil, nil, nil
	require.Equal(t, want, got)

	plain, err := ParseScenarioWith("s.yaml", []byte(base), nil)
	require.NoError(t, err)
	require.Empty(t, plain.Settings())
	require.NotNil(t, plain.src.root, "no settings: the file's lines stand")

	s, err := DefaultScenarioWith([]Setting{{Key: "workload.bytes", Value: "8192"}})
	require.NoError(t, err)
	r, err := NewRun(s)
	require.NoError(t, err)
	res := r.Results()
	require.Equal(t, []string{"workload.bytes=8192"}, res.Settings)
	require.Equal(t, uint64(8192), r.Flows[0].Bytes)
}

// A setting written badly, a key set twice, a path through a value that
// is no mapping and a value the scenario refuses are errors naming the
// setting; a mistake in the file's own text keeps its line.
func TestSettingErrorsNameTheSetting(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"nic.cc", `"nic.cc": want KEY=VALUE (nic.cc=hpcc)`},
		{"=hpcc", `"=hpcc": no key before the =`},
		{"nic.cc=", `"nic.cc=": no value after the =`},
		{"nic..cc=hpcc", `"nic..cc=hpcc": an empty key in the path nic..cc`},
	} {
		_, err := ParseSetting(c.text)
		require.EqualError(t, err, c.want)
	}
	base := []byte(scenarioBase + scenarioWorkload)
	for _, c := range []struct {
		settings []Setting
		want     string
	}{
		{[]Setting{{"nic.mtu", "9000"}}, "s.yaml with nic.mtu=9000: nic.mtu 9000: payload bytes per packet, 256 to 4096 (0: the default)"},
		{[]Setting{{"nic.bogus", "1"}}, "s.yaml with nic.bogus=1: nic.bogus: unknown key; nic takes "},
		{[]Setting{{"name.x", "1"}}, "s.yaml: setting name.x=1: name is not a mapping"},
		{[]Setting{{"nic.mtu", "[1"}}, `s.yaml: setting nic.mtu=[1: value "[1": `},
		{[]Setting{{"nic.mtu", "1024"}, {"nic.mtu", "2048"}}, "s.yaml: setting nic.mtu=2048: nic.mtu is set twice"},
		{[]Setting{{"workload.senders", "99"}, {"workload.kind", "incast"}}, "s.yaml with workload.senders=99, workload.kind=incast: workload: incast of 99 senders into endpoint 0 on 4 endpoints"},
	} {
		s, err := ParseScenarioWith("s.yaml", base, c.settings)
		if err == nil {
			_, err = NewRun(s)
		}
		require.ErrorContains(t, err, c.want)
	}
	_, err := ParseScenarioWith("s.yaml", []byte(scenarioBase+"workload: [\n"), []Setting{{"nic.mtu", "1024"}})
	require.ErrorContains(t, err, "s.yaml:7: did not find expected node content")
	// a setting that cannot be written is a *SettingError naming it
	for _, bad := range [][]Setting{{{"name.x", "1"}}, {{"nic.mtu", "1024"}, {"nic.mtu", "2048"}}} {
		_, err := ParseScenarioWith("s.yaml", base, bad)
		var se *SettingError
		require.ErrorAs(t, err, &se)
		require.Equal(t, bad[len(bad)-1], se.Setting)
	}
}

// An error about a key no setting touched keeps the file's line of it;
// one about a key holding a setting's, or beside one in a mapping the
// settings made, names the settings.
func TestSettingsKeepTheLinesOfTheKeysTheyLeave(t *testing.T) {
	// the file has a switch section but no ecn: the curve's kmax_bytes,
	// at fault, is the settings', not the switch line's
	_, err := ParseScenarioWith("s.yaml", []byte(scenarioBase+scenarioWorkload+"switch:\n  lb: perflow\n"), []Setting{{"switch.ecn.kmin_bytes", "50000"}})
	require.EqualError(t, err, "s.yaml with switch.ecn.kmin_bytes=50000: switch.ecn: KmaxBytes 0 must exceed KminBytes 50000")
	base := []byte(scenarioBase + scenarioWorkload + "nic:\n  mtu: 9000\nswitch:\n  ecn:\n    kmin_bytes: 5000\n    kmax_bytes: 9000\n    pmax: 0.1\n")
	for _, c := range []struct {
		settings []Setting
		want     string
	}{
		{[]Setting{{"nic.cc", "hpcc"}}, "s.yaml:11: nic.mtu 9000: payload bytes per packet, 256 to 4096 (0: the default)"},
		{[]Setting{{"nic.mtu", "1024"}, {"switch.ecn.kmax_bytes", "10"}},
			"s.yaml with nic.mtu=1024, switch.ecn.kmax_bytes=10: switch.ecn: KmaxBytes 10 must exceed KminBytes 5000"},
	} {
		_, err := ParseScenarioWith("s.yaml", base, c.settings)
		require.EqualError(t, err, c.want)
	}
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "t.csv"), []byte("src,dst,bytes,start_ns\n0,0,4096,0\n"), 0o644))
	path := filepath.Join(dir, "s.yaml")
	require.NoError(t, os.WriteFile(path, []byte(scenarioBase+"workload:\n  kind: csv\n  file: t.csv\n"), 0o644))
	s, err := LoadScenarioWith(path, []Setting{{"nic.cc", "swift"}})
	require.NoError(t, err)
	_, err = NewRun(s)
	require.EqualError(t, err, filepath.Join(dir, "t.csv")+":2: src and dst are both 0 (the trace of "+path+":9)")
}

// LoadScenarioWith reads a relative trace from beside the scenario file,
// as LoadScenario does, a setting's trace file too.
func TestSettingsReadTheTraceBesideTheFile(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.csv"), []byte("src,dst,bytes,start_ns\n0,1,4096,0\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.csv"), []byte("src,dst,bytes,start_ns\n1,0,8192,0\n2,3,100,0\n"), 0o644))
	path := filepath.Join(dir, "s.yaml")
	require.NoError(t, os.WriteFile(path, []byte(scenarioBase+"workload:\n  kind: csv\n  file: a.csv\n"), 0o644))
	s, err := LoadScenarioWith(path, []Setting{{"workload.file", "b.csv"}})
	require.NoError(t, err)
	require.Equal(t, filepath.Join(dir, "b.csv"), s.TraceFile())
	r, err := NewRun(s)
	require.NoError(t, err)
	require.Len(t, r.Flows, 2)
	_, err = LoadScenarioWith(filepath.Join(dir, "none.yaml"), nil)
	require.ErrorIs(t, err, os.ErrNotExist)
}

// Settings never panic, whatever the file and the setting: an error names
// the file, and a scenario they give passes its checks and lists them.
func FuzzParseScenarioWith(f *testing.F) {
	f.Add(scenarioBase+scenarioWorkload, "nic.cc=hpcc")
	f.Add(scenarioBase+scenarioWorkload, "switch.ecn={kmin_bytes: 1, kmax_bytes: 2, pmax: 0.5}")
	f.Add("a: &x {b: 1}\nc: *x\n", "a.b=2")
	f.Add(scenarioBase+scenarioWorkload, "topology=*x")
	f.Add("", "workload.kind=csv")
	f.Fuzz(func(t *testing.T, in, setting string) {
		st, err := ParseSetting(setting)
		if err != nil {
			return
		}
		s, err := ParseScenarioWith("f.yaml", []byte(in), []Setting{st})
		if err != nil {
			require.True(t, strings.HasPrefix(err.Error(), "f.yaml"), "%q does not name the file", err)
			return
		}
		require.NoError(t, s.Validate())
		require.Equal(t, []string{st.String()}, s.Settings())
	})
}
