# assertions and warnings as NixOS modules declare them: lists that any
# module adds to, checked when the profile is written.

submodule "assertion" {
  option "assertion" {
    type        = bool
    description = "What must hold."
  }
  option "message" {
    type        = str
    description = "What to say when it does not."
  }
}

option "assertions" {
  type        = listOf(submodule.assertion)
  default     = []
  description = "Conditions the configuration must meet; each failure is an error with its message."
  example     = [{ assertion = false, message = "you can't enable this for that reason" }]
}

option "warnings" {
  type        = listOf(str)
  default     = []
  description = "Warnings printed when the configuration is evaluated."
}

assert {
  condition = alltrue([for a in config.assertions : a.assertion])
  message   = [for a in config.assertions : a.message if !a.assertion]
}

warning {
  condition = length(config.warnings) > 0
  message   = config.warnings
}
