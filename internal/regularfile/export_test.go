package regularfile

// ReadFastOS is readFastOS, for the test that holds it to the rules.
var ReadFastOS = readFastOS
