package options

// Bind returns t with the Instantiator of every submodule type in it set
// to inst and the resolver of every path type set to paths: a type parsed
// once (with neither) and shared by evaluations, made the type of one of
// them, which instantiates its submodules and resolves its relative paths.
// It looks through listOf, attrsOf, nullOr, uniq, either and oneOf; a type
// that holds neither a submodule nor a path is returned as it is.
func Bind(t Type, inst Instantiator, paths PathResolver) Type {
	switch u := t.(type) {
	case Submodule:
		u.Inst = inst
		return u
	case PathType:
		u.Resolve = paths
		return u
	case ListOf:
		return ListOf{Elem: Bind(u.Elem, inst, paths)}
	case AttrsOf:
		return AttrsOf{Elem: Bind(u.Elem, inst, paths)}
	case NullOr:
		return NullOr{Elem: Bind(u.Elem, inst, paths)}
	case Uniq:
		return Uniq{Elem: Bind(u.Elem, inst, paths)}
	case Either:
		return Either{A: Bind(u.A, inst, paths), B: Bind(u.B, inst, paths)}
	case OneOf:
		alts := make([]Type, len(u.Alts))
		for i, a := range u.Alts {
			alts[i] = Bind(a, inst, paths)
		}
		return OneOf{Alts: alts}
	}
	return t
}
