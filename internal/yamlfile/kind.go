package yamlfile

// Kind is a kind of YAML file, as its errors name it.
type Kind struct {
	// Name is what one file holds, without an article: "scenario" gives
	// "a scenario file holds one scenario", "a scenario takes name, ...".
	Name string
	// Holds, when set, says what one file holds instead of "one "+Name:
	// "one mapping of parameter: value".
	Holds string
}

// holds says what one file of the kind holds.
func (k Kind) holds() string {
	if k.Holds != "" {
		return k.Holds
	}
	return "one " + k.Name
}
