# Tests of assertions and warnings (assertions.hcl).

run "a false assertion fails the evaluation with its message" {
  config {
    assertions = [
      { assertion = true, message = "never shown" },
      { assertion = false, message = "the widget needs a frobnicator" },
    ]
  }
  expect_error = "Assertion failed: the widget needs a frobnicator"
}

run "true assertions pass" {
  config {
    assertions = [{ assertion = 1 + 1 == 2, message = "arithmetic" }]
  }

  assert {
    condition     = length(config.assertions) == 1
    error_message = "the assertion is kept"
  }
}

run "warnings are collected" {
  config { warnings = ["first"] }
  config { warnings = ["second"] }

  assert {
    condition     = config.warnings == ["first", "second"]
    error_message = "warnings concatenate in definition order"
  }
}
