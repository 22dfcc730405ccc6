package profilecheck

import "strings"

// stockUnits are the units a stock Debian (12) or Flatcar system has
// without any profile: systemd's own (systemd.special(7) and the units
// systemd ships), and those of the packages either installs by default
// (Flatcar ships docker and containerd; Debian dbus, cron, ssh). A profile
// may name them in Requires=, BindsTo= and Requisite= without writing
// them.
var stockUnits = setOf(
	// systemd.special(7) targets, slices and others.
	"basic.target", "blockdev@.target", "bluetooth.target", "boot-complete.target",
	"cryptsetup-pre.target", "cryptsetup.target", "ctrl-alt-del.target",
	"default.target", "emergency.target", "exit.target", "factory-reset.target",
	"final.target", "first-boot-complete.target", "getty-pre.target", "getty.target",
	"graphical.target", "halt.target", "hibernate.target", "hybrid-sleep.target",
	"initrd-fs.target", "initrd-root-device.target", "initrd-root-fs.target",
	"initrd-switch-root.target", "initrd.target", "integritysetup-pre.target",
	"integritysetup.target", "kexec.target", "local-fs-pre.target", "local-fs.target",
	"machines.target", "multi-user.target", "network-online.target",
	"network-pre.target", "network.target", "nss-lookup.target",
	"nss-user-lookup.target", "paths.target", "poweroff.target", "printer.target",
	"reboot.target", "remote-cryptsetup.target", "remote-fs-pre.target",
	"remote-fs.target", "remote-veritysetup.target", "rescue.target",
	"rpcbind.target", "shutdown.target", "sigpwr.target", "sleep.target",
	"slices.target", "smartcard.target", "sockets.target", "sound.target",
	"suspend-then-hibernate.target", "suspend.target", "swap.target",
	"sysinit.target", "system-update-pre.target", "system-update.target",
	"time-set.target", "time-sync.target", "timers.target", "umount.target",
	"usb-gadget.target", "veritysetup-pre.target", "veritysetup.target",
	"-.slice", "system.slice", "user.slice", "machine.slice", "-.mount",
	"dbus.service", "dbus.socket", "syslog.socket",
	// systemd's services and sockets.
	"systemd-journald.service", "systemd-journald.socket", "systemd-journald-dev-log.socket",
	"systemd-journald-audit.socket", "systemd-journal-flush.service",
	"systemd-udevd.service", "systemd-udevd-control.socket", "systemd-udevd-kernel.socket",
	"systemd-udev-trigger.service", "systemd-udev-settle.service",
	"systemd-networkd.service", "systemd-networkd.socket", "systemd-networkd-wait-online.service",
	"systemd-resolved.service", "systemd-timesyncd.service", "systemd-time-wait-sync.service",
	"systemd-logind.service", "systemd-hostnamed.service", "systemd-localed.service",
	"systemd-timedated.service", "systemd-machined.service", "systemd-user-sessions.service",
	"systemd-tmpfiles-setup.service", "systemd-tmpfiles-setup-dev.service",
	"systemd-tmpfiles-clean.service", "systemd-tmpfiles-clean.timer",
	"systemd-sysusers.service", "systemd-modules-load.service", "systemd-sysctl.service",
	"systemd-remount-fs.service", "systemd-random-seed.service", "systemd-fsck-root.service",
	"systemd-fsck@.service", "systemd-update-utmp.service", "systemd-machine-id-commit.service",
	"systemd-firstboot.service", "systemd-binfmt.service", "systemd-repart.service",
	"systemd-pstore.service", "systemd-oomd.service", "systemd-oomd.socket",
	"systemd-userdbd.service", "systemd-userdbd.socket", "systemd-homed.service",
	"systemd-boot-update.service", "systemd-journald@.service", "systemd-journald@.socket",
	"getty@.service", "serial-getty@.service", "console-getty.service", "user@.service",
	"user-runtime-dir@.service", "modprobe@.service", "emergency.service", "rescue.service",
	"tmp.mount", "dev-hugepages.mount", "dev-mqueue.mount", "sys-kernel-debug.mount",
	"sys-kernel-tracing.mount", "sys-fs-fuse-connections.mount", "sys-kernel-config.mount",
	"proc-sys-fs-binfmt_misc.automount", "proc-sys-fs-binfmt_misc.mount",
	// Debian's default packages.
	"cron.service", "ssh.service", "ssh.socket", "ssh@.service", "networking.service",
	"ifup@.service", "apt-daily.service", "apt-daily.timer", "apt-daily-upgrade.service",
	"apt-daily-upgrade.timer", "e2scrub_reap.service", "rsyslog.service", "logrotate.service",
	"logrotate.timer", "man-db.timer", "dpkg-db-backup.timer",
	// Flatcar's.
	"docker.service", "docker.socket", "containerd.service", "sshd.service", "sshd.socket",
	"sshd@.service", "locksmithd.service", "update-engine.service", "coreos-metadata.service",
	"ignition-firstboot-complete.service", "ntpd.service", "chronyd.service", "iscsid.service",
	"iscsid.socket", "var-lib-docker.mount", "usr.mount", "etcd-member.service",
	"flanneld.service", "afterburn.service", "afterburn-sshkeys@.service",
)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// templateOf returns the template of an instance name ("getty@.service"
// for "getty@tty1.service"), or "" when name is not an instance.
func templateOf(name string) string {
	dot := strings.LastIndexByte(name, '.')
	at := strings.IndexByte(name, '@')
	if dot < 0 || at < 0 || at > dot || at == dot-1 {
		return ""
	}
	return name[:at+1] + name[dot:]
}
