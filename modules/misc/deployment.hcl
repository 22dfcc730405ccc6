# deployment: how `nodegen deploy` reaches the host and what it sends there
# besides the profile, with colmena's option names (deployment.targetHost,
# deployment.keys, ...). Nothing here is written into the profile: the
# deploying machine reads these options, and the keys travel beside the
# profile, never in it.

submodule "deploymentKey" {
  option "name" {
    type         = fileName
    default      = name
    default_text = "the attribute name"
    description  = "The name of the key's file in destDir: a name, not a path (no /, not . or ..)."
  }
  option "text" {
    type        = nullOr(str)
    default     = null
    description = "The content of the key. Exactly one of text and keyFile must be set. It is sent to the host over the deployer's SSH connection and written to destDir; it is never written into the profile, its manifest or a generation."
  }
  option "keyFile" {
    type        = nullOr(path)
    default     = null
    description = "A file on the deploying machine whose content is the key, read when nodegen deploy runs: an absolute path, or one relative to the module that defines it (\"./secrets/db-password\", as colmena's keyFile = ./secrets/db-password), which stays below that module's directory. Exactly one of text and keyFile must be set."
    example     = "/home/alice/secrets/db-password"
  }
  option "destDir" {
    type        = pathWord
    default     = "/run/keys"
    description = "The directory on the host the key is written to. No component of it may be a symbolic link (the host refuses the key); when it is missing it is made, owned by root with mode 0751. The default, below /run, is a tmpfs: the key is gone at the next boot, and deployed again by the next nodegen deploy."
  }
  option "user" {
    type        = userName
    default     = "root"
    description = "The owner of the key's file on the host."
  }
  option "group" {
    type        = userName
    default     = "root"
    description = "The group of the key's file on the host."
  }
  option "permissions" {
    type        = strMatching("0?[0-7]{3}", "file mode")
    default     = "0600"
    description = "The mode of the key's file on the host."
  }
}

submodule "deploymentHealthCheck" {
  option "name" {
    type         = word
    default      = name
    default_text = "the attribute name"
    description  = "The check's name in nodegen deploy's output."
  }
  option "command" {
    type        = str
    description = "A shell command (sh -c) that nodegen deploy runs on the host, as the deploy's user (through sudo when it is not root), after the new generation is active and before it confirms it. Exit status 0 is healthy; its output is kept for the deploy's report."
    example     = "curl -fsS http://127.0.0.1:8080/healthz"
  }
  option "timeout" {
    type        = ints.positive
    default     = 30
    description = "Seconds one run of the command may take before it counts as failed (it is stopped)."
  }
  option "retries" {
    type        = ints.unsigned
    default     = 0
    description = "How many more times a failed run is tried, interval seconds apart, before the check fails and the host rolls back."
  }
  option "interval" {
    type        = ints.positive
    default     = 2
    description = "Seconds between two runs of a failed check."
  }
}

submodule "deploymentHook" {
  option "name" {
    type        = word
    description = "The hook's name in nodegen deploy's output."
  }
  option "command" {
    type        = str
    description = "A shell command (sh -c). On the deployer it runs in the directory nodegen deploy was started in, with NODEGEN_HOST (the host's name), NODEGEN_TARGET_HOST (the address ssh connects to) and NODEGEN_PHASE (beforeSwitch or afterSwitch) in its environment; on the host it runs as the deploy's user (through sudo when it is not root) over the deploy's connection, with the same variables."
    example     = "kubectl drain --ignore-daemonsets \"$NODEGEN_HOST\""
  }
  option "runOn" {
    type        = enum(["host", "deployer"])
    default     = "host"
    description = "Where the command runs: on the host, over the deploy's SSH connection, or on the deploying machine."
  }
  option "timeout" {
    type        = ints.positive
    default     = 300
    description = "Seconds the command may take before it counts as failed (it is stopped)."
  }
}

options "deployment" {
  option "targetHost" {
    type        = nullOr(host)
    default     = null
    description = "The address or name that nodegen deploy connects to with ssh (a name from ~/.ssh/config works). null means the host's name: its file's name without .hcl."
    example     = "web01.example.org"
  }
  option "targetPort" {
    type        = nullOr(port)
    default     = null
    description = "The SSH port to connect to. null leaves it to ssh (its configuration, else 22)."
  }
  option "targetUser" {
    type        = nullOr(userName)
    default     = "root"
    description = "The user to connect as; nodegen switch runs as that user, through sudo when it is not root. null leaves it to ssh's configuration."
  }
  option "sshOptions" {
    type        = listOf(str)
    default     = []
    description = "More arguments for ssh, before the host (such as -o options, -J for a jump host, -i for a key)."
    example     = ["-J", "bastion.example.org", "-o", "ConnectTimeout=5"]
  }
  option "tags" {
    type        = listOf(word)
    default     = []
    description = "Tags that nodegen deploy --on @TAG selects the host by."
    example     = ["web", "eu-west"]
  }
  option "backupConflicts" {
    type        = bool
    default     = false
    description = "Whether nodegen deploy has the host's switch move the files in the way of the profile aside, as nodegen deploy --backup does for every host (nodegen switch --backup). They are kept below /var/lib/nodegen/backups and put back when nodegen stops managing their paths (nodegen deactivate, or a generation without them). Without it, a file an admin changed refuses the switch; files the installer or a package put there unchanged are taken over either way (docs/deploying.md)."
  }
  option "keys" {
    type        = attrsOf(submodule.deploymentKey)
    default     = {}
    description = "Secrets that nodegen deploy writes on the host before it switches, each a file destDir/name with its owner and mode. They are sent over the deployer's SSH connection and are never part of the profile, its manifest or a generation."
    example     = { db-password = { keyFile = "/home/alice/secrets/db", user = "postgres", permissions = "0400" } }
  }
  option "healthChecks" {
    type        = attrsOf(submodule.deploymentHealthCheck)
    default     = {}
    description = "Checks that nodegen deploy runs on the host, in the order of their names, once the new generation is active and the afterSwitch hooks passed: the deploy confirms the generation only when every one passes (each with its retries). A check that fails rolls the host back at once (nodegen confirm --expire on the host), as a lost connection does when its timer fires; its outcome is unhealthy (exit code 16)."
    example     = { http = { command = "curl -fsS http://127.0.0.1:8080/healthz", retries = 5 } }
  }
  option "beforeSwitch" {
    type        = listOf(submodule.deploymentHook)
    default     = []
    description = "Commands that nodegen deploy runs, in order, once the profile is copied to the host, before its keys are written and before its switch (not with --dry-run). One that fails stops that host before anything of its system changes: its outcome is hook-failed (exit code 17). mkBefore and mkAfter place a module's hooks."
  }
  option "afterSwitch" {
    type        = listOf(submodule.deploymentHook)
    default     = []
    description = "Commands that nodegen deploy runs, in order, once the new generation is active and before its health checks and its confirmation. One that fails rolls the host back at once: its outcome is hook-failed (exit code 17). The host's confirmation timeout (nodegen deploy --confirm-timeout) must cover these hooks and the health checks."
  }
  option "maxUnavailable" {
    type        = nullOr(ints.positive)
    default     = null
    description = "How many hosts nodegen deploy may have between their beforeSwitch hooks and their confirmation at once: each is counted as unavailable. The smallest of the deployed hosts' values, and of nodegen deploy --max-unavailable, applies to every wave; null sets no bound but --parallel."
  }
}

config {
  assertions = [
    for n, k in config.deployment.keys : {
      assertion = (k.text == null) != (k.keyFile == null)
      message   = "deployment.keys.${n}: set exactly one of text and keyFile"
    }
  ]
}
