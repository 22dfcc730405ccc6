# system.nodegen: nodegen on the host it configures. nodegen switch does
# not install nodegen; the units that run nodegen itself (kube-certs.service
# of easyCerts) run it from system.nodegen.path.

option "system.nodegen.path" {
  type        = str
  default     = "/usr/local/bin/nodegen"
  description = <<-EOT
    Where the nodegen executable is on the host: the units that run nodegen
    itself (kube-certs.service, which keeps the certificates of easyCerts)
    run it from there. nodegen switch does not install itself: copy the
    binary there (make build writes bin/nodegen), or point this at where the
    image has it.
  EOT
}
