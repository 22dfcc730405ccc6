package profile

// Validate checks entries as Write does before writing anything (targets,
// modes, links, owners, the same target twice, a target below another
// entry) and returns them sorted by target, with modes of four digits and
// empty owners made "root". Its error names every bad entry and its
// option.
func Validate(entries []Entry) ([]Entry, error) {
	return validate(entries)
}
