# services.nodegen.pull: the host pulls its signed profile from an OCI
# registry on a timer (nodegen pull; docs/pulling.md), the role NixOS's
# system.autoUpgrade (tasks/auto-upgrade.nix) plays for a NixOS host that
# builds its own configuration. nodegen publish pushes the profiles; each
# host fetches its own, checks its signature against the keys the running
# generation trusts (these options), its serial and its expiry, switches
# with a rollback timer and confirms itself when its health checks pass.

options "services.nodegen.pull" {
  option "enable" {
    type        = bool
    default     = false
    description = "Whether the host pulls its profile from an OCI registry: a timer runs nodegen pull, which switches to a newer profile published for this host and channel (nodegen publish), signed by a trusted key."
  }
  option "registry" {
    type        = str
    default     = ""
    description = "The fleet's repository, HOST[:PORT]/NAME, as nodegen publish --registry names it."
    example     = "registry.example.org/fleet"
  }
  option "channel" {
    type        = strMatching("[a-z0-9][a-z0-9-]{0,31}", "channel name")
    default     = "stable"
    description = "The channel the host follows: it pulls the manifest tagged HOST_CHANNEL. Waves are channels: nodegen promote moves a host's manifest from one to the next."
  }
  option "host" {
    type         = str
    default      = config.networking.hostName
    default_text = "config.networking.hostName"
    description  = "The host's name in the registry's tags: the name of its host file, which nodegen publish uses."
  }
  option "plainHTTP" {
    type        = bool
    default     = false
    description = "Whether to talk to the registry over plain HTTP (a registry on the loopback address or a trusted network), not HTTPS. The content is verified by its signature either way."
  }
  option "trustedKeys" {
    type        = listOf(str)
    default     = []
    description = "The ed25519 public keys (PEM, \"openssl pkey -pubout\") a profile must be signed with. They are the running generation's: a new key is trusted only once a generation signed by a key trusted now lists it (key rotation)."
  }
  option "interval" {
    type        = str
    default     = "5min"
    description = "How long after one pull ended the next one starts (OnUnitInactiveSec of the timer, a systemd time span)."
  }
  option "jitter" {
    type        = str
    default     = "1min"
    description = "A random delay of up to this span added to each pull (RandomizedDelaySec), so that a fleet does not ask the registry all at once."
  }
  option "healthChecks" {
    type         = attrsOf(submodule.deploymentHealthCheck)
    default      = config.deployment.healthChecks
    default_text = "config.deployment.healthChecks"
    description  = "Checks nodegen pull runs on the host, in the order of their names, once a pulled generation is active: the host confirms the generation only when every one passes, else it goes back at once. The new profile's checks run, as deploy runs the new profile's."
  }
  option "confirmTimeout" {
    type        = ints.unsigned
    default     = 0
    description = "Seconds a pulled generation may wait for its health checks before its rollback timer fires; 0 computes it from the checks' timeouts and retries."
  }
}

locals {
  pullCfg = config.services.nodegen.pull
}

config "environment.etc.\"nodegen/pull.json\"" {
  when   = local.pullCfg.enable
  origin = "services.nodegen.pull"
  text = "${jsonencode({
    registry       = local.pullCfg.registry
    channel        = local.pullCfg.channel
    host           = local.pullCfg.host
    plainHTTP      = local.pullCfg.plainHTTP
    trustedKeys    = local.pullCfg.trustedKeys
    healthChecks   = local.pullCfg.healthChecks
    confirmTimeout = local.pullCfg.confirmTimeout
  })}\n"
}

# The switch that nodegen pull runs must not stop or restart the unit that
# runs it: a changed unit takes effect at the next pull.
config "systemd.services.nodegen-pull" {
  when             = local.pullCfg.enable
  description      = "nodegen pull from ${local.pullCfg.registry}"
  wants            = ["network-online.target"]
  after            = ["network-online.target"]
  restartIfChanged = false
  serviceConfig = {
    Type            = "oneshot"
    ExecStart       = "${config.system.nodegen.path} pull"
    TimeoutStartSec = "1h"
  }
}

# AccuracySec: systemd's default (1min) lets a timer fire up to a minute
# late, to coalesce wake-ups; the interval is what the operator wrote, and
# the jitter already spreads a fleet's pulls.
config "systemd.timers.nodegen-pull" {
  when     = local.pullCfg.enable
  wantedBy = ["timers.target"]
  timerConfig = {
    OnBootSec          = "1min"
    OnUnitInactiveSec  = local.pullCfg.interval
    RandomizedDelaySec = local.pullCfg.jitter
    AccuracySec        = "1s"
  }
}

config {
  when = local.pullCfg.enable
  assertions = [
    {
      assertion = local.pullCfg.registry != ""
      message   = "services.nodegen.pull.registry: set the fleet's repository (HOST[:PORT]/NAME); services.nodegen.pull.enable needs it"
    },
    {
      assertion = length(local.pullCfg.trustedKeys) > 0
      message   = "services.nodegen.pull.trustedKeys: set at least one public key; a host that trusts none refuses every profile"
    },
    {
      assertion = local.pullCfg.host != ""
      message   = "services.nodegen.pull.host: set the host's name in the registry's tags (networking.hostName is empty)"
    },
  ]
}
