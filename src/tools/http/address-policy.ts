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
 * IPv4-mapped IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it maps; IPv4-compatible IPv6 (::/96, deprecated:
 * `::7f00:1` is `::127.0.0.1`), which ipaddr.js calls unicast, is refused with the other embedded forms.
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
      const range = rangeOf(parsed);
      if (range === 'unicast') return undefined;
      const article = /^[aeiou]/i.test(range) ? 'an' : 'a';
      return `${parsed.toString()} is ${article} ${range} address; list it (or its range) in ${setting} to reach it`;
    },
  };
}

const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/** ipaddr.js's range, with `::/96` told apart (`::` and `::1` keep theirs: unspecified, loopback). */
function rangeOf(address: ipaddr.IPv4 | ipaddr.IPv6): string {
  const range = address.range();
  if (range === 'unicast' && address.kind() === 'ipv6' && address.match(IPV4_COMPATIBLE)) return 'ipv4Compatible';
  return range;
}

/** `10.0.0.0/8`, `::1/128`, or a single address (`127.0.0.1`); the config schema has checked the syntax. */
function parseRange(entry: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  if (entry.includes('/')) return ipaddr.parseCIDR(entry);
  const address = ipaddr.parse(entry);
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}
