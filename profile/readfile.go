package profile

// maxManifestSize bounds how much of a manifest Read reads: a profile of
// 100,000 files has a manifest of some 40 MB.
const maxManifestSize = 256 << 20
