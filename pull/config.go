package pull

import (
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nodegen/nodegen/deploy"
	"github.com/nodegen/nodegen/ociprofile"
)

// ConfigPath is where a profile keeps its pull configuration, relative to
// the profile (and to a generation): services.nodegen.pull writes it.
const ConfigPath = "etc/nodegen/pull.json"

// Config is the pull configuration of a generation.
type Config struct {
	// Registry is the fleet's repository: HOST[:PORT]/NAME.
	Registry string `json:"registry"`
	// Channel is the channel the host follows.
	Channel string `json:"channel"`
	// Host is the host's name in the tags; "" is the generation's host
	// name.
	Host string `json:"host"`
	// PlainHTTP talks to the registry over HTTP, not HTTPS.
	PlainHTTP bool `json:"plainHTTP"`
	// TrustedKeys are the ed25519 public keys (PEM) a manifest may be
	// signed with.
	TrustedKeys []string `json:"trustedKeys"`
	// HealthChecks must pass with a new generation active before the host
	// confirms it.
	HealthChecks map[string]deploy.HealthCheck `json:"healthChecks"`
	// ConfirmTimeout is how many seconds the health checks may take, at
	// most, before the generation rolls back by itself; 0: computed from
	// the checks.
	ConfirmTimeout int `json:"confirmTimeout"`
}

// ReadConfig reads the pull configuration of the profile or generation in
// dir; a generation without one is (nil, nil).
func ReadConfig(dir string) (*Config, error) {
	p := filepath.Join(dir, filepath.FromSlash(ConfigPath))
	data, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var c Config
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return &c, nil
}

// Keys parses c's trusted keys.
func (c *Config) Keys(name string) ([]ed25519.PublicKey, error) {
	var keys []ed25519.PublicKey
	for i, k := range c.TrustedKeys {
		pk, err := ociprofile.ParsePublicKey([]byte(k), fmt.Sprintf("%s: trustedKeys[%d]", name, i))
		if err != nil {
			return nil, err
		}
		keys = append(keys, pk)
	}
	return keys, nil
}

// ChecksWindow is how many seconds c's health checks may take at most,
// with their retries: the time a new generation waits for its
// confirmation.
func (c *Config) ChecksWindow() int {
	if c.ConfirmTimeout > 0 {
		return c.ConfirmTimeout
	}
	n := 30
	for _, hc := range c.HealthChecks {
		n += (hc.Retries+1)*(hc.Timeout+15) + hc.Retries*max(hc.Interval, 1)
	}
	return n
}
