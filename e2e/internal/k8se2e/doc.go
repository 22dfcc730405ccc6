// Package k8se2e holds what the Kubernetes end-to-end tests share
// (e2e/kubernetes, e2e/stock): the cache of the binaries and images
// (CacheDir), the image of e2e/kubernetes/image the pods and the pod
// sandbox run (Image), the options of a machine that runs a Kubernetes
// node in systemd-nspawn (BootOptions), and the manifest of a pod of that
// image (SleeperPod).
package k8se2e
