package main

import (
	"io/fs"
	"os"

	"github.com/nodegen/nodegen/internal/regularfile"
	"github.com/nodegen/nodegen/modules"
)

// testLibraryVar names the environment variable that replaces the
// built-in library by the modules below a directory: the command-line
// tests (testdata/script) that are not about the library set it to a
// small library of their own, so that an edit of the built-in library
// does not change their expected output. Diagnostics name its files as
// they name the library's (<nodegen>/modules/PATH).
const testLibraryVar = "NODEGEN_TEST_LIBRARY"

// library returns the module library the commands evaluate with: the
// built-in one (modules.FS), or the directory testLibraryVar names.
func library() fs.FS {
	if dir := os.Getenv(testLibraryVar); dir != "" {
		return regularfile.DirFS(dir)
	}
	return modules.FS()
}
