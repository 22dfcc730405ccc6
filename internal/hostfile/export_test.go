package hostfile

// ReadRegularOS is readRegularOS, for the test that holds it to the rules.
var ReadRegularOS = readRegularOS
