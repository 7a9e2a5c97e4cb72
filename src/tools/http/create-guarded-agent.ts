import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, buildConnector } from 'undici';
import type { AddressPolicy } from './address-policy.js';

/** A connection refused because of the address it would reach; the tool turns it into its error. */
export class RefusedAddressError extends Error {
  override readonly name = 'RefusedAddressError';
  constructor(
    readonly host: string,
    reason: string,
  ) {
    super(`host "${host}" refused: ${reason}`);
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * An undici Agent that checks every address it connects to with `policy`: an IP literal before
 * connecting, a name after DNS resolution, connecting only to the resolved addresses that passed (so a
 * second, different answer to the same name cannot slip through). Redirects use the same Agent.
 */
export function createGuardedAgent(policy: AddressPolicy): Agent {
  const lookup = (
    hostname: string,
    options: { family?: number; hints?: number; all?: boolean },
    callback: LookupCallback,
  ) => {
    dnsLookup(hostname, { family: options.family ?? 0, hints: options.hints, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const reasons: string[] = [];
      const passed = addresses.filter((entry) => {
        const reason = policy.refusal(entry.address);
        if (reason) reasons.push(reason);
        return !reason;
      });
      if (passed.length === 0)
        return callback(new RefusedAddressError(hostname, reasons[0] ?? 'it resolves to no address'), []);
      if (options.all) return callback(null, passed);
      return callback(null, passed[0].address, passed[0].family);
    });
  };
  const connect = buildConnector({ lookup } as buildConnector.BuildOptions);
  return new Agent({
    connect(options, callback) {
      const literal = options.hostname.replace(/^\[|\]$/g, '');
      const reason = isIP(literal) ? policy.refusal(literal) : undefined;
      if (reason) return callback(new RefusedAddressError(options.hostname, reason), null);
      return connect(options, callback);
    },
  });
}

/** The RefusedAddressError behind a failed fetch, if that is why it failed. */
export function refusedAddressOf(error: unknown): RefusedAddressError | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current instanceof RefusedAddressError) return current;
  }
  return undefined;
}
