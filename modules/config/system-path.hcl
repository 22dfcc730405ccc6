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
    type        = nullOr(strMatching("[0-9a-f]{128}", "sha512 as 128 lower-case hex digits"))
    default     = null
    description = "The sha512 of the download, as Kubernetes' release notes list them (or give sha256)."
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
    condition = !config.enable || (config.sha256 == null) != (config.sha512 == null)
    message   = "environment.assets.\"${name}\": give its hash, as sha256 or as sha512."
  }
  assert {
    condition = !config.enable || (config.archive == null) == (config.executable != null && length(config.files) == 0)
    message   = "environment.assets.\"${name}\": set executable for a download that is a program, or archive and files for an archive."
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
      Release files the profile installs: downloaded from `url`, checked
      against `sha256`, kept under /var/lib/nodegen/assets by hash, and linked
      at their paths by `nodegen switch` (a rollback links the previous
      generation's again).
    EOT
    example = {
      kubelet = {
        url        = "https://dl.k8s.io/release/v1.29.15/bin/linux/amd64/kubelet"
        sha256     = "0000000000000000000000000000000000000000000000000000000000000000"
        executable = "/opt/kubernetes/bin/kubelet"
      }
    }
  }
  option "packages" {
    type        = attrsOf(submodule.systemPackage)
    default     = {}
    description = "Distribution packages the profile needs, by name: `nodegen switch` checks them with dpkg and installs the missing ones with apt-get (on a system without apt, such as Flatcar, use environment.assets)."
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
