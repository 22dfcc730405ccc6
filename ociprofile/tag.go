package ociprofile

import (
	"fmt"
	"regexp"
	"strings"
)

// The names a tag is made of: a host's name is a DNS label or name, a
// channel's lower-case letters, digits and dashes. Neither holds "_",
// which joins them.
var (
	hostName    = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9.-]*$`)
	channelName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`)
)

// maxTag is the longest tag the OCI distribution spec allows.
const maxTag = 128

// Tag returns the tag of host's manifest in channel: HOST_CHANNEL.
func Tag(host, channel string) (string, error) {
	if err := CheckChannel(channel); err != nil {
		return "", err
	}
	if !hostName.MatchString(host) {
		return "", fmt.Errorf("host name %q: a registry tag holds letters, digits, dots and dashes only", host)
	}
	t := host + "_" + channel
	if len(t) > maxTag {
		return "", fmt.Errorf("host name %q: with the channel %q, longer than a tag's %d characters", host, channel, maxTag)
	}
	return t, nil
}

// CheckChannel says what is wrong with a channel's name, if anything.
func CheckChannel(channel string) error {
	if !channelName.MatchString(channel) {
		return fmt.Errorf("channel %q: want 1 to 32 lower-case letters, digits and dashes, beginning with a letter or digit", channel)
	}
	return nil
}

// SplitTag returns the host and channel of a tag that Tag made.
func SplitTag(tag string) (host, channel string, ok bool) {
	i := strings.LastIndexByte(tag, '_')
	if i <= 0 {
		return "", "", false
	}
	host, channel = tag[:i], tag[i+1:]
	return host, channel, hostName.MatchString(host) && channelName.MatchString(channel)
}
