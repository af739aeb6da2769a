// Where spindle.cors may not go: cloud metadata endpoints, link-local and unspecified addresses, by name or by
// what the name resolves to. Loopback and private networks stay reachable (a local TTS or image server is what
// extensions fetch; Lumiverse's proxy allows them too). Each redirect hop is checked again. The lookup here and
// the connection's own are separate (a name that changes in between is not caught): pinning needs a socket-level
// lookup hook that fetch does not offer.
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { fail } from './handlers';

export type Lookup = (hostname: string) => Promise<string[]>;

export const systemLookup: Lookup = async (hostname) => (await dnsLookup(hostname, { all: true })).map((a) => a.address);

const BLOCKED_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata']);

function v4(ip: string): number {
  return ip.split('.').reduce((n, part) => ((n << 8) | Number(part)) >>> 0, 0);
}

/** Why a resolved address is refused, or null. */
export function deniedAddress(ip: string): string | null {
  const address = ip.toLowerCase().replace(/^\[|\]$/g, '');
  // IPv4-mapped IPv6, dotted or (as URL writes it) in hex: ::ffff:169.254.169.254 = ::ffff:a9fe:a9fe.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return deniedAddress(mapped[1]!);
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(address);
  if (hex) {
    const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
    return deniedAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  if (isIP(address) === 4) {
    const n = v4(address);
    if (n >>> 24 === 0) return 'an unspecified address (0.0.0.0/8)';
    if (n >>> 16 === 0xa9fe) return 'a link-local address (169.254.0.0/16, where cloud metadata lives)';
    if (n === v4('100.100.100.200')) return 'a cloud metadata address';
    return null;
  }
  if (isIP(address) === 6) {
    if (address === '::') return 'the unspecified address';
    if (/^fe[89ab]/.test(address)) return 'a link-local address (fe80::/10)';
    if (address === 'fd00:ec2::254') return 'a cloud metadata address';
  }
  return null;
}

/** Refuses a URL whose host is, or resolves to, a denied address (PERMISSION_DENIED on /url). */
export async function checkDestination(url: URL, lookup: Lookup): Promise<void> {
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (BLOCKED_NAMES.has(host)) fail('PERMISSION_DENIED', `spindle.cors does not fetch ${host} (a cloud metadata service).`, '/url');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await lookup(host);
  } catch (err) {
    return fail('LLM_UNREACHABLE', `Could not resolve ${host}: ${(err as NodeJS.ErrnoException).code ?? 'lookup failed'}.`, '/url');
  }
  for (const address of addresses) {
    const why = deniedAddress(address);
    if (why) fail('PERMISSION_DENIED', `spindle.cors does not fetch ${host}: it is ${why}.`, '/url');
  }
}
