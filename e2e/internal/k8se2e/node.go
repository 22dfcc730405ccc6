//go:build linux

package k8se2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nodegen/nodegen/internal/nspawntest"
)

// BootOptions are the options of a machine, booted from root, that runs
// a Kubernetes node, with the binds more besides: without nspawn's system
// call filter (runc needs keyctl), with every capability, cgroups of its
// own in every cgroup v1 hierarchy, /dev/kmsg (the kubelet's OOM
// watcher), and /var/lib/containerd, /var/lib/kubernetes and
// /var/log/pods on the host's disk, in new directories of the test's
// (containerd's overlayfs snapshots cannot sit on the machine's overlay
// root; cAdvisor wants a real file system behind the kubelet's directory).
func BootOptions(t testing.TB, root nspawntest.Root, more ...nspawntest.Bind) nspawntest.Options {
	t.Helper()
	state := t.TempDir()
	binds := append([]nspawntest.Bind{{Host: "/dev/kmsg", Container: "/dev/kmsg"}}, more...)
	for _, dir := range []string{"/var/lib/containerd", "/var/lib/kubernetes", "/var/log/pods"} {
		host := filepath.Join(state, filepath.Base(dir))
		if err := os.Mkdir(host, 0o755); err != nil {
			t.Fatal(err)
		}
		binds = append(binds, nspawntest.Bind{Host: host, Container: dir})
	}
	return nspawntest.Options{
		Root:              root,
		Binds:             binds,
		NoSeccomp:         true,
		AllCapabilities:   true,
		ControllerCgroups: true,
	}
}

// SleeperPod is a pod of the sleeper image, with the metadata keys extra
// (none when it is empty) and, when key is not empty, the environment
// variable key set to value, that the scheduler puts on the node
// nodeName, whatever its taints.
func SleeperPod(name, nodeName, extra, key, value string) string {
	if extra != "" {
		extra = ", " + extra
	}
	env := ""
	if key != "" {
		env = `    env: [{name: ` + key + `, value: "` + value + `"}]
`
	}
	return `apiVersion: v1
kind: Pod
metadata: {name: ` + name + `, namespace: default` + extra + `}
spec:
  nodeSelector: {kubernetes.io/hostname: ` + nodeName + `}
  tolerations: [{operator: Exists}]
  terminationGracePeriodSeconds: 5
  containers:
  - name: sleeper
    image: ` + ImageTags[1] + `
    imagePullPolicy: Never
` + env
}
