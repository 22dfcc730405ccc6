# virtualisation.docker: the docker daemon the kubelet runs its containers
# with. A port of the behaviour of nixpkgs' nixos/modules/virtualisation/
# docker.nix (early 2019). NixOS takes docker.service and docker.socket from
# the docker package and overrides ExecStart; nodegen writes both units.

locals {
  docker = config.virtualisation.docker
}

options "virtualisation.docker" {
  option "enable" {
    type        = bool
    default     = false
    description = <<-EOT
      This option enables docker, a daemon that manages linux containers.
      Users in the "docker" group can interact with the daemon (e.g. to
      start or stop containers) using the docker command line tool.
    EOT
  }
  option "package" {
    type        = package
    default     = "/usr"
    description = "Docker package to be used in the module: bin/dockerd and bin/docker."
  }
  option "listenOptions" {
    type        = listOf(str)
    default     = ["/run/docker.sock"]
    description = "A list of unix and tcp docker should listen to. The format follows ListenStream as described in systemd.socket(5)."
  }
  option "enableOnBoot" {
    type        = bool
    default     = true
    description = "When enabled dockerd is started on boot. This is required for containers which are created with the --restart=always flag to work. If this option is disabled, docker might be started on demand by socket activation."
  }
  option "liveRestore" {
    type        = bool
    default     = true
    description = "Allow dockerd to be restarted without affecting running container. This option is incompatible with docker swarm."
  }
  option "storageDriver" {
    type        = nullOr(enum(["aufs", "btrfs", "devicemapper", "overlay", "overlay2", "zfs"]))
    default     = null
    description = "This option determines which Docker storage driver to use. By default it let's docker automatically choose preferred storage driver."
  }
  option "logDriver" {
    type        = enum(["none", "json-file", "syslog", "journald", "gelf", "fluentd", "awslogs", "splunk", "etwlogs", "gcplogs"])
    default     = "journald"
    description = "This option determines which Docker log driver to use."
  }
  option "extraOptions" {
    type        = separatedString(" ")
    default     = ""
    description = "The extra command-line options to pass to docker daemon."
  }
}

config "systemd.services.docker" {
  when          = local.docker.enable
  description   = "Docker Application Container Engine"
  documentation = ["https://docs.docker.com"]
  wantedBy      = local.docker.enableOnBoot ? ["multi-user.target"] : []
  after         = ["network-online.target", "docker.socket"]
  wants         = ["network-online.target"]
  requires      = ["docker.socket"]
  serviceConfig = {
    Type = "notify"
    ExecStart = join(" ", [for a in [
      "${local.docker.package}/bin/dockerd",
      "--group=docker",
      "--host=fd://",
      "--log-driver=${local.docker.logDriver}",
      local.docker.storageDriver != null ? "--storage-driver=${local.docker.storageDriver}" : "",
      local.docker.liveRestore ? "--live-restore" : "",
      local.docker.extraOptions,
    ] : a if a != ""])
    ExecReload      = "/bin/kill -s HUP $MAINPID"
    LimitNOFILE     = 1048576
    LimitNPROC      = "infinity"
    LimitCORE       = "infinity"
    TasksMax        = "infinity"
    TimeoutStartSec = 0
    Delegate        = true
    KillMode        = "process"
    Restart         = "on-failure"
  }
}

config "systemd.sockets.docker" {
  when        = local.docker.enable
  description = "Docker Socket for the API"
  wantedBy    = ["sockets.target"]
  partOf      = ["docker.service"]
  socketConfig = {
    ListenStream = local.docker.listenOptions
    SocketMode   = "0660"
    SocketUser   = "root"
    SocketGroup  = "docker"
  }
}

config "environment.etc.\"sysusers.d/docker.conf\"" {
  when   = local.docker.enable
  origin = "virtualisation.docker"
  text   = "g docker -\n"
}
