package profile

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"
	"testing"
)

// TestManifestHashesShared builds manifests from goroutines at once, as
// nodegen build does, with contents that repeat across them (so that most
// hashes come from the memo; run with -race): every hash is the SHA-256 of
// its content.
func TestManifestHashesShared(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for round := range 20 {
				var entries []Entry
				for i := range 10 {
					content := fmt.Appendf(nil, "file %d of host %d\n", i, (g+round+i)%3)
					entries = append(entries, Entry{Target: fmt.Sprintf("f%d", i), Mode: "0644", Content: content})
				}
				for i, me := range newManifest(entries).Entries {
					sum := sha256.Sum256(entries[i].Content)
					if want := hex.EncodeToString(sum[:]); me.SHA256 != want {
						t.Errorf("goroutine %d, %s: sha256 %s, want %s", g, me.Path, me.SHA256, want)
					}
				}
			}
		})
	}
	wg.Wait()
}
