# A package the profile lists, not in the stock root: nodegen switch
# installs it in the machine, through the run's package proxy
# (machinerun_test.go checks that the root on disk lacks it).

machine "m" {
  config "environment.packages.hello" {}
}

run "packages" {
  machines = ["m"]
  step "m" {
    succeed         = "hello; dpkg-query -W -f '$${Status}' hello"
    output_contains = "Hello, world!\ninstall ok installed"
  }
}
