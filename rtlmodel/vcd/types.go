package vcd

// VarType is the var_type keyword of a $var declaration.
type VarType uint8

// Variable types of IEEE 1364-2005 section 18.2.3.8, followed by the
// SystemVerilog and tool extensions that GTKWave, Verilator and others write.
// VarOther stands for any keyword not in this list; [Var.TypeName] keeps it.
const (
	VarOther VarType = iota
	VarEvent
	VarInteger
	VarParameter
	VarReal
	VarRealtime
	VarReg
	VarSupply0
	VarSupply1
	VarTime
	VarTri
	VarTriand
	VarTrior
	VarTrireg
	VarTri0
	VarTri1
	VarWand
	VarWire
	VarWor
	VarLogic
	VarBit
	VarInt
	VarShortint
	VarLongint
	VarByte
	VarEnum
	VarShortreal
	VarString
	VarRealParameter
	VarPort
)

var varTypeNames = [...]string{
	VarOther: "", VarEvent: "event", VarInteger: "integer", VarParameter: "parameter",
	VarReal: "real", VarRealtime: "realtime", VarReg: "reg", VarSupply0: "supply0",
	VarSupply1: "supply1", VarTime: "time", VarTri: "tri", VarTriand: "triand",
	VarTrior: "trior", VarTrireg: "trireg", VarTri0: "tri0", VarTri1: "tri1",
	VarWand: "wand", VarWire: "wire", VarWor: "wor", VarLogic: "logic", VarBit: "bit",
	VarInt: "int", VarShortint: "shortint", VarLongint: "longint", VarByte: "byte",
	VarEnum: "enum", VarShortreal: "shortreal", VarString: "string",
	VarRealParameter: "real_parameter", VarPort: "port",
}

// String returns the keyword ("wire"), or "other" for VarOther.
func (t VarType) String() string {
	if t == VarOther || int(t) >= len(varTypeNames) {
		return "other"
	}
	return varTypeNames[t]
}

// IsReal reports whether variables of this type carry real values.
func (t VarType) IsReal() bool {
	return t == VarReal || t == VarRealtime || t == VarShortreal || t == VarRealParameter
}

// ParseVarType maps a keyword to its VarType; unknown keywords give VarOther.
func ParseVarType(s string) VarType {
	for i := VarEvent; int(i) < len(varTypeNames); i++ {
		if varTypeNames[i] == s {
			return i
		}
	}
	return VarOther
}

// ScopeType is the scope_type keyword of a $scope declaration.
type ScopeType uint8

// Scope types of IEEE 1364-2005 section 18.2.3.6, followed by the extensions
// written by SystemVerilog and VHDL tools. ScopeOther stands for any keyword
// not in this list; [Scope.TypeName] keeps it.
const (
	ScopeOther ScopeType = iota
	ScopeModule
	ScopeTask
	ScopeFunction
	ScopeBegin
	ScopeFork
	ScopeGenerate
	ScopeStruct
	ScopeUnion
	ScopeClass
	ScopeInterface
	ScopePackage
	ScopeProgram
	ScopeVHDLArchitecture
	ScopeVHDLProcedure
	ScopeVHDLFunction
	ScopeVHDLRecord
	ScopeVHDLProcess
	ScopeVHDLBlock
	ScopeVHDLForGenerate
	ScopeVHDLIfGenerate
	ScopeVHDLGenerate
	ScopeVHDLPackage
)

var scopeTypeNames = [...]string{
	ScopeOther: "", ScopeModule: "module", ScopeTask: "task", ScopeFunction: "function",
	ScopeBegin: "begin", ScopeFork: "fork", ScopeGenerate: "generate", ScopeStruct: "struct",
	ScopeUnion: "union", ScopeClass: "class", ScopeInterface: "interface",
	ScopePackage: "package", ScopeProgram: "program",
	ScopeVHDLArchitecture: "vhdl_architecture", ScopeVHDLProcedure: "vhdl_procedure",
	ScopeVHDLFunction: "vhdl_function", ScopeVHDLRecord: "vhdl_record",
	ScopeVHDLProcess: "vhdl_process", ScopeVHDLBlock: "vhdl_block",
	ScopeVHDLForGenerate: "vhdl_for_generate", ScopeVHDLIfGenerate: "vhdl_if_generate",
	ScopeVHDLGenerate: "vhdl_generate", ScopeVHDLPackage: "vhdl_package",
}

// String returns the keyword ("module"), or "other" for ScopeOther.
func (t ScopeType) String() string {
	if t == ScopeOther || int(t) >= len(scopeTypeNames) {
		return "other"
	}
	return scopeTypeNames[t]
}

// ParseScopeType maps a keyword to its ScopeType; unknown keywords give ScopeOther.
func ParseScopeType(s string) ScopeType {
	for i := ScopeModule; int(i) < len(scopeTypeNames); i++ {
		if scopeTypeNames[i] == s {
			return i
		}
	}
	return ScopeOther
}
