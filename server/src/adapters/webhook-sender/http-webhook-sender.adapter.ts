import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { WebhookResponse, WebhookSenderPort } from './webhook-sender.port.js';

/** Addresses a production server never sends to: private, loopback, link-local, CGNAT, unspecified, multicast. */
const FORBIDDEN = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  FORBIDDEN.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  FORBIDDEN.addSubnet(net, prefix, 'ipv6');
}

/** Whether `address` (an IP literal) is one a production server must not send to. */
export function isForbiddenAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return FORBIDDEN.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return FORBIDDEN.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** `dns.lookup` with `all: true`: every address of a host (tests give their own resolver). */
export type ResolveAll = (hostname: string, options: LookupAllOptions, callback: LookupAllCallback) => void;
type LookupAllCallback = (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void;

export interface HttpWebhookSenderOptions {
  /** Embedded defaults: loopback and private targets allowed (local receivers, tests). */
  readonly allowPrivate: boolean;
  readonly timeoutMs: number;
  readonly resolve?: ResolveAll;
}

const systemResolve: ResolveAll = (hostname, options, callback) => dnsLookup(hostname, options, callback);

const forbiddenIn = (addresses: readonly LookupAddress[]) => addresses.find((a) => isForbiddenAddress(a.address));

/**
 * Deliveries over node:http(s), not fetch from the undici package: loading that package makes its
 * own agent the dispatcher of Node's global fetch for the whole process. SSRF: in production the target's every resolved address is
 * checked before each send (not only at registration, so a DNS record changed later is caught),
 * and again in the connection's own lookup, on the addresses it connects to: a record that changes
 * between the check and the connection (DNS rebinding) cannot reach a private address. Only
 * http(s) is allowed (https only in production), and redirects are never followed.
 */
export class HttpWebhookSenderAdapter implements WebhookSenderPort {
  private readonly resolve: ResolveAll;

  constructor(private readonly options: HttpWebhookSenderOptions) {
    this.resolve = options.resolve ?? systemResolve;
  }

  /** The connection's lookup: the host's addresses, or an error when any of them is forbidden. */
  private readonly guardedLookup: LookupFunction = (hostname, options, callback) => {
    this.resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const bad = forbiddenIn(addresses);
      if (bad) {
        const refused: NodeJS.ErrnoException = new Error(
          `target refused: ${hostname} resolves to a private, loopback or link-local address (${bad.address})`,
        );
        refused.code = 'EADDRNOTAVAIL';
        return callback(refused, []);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };

  private resolveAll(host: string): Promise<LookupAddress[]> {
    return new Promise((resolve, reject) =>
      this.resolve(host, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
    );
  }

  async checkTarget(raw: string): Promise<string | null> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return 'not a URL';
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'only http(s) URLs receive deliveries';
    if (url.username || url.password) return 'credentials in the URL are not allowed';
    if (this.options.allowPrivate) return null;
    if (url.protocol !== 'https:') return 'production endpoints must use https';
    const host = url.hostname.replace(/^\[|\]$/g, '');
    let addresses: LookupAddress[];
    try {
      addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await this.resolveAll(host);
    } catch {
      return `the host ${host} does not resolve`;
    }
    const bad = forbiddenIn(addresses);
    return bad ? `the host resolves to a private, loopback or link-local address (${bad.address})` : null;
  }

  async post(url: string, headers: Readonly<Record<string, string>>, body: string): Promise<WebhookResponse> {
    const refusal = await this.checkTarget(url);
    if (refusal) throw new Error(`target refused: ${refusal}`);
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(
        target,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Duelkit-Webhooks/1',
            ...headers,
            'content-length': Buffer.byteLength(body),
          },
          signal: AbortSignal.timeout(this.options.timeoutMs),
          ...(this.options.allowPrivate ? {} : { lookup: this.guardedLookup }),
        },
        (res) => {
          // Only the status counts; the body is read and dropped so the connection can be reused.
          res.resume();
          resolve({ status: res.statusCode ?? 0 });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }
}
