//go:build linux

package kubernetes

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestConfigFilesAccepted hands each configuration file a fixture's
// profile has for a Kubernetes program to that program of the release the
// library targets, which reads and validates it as it does at start, then
// stops before it runs: kube-proxy writes the configuration it read
// (--write-config-to) and exits; the scheduler does the same; the kubelet
// validates its configuration before it reads its kubeconfig, which the
// test points at a file that does not exist, so a valid configuration
// fails there and nowhere before. The kubelet runs in a mount and network
// namespace of its own, with a root directory of the test's.
//
// The host running the test may have cgroup v1 (a kubelet with
// failCgroupV1 refuses it, as it should on such a host): the test turns
// failCgroupV1 off where the profile has it on, and says so.
func TestConfigFilesAccepted(t *testing.T) {
	bins := binaries(t)
	hosts, err := filepath.Glob("../../fixtures/*/host.hcl")
	if err != nil {
		t.Fatal(err)
	}
	checked := map[string]int{}
	for _, host := range hosts {
		fixture := filepath.Base(filepath.Dir(host))
		t.Run(fixture, func(t *testing.T) {
			root := writeProfile(t, evaluate(t, host))
			etc := filepath.Join(root, "etc", "kubernetes")
			if f := filepath.Join(etc, "kube-proxy-config.json"); exists(f) {
				checked[fixture]++
				out, err := runFor(t, bins, "kube-proxy", "--config="+f, "--write-config-to="+filepath.Join(t.TempDir(), "out.yaml"))
				if err != nil || !strings.Contains(out, "Wrote configuration") {
					t.Errorf("kube-proxy refused %s: %v\n%s", f, err, out)
				}
			}
			if f := filepath.Join(etc, "kube-scheduler-config.json"); exists(f) {
				checked[fixture]++
				// The scheduler reads the kubeconfig its configuration
				// names: give it one that names a server.
				conf := withKubeconfig(t, f)
				out, err := runFor(t, bins, "kube-scheduler", "--config="+conf, "--write-config-to="+filepath.Join(t.TempDir(), "out.yaml"))
				if err != nil || !strings.Contains(out, "Wrote configuration") {
					t.Errorf("kube-scheduler refused %s: %v\n%s", f, err, out)
				}
			}
			if f := filepath.Join(etc, "kubelet-config.json"); exists(f) {
				checked[fixture]++
				conf := cgroupV1Allowed(t, f)
				out, _ := runFor(t, bins, "kubelet", "--config="+conf, "--kubeconfig=/nonexistent/kubelet.kubeconfig", "--root-dir="+t.TempDir())
				if !strings.Contains(out, "/nonexistent/kubelet.kubeconfig") || strings.Contains(out, "failed to validate kubelet configuration") || strings.Contains(out, "strict decoding error") {
					t.Errorf("the kubelet did not accept %s (it should fail only at the missing kubeconfig):\n%s", f, out)
				}
			}
		})
	}
	for _, fixture := range []string{"k8s-single", "k8s-master", "k8s-worker", "containerd-worker"} {
		if checked[fixture] == 0 {
			t.Errorf("no configuration file of the fixture %s was checked", fixture)
		}
	}
	t.Logf("configuration files checked per fixture: %v", checked)
}

// TestConfigFilesRefused: the same checks fail for files the programs
// refuse, so that TestConfigFilesAccepted means something.
func TestConfigFilesRefused(t *testing.T) {
	bins := binaries(t)
	dir := t.TempDir()
	write := func(name, text string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	proxy := write("proxy.json", `{"apiVersion":"kubeproxy.config.k8s.io/v1alpha1","kind":"KubeProxyConfiguration","mode":"ipvsx"}`)
	if out, err := runFor(t, bins, "kube-proxy", "--config="+proxy, "--write-config-to="+filepath.Join(dir, "o")); err == nil || strings.Contains(out, "Wrote configuration") {
		t.Errorf("kube-proxy accepted a bad mode:\n%s", out)
	}
	kubelet := write("kubelet.json", `{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration","failCgroupV1":false,"healthzPort":-1}`)
	if out, _ := runFor(t, bins, "kubelet", "--config="+kubelet, "--kubeconfig=/nonexistent/kubelet.kubeconfig", "--root-dir="+dir); !strings.Contains(out, "failed to validate kubelet configuration") {
		t.Errorf("the kubelet accepted a bad healthzPort:\n%s", out)
	}
}

func exists(f string) bool {
	_, err := os.Stat(f)
	return err == nil
}

// runFor runs a program of bins (the kubelet in mount and network
// namespaces of its own) and returns what it printed.
func runFor(t *testing.T, bins, program string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	bin := filepath.Join(bins, program)
	var cmd *exec.Cmd
	if program == "kubelet" {
		cmd = exec.CommandContext(ctx, "unshare", append([]string{"--mount", "--net", bin}, args...)...)
	} else {
		cmd = exec.CommandContext(ctx, bin, args...)
	}
	cmd.Env = []string{"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "HOME=" + t.TempDir()}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// edit decodes the JSON file f, changes it and writes it to a temporary
// file, whose path it returns.
func edit(t *testing.T, f string, change func(map[string]any)) string {
	t.Helper()
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	var conf map[string]any
	if err := json.Unmarshal(data, &conf); err != nil {
		t.Fatalf("%s: %v", f, err)
	}
	change(conf)
	data, err = json.Marshal(conf)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), filepath.Base(f))
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// cgroupV1Allowed returns the kubelet configuration f, with failCgroupV1
// off when f has it on and this host has no unified cgroup hierarchy.
func cgroupV1Allowed(t *testing.T, f string) string {
	t.Helper()
	if _, err := os.Stat("/sys/fs/cgroup/cgroup.controllers"); err == nil {
		return f // cgroup v2: the file as it is
	}
	return edit(t, f, func(conf map[string]any) {
		if on, _ := conf["failCgroupV1"].(bool); on {
			t.Logf("%s: failCgroupV1 turned off for this cgroup v1 host", f)
			conf["failCgroupV1"] = false
		}
	})
}

// withKubeconfig returns the scheduler configuration f with its
// clientConnection's kubeconfig replaced by one of the test's.
func withKubeconfig(t *testing.T, f string) string {
	t.Helper()
	kc := filepath.Join(t.TempDir(), "kubeconfig")
	const text = "apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: 'https://127.0.0.1:1'}}]\nusers: [{name: u, user: {}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n"
	if err := os.WriteFile(kc, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return edit(t, f, func(conf map[string]any) {
		cc, _ := conf["clientConnection"].(map[string]any)
		if cc == nil {
			cc = map[string]any{}
			conf["clientConnection"] = cc
		}
		cc["kubeconfig"] = kc
	})
}
