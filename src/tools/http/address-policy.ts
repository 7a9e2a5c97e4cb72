import ipaddr from 'ipaddr.js';

/** Which resolved addresses a tool may connect to. */
export interface AddressPolicy {
  /** Undefined when `address` may be reached; otherwise why not, for the tool's error. */
  refusal(address: string): string | undefined;
}

/**
 * Only public unicast addresses, plus the ranges `allowPrivate` names (`setting` is where users list them). Everything else —
 * loopback, private, link-local (cloud metadata), unique-local, carrier-grade NAT, multicast, broadcast,
 * unspecified, reserved, and IPv6 forms that embed an IPv4 address (6to4, NAT64, Teredo) — is refused.
 * IPv4-mapped IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it maps.
 */
export function createAddressPolicy(
  allowPrivate: readonly string[],
  setting = "the tool's allow_private",
): AddressPolicy {
  const allowed = allowPrivate.map(parseRange);
  return {
    refusal(address) {
      if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
      const parsed = ipaddr.process(address);
      if (allowed.some(([network, bits]) => network.kind() === parsed.kind() && parsed.match(network, bits)))
        return undefined;
      const range = parsed.range();
      if (range === 'unicast') return undefined;
      return `${parsed.toString()} is a ${range} address; list it (or its range) in ${setting} to reach it`;
    },
  };
}

/** `10.0.0.0/8`, `::1/128`, or a single address (`127.0.0.1`); the config schema has checked the syntax. */
function parseRange(entry: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  if (entry.includes('/')) return ipaddr.parseCIDR(entry);
  const address = ipaddr.parse(entry);
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}
