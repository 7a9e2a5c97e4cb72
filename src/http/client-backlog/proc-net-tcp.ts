import { readFile } from 'node:fs/promises';
import { isIPv4, isIPv6 } from 'node:net';

/** Which table of the kernel lists a connection: `/proc/net/tcp` (IPv4) or `/proc/net/tcp6`. */
export type TcpTable = 'tcp' | 'tcp6';

/** A connection as the kernel's tables name it: `local remote` in their hex notation, and the table. */
export interface TcpConnectionKey {
  table: TcpTable;
  key: string;
}

/** Reads one table's text; the default reads the process's network namespace from /proc. */
export type TcpTableReader = (table: TcpTable) => Promise<string>;

export const readProcTcpTable: TcpTableReader = (table) => readFile(`/proc/self/net/${table}`, 'latin1');

/**
 * The key of the connection between local and remote in the kernel's table, or undefined for an address it
 * cannot name (a Unix socket has none). IPv4 sits in `tcp`; IPv6, IPv4-mapped IPv6 included (a server on `::`),
 * in `tcp6`.
 */
export function tcpConnectionKey(
  local: { address?: string; port?: number },
  remote: { address?: string; port?: number },
): TcpConnectionKey | undefined {
  if (!local.address || !remote.address || local.port === undefined || remote.port === undefined) return undefined;
  const localBytes = addressBytes(local.address);
  const remoteBytes = addressBytes(remote.address);
  if (!localBytes || !remoteBytes || localBytes.length !== remoteBytes.length) return undefined;
  return {
    table: localBytes.length === 4 ? 'tcp' : 'tcp6',
    key: `${procHex(localBytes)}:${portHex(local.port)} ${procHex(remoteBytes)}:${portHex(remote.port)}`,
  };
}

/**
 * The send queue (`tx_queue`: bytes written that the peer has not acknowledged) of each wanted connection
 * found in a table's text. Lines are `sl: local remote st tx_queue:rx_queue …`.
 */
export function parseSendQueues(text: string, wanted: ReadonlySet<string>, into: Map<string, number>): void {
  for (let start = text.indexOf('\n') + 1; start > 0 && start < text.length;) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end === -1 ? text.length : end);
    start = end + 1;
    const fields = line.trim().split(/\s+/, 5);
    if (fields.length < 5) continue;
    const key = `${fields[1]} ${fields[2]}`;
    if (!wanted.has(key)) continue;
    const tx = Number.parseInt(fields[4].slice(0, fields[4].indexOf(':')), 16);
    if (Number.isFinite(tx)) into.set(key, tx);
  }
}

function addressBytes(address: string): number[] | undefined {
  const bare = address.replace(/%.*$/, '');
  if (isIPv4(bare)) return bare.split('.').map(Number);
  if (!isIPv6(bare)) return undefined;
  return ipv6Bytes(bare);
}

function ipv6Bytes(address: string): number[] {
  // An embedded IPv4 tail (::ffff:127.0.0.1) is two groups.
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  let text = address;
  if (tail) {
    const [a, b, c, d] = tail[1].split('.').map(Number);
    text = `${address.slice(0, -tail[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = rest === undefined ? [] : rest ? rest.split(':') : [];
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.flatMap((group) => {
    const value = Number.parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
}

/** The tables print each 32-bit word of an address as a host-order (little-endian) number. */
function procHex(bytes: number[]): string {
  let hex = '';
  for (let word = 0; word < bytes.length; word += 4)
    for (let index = word + 3; index >= word; index -= 1) hex += bytes[index].toString(16).padStart(2, '0');
  return hex.toUpperCase();
}

function portHex(port: number): string {
  return port.toString(16).toUpperCase().padStart(4, '0');
}
