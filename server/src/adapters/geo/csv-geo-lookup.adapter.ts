import { readFileSync } from 'node:fs';
import { isIPv4, isIPv6 } from 'node:net';
import type { GeoLookupPort, GeoRequest } from './geo.port.js';

function ipToBigInt(ip: string): { v: 4 | 6; n: bigint } | null {
  const bare = ip.startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  if (isIPv4(bare)) {
    return { v: 4, n: bare.split('.').reduce((acc, part) => (acc << 8n) + BigInt(Number(part)), 0n) };
  }
  if (!isIPv6(bare)) return null;
  const [head = '', tail = ''] = bare.split('::');
  const h = head ? head.split(':') : [];
  const t = bare.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = bare.includes('::') ? [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t] : h;
  return { v: 6, n: groups.reduce((acc, g) => (acc << 16n) + BigInt(parseInt(g || '0', 16)), 0n) };
}

interface Range {
  start: bigint;
  end: bigint;
  country: string;
}

/**
 * Offline GeoIP from a CSV of `start_ip,end_ip,country` rows (the common "IP to country lite"
 * layout), searched by binary search. No network at request time.
 */
export class CsvGeoLookup implements GeoLookupPort {
  private readonly v4: Range[] = [];
  private readonly v6: Range[] = [];

  constructor(csv: string) {
    for (const line of csv.split(/\r?\n/)) {
      const [start, end, country] = line.split(',').map((s) => s.trim().replace(/^"|"$/g, ''));
      if (!start || !end || !country || !/^[A-Za-z]{2}$/.test(country)) continue;
      const a = ipToBigInt(start);
      const b = ipToBigInt(end);
      if (!a || !b || a.v !== b.v) continue;
      (a.v === 4 ? this.v4 : this.v6).push({ start: a.n, end: b.n, country: country.toUpperCase() });
    }
    const byStart = (x: Range, y: Range) => (x.start < y.start ? -1 : x.start > y.start ? 1 : 0);
    this.v4.sort(byStart);
    this.v6.sort(byStart);
  }

  static fromFile(path: string): CsvGeoLookup {
    return new CsvGeoLookup(readFileSync(path, 'utf8'));
  }

  countryOf(req: GeoRequest): string | null {
    const ip = req.ip && ipToBigInt(req.ip);
    if (!ip) return null;
    const ranges = ip.v === 4 ? this.v4 : this.v6;
    let lo = 0;
    let hi = ranges.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const r = ranges[mid] as Range;
      if (ip.n < r.start) hi = mid - 1;
      else if (ip.n > r.end) lo = mid + 1;
      else return r.country;
    }
    return null;
  }
}
