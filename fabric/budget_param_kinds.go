package fabric

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// budgetParam is one parameter Set can change. set parses and checks a
// value and stores it; check finds a value of the config outside the
// parameter's range (for configs built in code); allowed says what it
// takes, for --list and the errors.
type budgetParam struct {
	name, unit, doc string
	allowed         string
	// lo and hi bound a whole-number parameter (both 0 for the others).
	lo, hi int64
	set    func(c *BudgetConfig, v string) error
	check  func(c *BudgetConfig) error
}

// budgetWhole is the Go type of a whole-number budget parameter.
type budgetWhole interface {
	~int | ~uint8 | ~uint32 | ~uint64
}

// wholeParam is a whole-number parameter from lo to hi, stored in the
// field the accessor returns.
func wholeParam[T budgetWhole](name, unit, doc string, lo, hi T, field func(c *BudgetConfig) *T) budgetParam {
	return ruledParam(name, unit, doc, fmt.Sprintf("%d to %d", lo, hi), lo, hi, nil, field)
}

// ruledParam is a whole-number parameter from lo to hi that also passes
// rule (nil: any), allowed saying which values those are.
func ruledParam[T budgetWhole](name, unit, doc, allowed string, lo, hi T, rule func(T) bool, field func(c *BudgetConfig) *T) budgetParam {
	p := budgetParam{name: name, unit: unit, doc: doc, allowed: allowed, lo: int64(lo), hi: int64(hi)}
	ok := func(v T) bool { return v >= lo && v <= hi && (rule == nil || rule(v)) }
	p.set = func(c *BudgetConfig, text string) error {
		n, err := strconv.ParseInt(text, 10, 64)
		switch {
		case errors.Is(err, strconv.ErrRange):
			return p.reject(text)
		case err != nil:
			return &BudgetParamError{Name: name, Value: text, Reason: "not a whole number"}
		case n < int64(lo) || n > int64(hi) || !ok(T(n)):
			return p.reject(text)
		}
		*field(c) = T(n)
		return nil
	}
	p.check = func(c *BudgetConfig) error {
		if v := *field(c); !ok(v) {
			return p.reject(fmt.Sprintf("%d", v))
		}
		return nil
	}
	return p
}

// choiceParam is a parameter that takes one of the names of choices,
// stored in the field the accessor returns.
func choiceParam[T comparable](name, doc string, choices []string, values []T, field func(c *BudgetConfig) *T) budgetParam {
	p := budgetParam{name: name, doc: doc, allowed: "one of " + strings.Join(choices, ", ")}
	p.set = func(c *BudgetConfig, text string) error {
		i := slices.Index(choices, text)
		if i < 0 {
			return p.reject(text)
		}
		*field(c) = values[i]
		return nil
	}
	p.check = func(c *BudgetConfig) error {
		if i := slices.Index(values, *field(c)); i < 0 {
			return p.reject(fmt.Sprint(*field(c)))
		}
		return nil
	}
	return p
}

// reject is the error for a value outside the parameter's range.
func (p budgetParam) reject(value string) error {
	return &BudgetParamError{Name: p.name, Value: value, Reason: p.meaning()}
}

// meaning says what the parameter is and the values it takes, with its
// unit: "pipe clock period, 1 to 1000000 ps".
func (p budgetParam) meaning() string {
	s := p.doc + ", " + p.allowed
	if p.unit != "" {
		s += " " + p.unit
	}
	return s
}
