package lib

import (
	"net/netip"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// CIDRContainsFunc is cidrcontains(containing_prefix, contained_ip_or_prefix),
// as Terraform's and OpenTofu's: whether the address, or every address of
// the prefix, lies within the prefix. An address of the other family (IPv4
// in an IPv6 prefix, or the reverse) is an error, not false: compare
// addresses of one family (strcontains(a, ":") tells IPv6).
var CIDRContainsFunc = native(&function.Spec{
	Description: "Returns whether the IP address or prefix in the second argument lies within the CIDR prefix in the first. Both are of one address family.",
	Params: []function.Parameter{
		{Name: "containing_prefix", Type: cty.String},
		{Name: "contained_ip_or_prefix", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		outer, err := netip.ParsePrefix(args[0].AsString())
		if err != nil {
			return cty.NilVal, function.NewArgErrorf(0, "%q is not a CIDR prefix (such as 10.0.0.0/24 or fd00::/108)", args[0].AsString())
		}
		outer = outer.Masked()
		s := args[1].AsString()
		var inner netip.Prefix
		if strings.Contains(s, "/") {
			if inner, err = netip.ParsePrefix(s); err != nil {
				return cty.NilVal, function.NewArgErrorf(1, "%q is not a CIDR prefix", s)
			}
		} else {
			a, err := netip.ParseAddr(s)
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(1, "%q is not an IP address", s)
			}
			inner = netip.PrefixFrom(a.WithZone(""), a.BitLen())
		}
		if inner.Addr().Is4() != outer.Addr().Is4() {
			return cty.NilVal, function.NewArgErrorf(1, "%s is %s and %s is %s: compare addresses of one family", s, family(inner.Addr()), outer, family(outer.Addr()))
		}
		return cty.BoolVal(inner.Bits() >= outer.Bits() && outer.Contains(inner.Masked().Addr())), nil
	},
})

// family names the address family of a.
func family(a netip.Addr) string {
	if a.Is4() {
		return "IPv4"
	}
	return "IPv6"
}
