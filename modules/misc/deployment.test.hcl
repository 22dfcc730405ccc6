# Tests of the deployment options (deployment.hcl).

run "a key needs text or keyFile" {
  config {
    deployment = { keys = { db = { permissions = "0400" } } }
  }
  expect_error = "deployment.keys.db: set exactly one of text and keyFile"
}

run "a key cannot have both text and keyFile" {
  config {
    deployment = { keys = { db = { text = "s3cret", keyFile = "/secrets/db" } } }
  }
  expect_error = "deployment.keys.db: set exactly one of text and keyFile"
}

run "keys default to root-owned 0600 files in /run/keys, and write no file" {
  config {
    deployment = { keys = { db = { text = "s3cret" } } }
  }

  assert {
    condition     = config.deployment.keys.db.destDir == "/run/keys" && config.deployment.keys.db.permissions == "0600" && config.deployment.keys.db.user == "root"
    error_message = "the defaults of a key"
  }
  assert {
    condition     = length([for p, e in config.environment.etc : p if strcontains(e.text, "s3cret")]) == 0
    error_message = "a key's text is written into no /etc file"
  }
}
