# The checks of a cluster as a whole: when a host is evaluated with the
# other hosts of its fleet (nodegen build, deploy, or --fleet FLEET.hcl;
# see docs/fleets.md), every host that runs a Kubernetes component checks
# itself against the fleet's reference node, the first host by name that
# runs one: the nodes agree on the CA, the pod range, the Service range and
# the apiserver's address (each equal to the reference's, so equal to each
# other's), the pod and Service ranges overlap neither each other nor the
# reference's node address, and the kubelets and apiservers are within
# Kubernetes' version skew policy of each other. A failure is reported on
# the host at hand, its note naming the values of both hosts and where
# each host defined them.
#
# Checking against one reference and not every other node keeps the cost
# of a fleet of N nodes at N checks and one other host evaluated (the
# reference, as far as these options), not N*N. The reference reads itself
# (hosts.NAME of the host at hand is its own config), and a host evaluated
# alone is its own reference: the checks then pass.

locals {
  fleetRefName = config.services.kubernetes.anyComponent ? kubernetesFleetReference(keys(hosts), 0) : null
  fleetRef     = local.fleetRefName == null ? null : hosts[local.fleetRefName].config.services.kubernetes
  fleetOwn     = config.services.kubernetes
  fleetMinor   = tonumber(split(".", local.fleetOwn.release.version)[1])
  # The ranges, each CIDR of a dual-stack list on its own, of this host and
  # of the reference.
  fleetOwnRanges = local.fleetRefName == null ? [] : kubernetesFleetRanges(local.fleetOwn)
  fleetRefRanges = local.fleetRefName == null ? [] : kubernetesFleetRanges(local.fleetRef)
  # The overlaps of a pod range with a Service range, this host's and the
  # reference's.
  fleetOverlaps = distinct(flatten([
    for a in concat(local.fleetOwnRanges, local.fleetRefRanges) : [
      for b in concat(local.fleetOwnRanges, local.fleetRefRanges) : "${a.what} ${a.cidr} (${a.option}) overlaps ${b.what} ${b.cidr} (${b.option})"
      if a.what == "the pod range" && b.what == "the Service range" && strcontains(a.cidr, ":") == strcontains(b.cidr, ":") && (cidrcontains(a.cidr, b.cidr) || cidrcontains(b.cidr, a.cidr))
    ]
  ]))
  # The reference's node address, when it runs a kubelet and gives one.
  fleetRefAddress = local.fleetRefName == null ? null : (local.fleetRef.kubelet.enable ? local.fleetRef.kubelet.nodeIp : null)
  fleetAddressIn = local.fleetRefAddress == null ? [] : [
    for r in local.fleetOwnRanges : "${r.what} ${r.cidr} (${r.option})"
    if strcontains(r.cidr, ":") == strcontains(local.fleetRefAddress, ":") && (length(regexall("^[0-9.]+$", local.fleetRefAddress)) > 0 || strcontains(local.fleetRefAddress, ":")) && cidrcontains(r.cidr, local.fleetRefAddress)
  ]
  fleetRefMinor = local.fleetRefName == null ? 0 : tonumber(split(".", local.fleetRef.release.version)[1])
}

# kubernetesFleetReference is the first of names, from i, that runs a
# Kubernetes component; null if none does. It reads the hosts one after
# the other and stops at the first.
function "kubernetesFleetReference" {
  params = [names, i]
  result = i >= length(names) ? null : (hosts[names[i]].config.services.kubernetes.anyComponent ? names[i] : kubernetesFleetReference(names, i + 1))
}

# kubernetesFleetEndpoint is the apiserver address of k (a host's
# services.kubernetes) with the reference m's names of its master (its
# masterAddress, and its apiserver's advertiseAddress) written <master>: a
# master that reaches its apiserver by its own address and a node that
# reaches it by the master's name agree.
function "kubernetesFleetEndpoint" {
  params = [k, m]
  result = replace(
    replace(k.apiserverAddress, "//${m.masterAddress}:", "//<master>:"),
    "//${coalesce(m.apiserver.advertiseAddress, m.masterAddress)}:", "//<master>:"
  )
}

# kubernetesFleetRanges are the pod and Service ranges of k (a host's
# services.kubernetes), each CIDR of a dual-stack list on its own.
function "kubernetesFleetRanges" {
  params = [k]
  result = concat(
    [for r in split(",", k.apiserver.serviceClusterIpRange) : { cidr = trimspace(r), what = "the Service range", option = "services.kubernetes.apiserver.serviceClusterIpRange" }],
    k.clusterCidr == null ? [] : [for r in split(",", k.clusterCidr) : { cidr = trimspace(r), what = "the pod range", option = "services.kubernetes.clusterCidr" }],
  )
}

assert {
  condition = local.fleetRefName == null || local.fleetOwn.caFile == local.fleetRef.caFile && local.fleetOwn.easyCerts == local.fleetRef.easyCerts && (!local.fleetOwn.easyCerts || local.fleetOwn.pki.caSpec == local.fleetRef.pki.caSpec && local.fleetOwn.masterAddress == local.fleetRef.masterAddress)
  message   = "services.kubernetes: this host and ${local.fleetRefName} (the fleet's reference node) disagree on the cluster's CA (caFile; with easyCerts, pki.caSpec and masterAddress, the CA's host): every node of a cluster trusts the same CA."
}

assert {
  condition = local.fleetRefName == null || local.fleetOwn.clusterCidr == local.fleetRef.clusterCidr
  message   = "services.kubernetes.clusterCidr: this host's pod range ${coalesce(local.fleetOwn.clusterCidr, "null")} differs from ${local.fleetRefName}'s (the fleet's reference node) ${try(coalesce(local.fleetRef.clusterCidr, "null"), "")}: every node of a cluster has the same."
}

assert {
  condition = local.fleetRefName == null || local.fleetOwn.apiserver.serviceClusterIpRange == local.fleetRef.apiserver.serviceClusterIpRange
  message   = "services.kubernetes.apiserver.serviceClusterIpRange: this host's Service range ${local.fleetOwn.apiserver.serviceClusterIpRange} differs from ${local.fleetRefName}'s (the fleet's reference node) ${try(local.fleetRef.apiserver.serviceClusterIpRange, "")}: every node of a cluster has the same."
}

assert {
  condition = local.fleetRefName == null || kubernetesFleetEndpoint(local.fleetOwn, local.fleetRef) == kubernetesFleetEndpoint(local.fleetRef, local.fleetRef)
  message   = "services.kubernetes.apiserverAddress: this host reaches the apiserver at ${local.fleetOwn.apiserverAddress}, ${local.fleetRefName} (the fleet's reference node) at ${try(local.fleetRef.apiserverAddress, "")}: every node of a cluster has the same endpoint (the same URL, or one naming the reference's masterAddress or apiserver.advertiseAddress with the same scheme and port)."
}

assert {
  condition = length(local.fleetOverlaps) == 0
  message   = "services.kubernetes: ${join("; ", local.fleetOverlaps)} (of this host or of ${local.fleetRefName}, the fleet's reference node): a pod's address would be a Service's."
}

assert {
  condition = length(local.fleetAddressIn) == 0
  message   = "services.kubernetes: the node address ${coalesce(local.fleetRefAddress, "")} of ${local.fleetRefName} (services.kubernetes.kubelet.nodeIp) lies in this host's ${join(" and ", local.fleetAddressIn)}: traffic for that node would go to pods or Services."
}

# Kubernetes' version skew policy: a kubelet is not newer than the
# apiservers and at most three minor releases older; apiservers are within
# one minor release of each other.
assert {
  condition = local.fleetRefName == null || !(local.fleetOwn.kubelet.enable && local.fleetRef.apiserver.enable) || (local.fleetMinor <= local.fleetRefMinor && local.fleetMinor >= local.fleetRefMinor - 3)
  message   = "services.kubernetes.release.version: this host's kubelet is ${local.fleetOwn.release.version}, the apiserver of ${local.fleetRefName} ${try(local.fleetRef.release.version, "")}: a kubelet may be at most three minor releases older than the apiservers, and not newer."
}

assert {
  condition = local.fleetRefName == null || !(local.fleetOwn.apiserver.enable && local.fleetRef.kubelet.enable) || (local.fleetRefMinor <= local.fleetMinor && local.fleetRefMinor >= local.fleetMinor - 3)
  message   = "services.kubernetes.release.version: this host's apiserver is ${local.fleetOwn.release.version}, the kubelet of ${local.fleetRefName} ${try(local.fleetRef.release.version, "")}: a kubelet may be at most three minor releases older than the apiservers, and not newer."
}

assert {
  condition = local.fleetRefName == null || !(local.fleetOwn.apiserver.enable && local.fleetRef.apiserver.enable) || abs(local.fleetMinor - local.fleetRefMinor) <= 1
  message   = "services.kubernetes.release.version: this host's apiserver is ${local.fleetOwn.release.version}, that of ${local.fleetRefName} ${try(local.fleetRef.release.version, "")}: apiservers are within one minor release of each other."
}
