# The binaries a profile needs: distribution packages by name
# (environment.systemPackages / environment.packages) and release assets
# downloaded and checked by hash (environment.assets), as kops' nodeup
# installs the kubelet, containerd, runc and the CNI plugins. NixOS's store
# provides every binary a unit names; a nodegen profile lists them, the
# manifest records them, and `nodegen switch` installs them before it
# touches /etc. `nodegen eval` warns about every absolute executable a unit
# or script of the profile runs that none of these provides.

submodule "asset" {
  option "enable" {
    type        = bool
    default     = true
    description = "Whether the asset is part of the profile."
  }
  option "url" {
    type        = str
    description = "Where the file is downloaded from: an https://, http:// or file:/// URL."
    example     = "https://dl.k8s.io/release/v1.29.15/bin/linux/amd64/kubelet"
  }
  option "sha256" {
    type        = nullOr(strMatching("[0-9a-f]{64}", "sha256 as 64 lower-case hex digits"))
    default     = null
    description = "The sha256 of the download (or give sha512). A download with another hash is never installed."
  }
  option "sha512" {
    type         = nullOr(strMatching("[0-9a-f]{128}", "sha512 as 128 lower-case hex digits"))
    default      = config.sha256 == null ? try(root.environment.assetLock[config.url].sha512, null) : null
    default_text = "the url's sha512 in nodegen.lock.hcl (environment.assetLock) when sha256 is null"
    description  = "The sha512 of the download, as Kubernetes' release notes list them (or give sha256). An asset whose hash neither the library nor the host gives takes the sha512 that `nodegen lock` recorded for its url in nodegen.lock.hcl, beside the host files."
  }
  option "archive" {
    type        = nullOr(enum(["tar.gz", "zip"]))
    default     = null
    description = "What kind of archive the download is, when `files` are members of it; null when the download itself is installed (`executable`)."
  }
  option "executable" {
    type        = nullOr(str)
    default     = null
    description = "For a download that is itself a program: the absolute path it is installed at."
    example     = "/opt/kubernetes/bin/kubelet"
  }
  option "files" {
    type        = attrsOf(str)
    default     = {}
    description = "For an archive: each absolute path to install, and the member of the archive installed there."
    example     = { "/opt/cni/bin/bridge" = "./bridge" }
  }

  assert {
    condition = !config.enable || config.sha256 != null || config.sha512 != null
    message   = "environment.assets.\"${name}\": no hash of ${config.url}: neither the library nor the host pins one, and no nodegen.lock.hcl beside the host files has an entry for it. Run `nodegen lock HOST.hcl` to download it and record its sha512 in nodegen.lock.hcl (commit that file), or set the asset's sha256 or sha512."
  }
  assert {
    condition = !config.enable || config.sha256 == null || config.sha512 == null
    message   = "environment.assets.\"${name}\": give one hash, sha256 or sha512, not both."
  }
  assert {
    condition = !config.enable || (config.archive == null) == (config.executable != null && length(config.files) == 0)
    message   = "environment.assets.\"${name}\": set executable for a download that is a program, or archive and files for an archive."
  }
}

submodule "lockedAsset" {
  option "size" {
    type        = ints.unsigned
    description = "The size of the download in bytes, as `nodegen lock` fetched it."
  }
  option "sha512" {
    type        = strMatching("[0-9a-f]{128}", "sha512 as 128 lower-case hex digits")
    description = "The sha512 of the download, as `nodegen lock` fetched it."
  }
}

submodule "systemPackage" {
  option "enable" {
    type        = bool
    default     = true
    description = "Whether the package is needed."
  }
  option "provides" {
    type         = listOf(str)
    default      = ["/usr/bin/${name}", "/usr/sbin/${name}", "/bin/${name}", "/sbin/${name}"]
    default_text = "the package's name in /usr/bin, /usr/sbin, /bin and /sbin"
    description  = "The absolute paths of the executables the package installs, for the check of what units run."
  }
}

options "environment" {
  option "assets" {
    type        = attrsOf(submodule.asset)
    default     = {}
    description = <<-EOT
      Release files the profile installs: downloaded from `url` (through
      environment.assetMirrors), checked against `sha256` or `sha512` (the
      library's, the host's, or the lock file's: see `nodegen lock`), kept
      under /var/lib/nodegen/assets by hash, and linked at their paths by
      `nodegen switch` (a rollback links the previous generation's again).
    EOT
    example = {
      kubelet = {
        url        = "https://dl.k8s.io/release/v1.29.15/bin/linux/amd64/kubelet"
        sha256     = "0000000000000000000000000000000000000000000000000000000000000000"
        executable = "/opt/kubernetes/bin/kubelet"
      }
    }
  }
  option "assetMirrors" {
    type        = attrsOf(strMatching("(https?://|file:///)[^ \t\n]*", "an https://, http:// or file:/// URL"))
    default     = {}
    description = <<-EOT
      Where assets are downloaded from instead of their url: each URL
      prefix, and the prefix that replaces it (the longest prefix that
      matches whole path segments wins). `nodegen lock` and `nodegen switch`
      (on the host, with `nodegen deploy` too) download through it; the
      hashes are checked whatever the mirror, and nodegen.lock.hcl keeps
      the assets' own URLs, so one lock file serves hosts with and without
      a mirror.
    EOT
    example     = { "https://dl.k8s.io" = "http://mirror.lan/k8s" }
  }
  option "assetLock" {
    type        = attrsOf(submodule.lockedAsset)
    default     = {}
    description = <<-EOT
      The entries of nodegen.lock.hcl, the lock file beside the host files,
      by URL: nodegen defines them from that file when it evaluates a host
      (eval, build, switch, deploy), and `nodegen lock` writes the file. An
      asset with no sha256 or sha512 of its own takes its url's sha512 from
      here.
    EOT
  }
  option "packages" {
    type        = attrsOf(submodule.systemPackage)
    default     = {}
    description = "Distribution packages the profile needs, by name: `nodegen switch` checks them with dpkg and installs the missing ones with apt-get, through environment.packageProxy when it is set, updating apt's lists first when they are missing or older than a day (on a system without apt, such as Flatcar, use environment.assets)."
  }
  option "packageProxy" {
    type        = nullOr(strMatching("https?://[^ \t\n]+", "an http:// or https:// URL"))
    default     = null
    description = <<-EOT
      The HTTP proxy apt-get goes through when `nodegen switch` installs
      environment.packages (`-o Acquire::http::Proxy=` and
      `Acquire::https::Proxy=`), as a cloud provider's package proxy or an
      apt-cacher on the network; apt checks Debian's signatures whatever
      the proxy. null: apt's own configuration. The manifest records it.
    EOT
    example     = "http://10.88.0.1:3142"
  }
  option "systemPackages" {
    type        = listOf(str)
    default     = []
    description = "Names of distribution packages the profile needs (Debian's names), as NixOS's environment.systemPackages; each is an entry of environment.packages."
    example     = ["curl", "conntrack", "socat"]
  }
  option "providedByImage" {
    type        = listOf(str)
    default     = []
    description = <<-EOT
      Absolute paths of executables the system image provides, which the
      check of what units run accepts without an asset or package. The
      profile records those its units and scripts run, and `nodegen switch`
      (and `switch --dry-run`, which `deploy --dry-run` runs on each host)
      refuses before anything changes when one is not an executable file on
      the system.
    EOT
  }
  option "basePrograms" {
    type        = listOf(str)
    default     = []
    description = <<-EOT
      Absolute paths of the programs of every stock system nodegen switches
      (Debian, Ubuntu, Flatcar), which the check of what units run accepts
      without an asset or package, and which switch does not look for. The
      library lists the ones its units and scripts run, and the copy of
      nodegen that every switch keeps (system.nodegen.path); list a program
      that only your image has in environment.providedByImage instead.
    EOT
  }
}

assert {
  condition = alltrue([for p in keys(config.environment.assetMirrors) : can(regex("^(https?://|file:///)[^ \t\n]*$", p))])
  message   = "environment.assetMirrors: every prefix is an https://, http:// or file:/// URL; these are not: ${join(", ", [for p in keys(config.environment.assetMirrors) : jsonencode(p) if !can(regex("^(https?://|file:///)[^ \t\n]*$", p))])}."
}

config "environment" {
  # (A package that two modules list is one entry.)
  packages = { for n in distinct(config.environment.systemPackages) : n => {} }
  # What a stock Debian or Flatcar system has, at both places a merged /usr
  # gives it.
  # (coreutils, grep, sed, findutils, util-linux's mount, kmod, procps,
  # systemd: what Debian marks essential or required, and Flatcar ships.)
  basePrograms = concat(flatten([
    for p in [
      "basename", "bash", "cat", "chmod", "chown", "cp", "cut", "date", "dirname", "echo", "env",
      "false", "find", "grep", "head", "hostname", "id", "install", "kill", "ln", "ls", "mkdir",
      "mktemp", "mount", "mv", "od", "readlink", "rm", "sed", "sh", "sleep", "sort", "stat",
      "systemctl", "tail", "tee", "test", "touch", "tr", "true", "umount", "uname", "wc", "xargs",
    ] : ["/bin/${p}", "/usr/bin/${p}"]
  ]), ["/sbin/modprobe", "/sbin/sysctl", "/usr/sbin/modprobe", "/usr/sbin/sysctl"])
}
