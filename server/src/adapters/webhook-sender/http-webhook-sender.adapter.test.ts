import { describe, expect, it } from 'vitest';
import { HttpWebhookSenderAdapter, isForbiddenAddress, type ResolveAll } from './http-webhook-sender.adapter.js';

describe('webhook targets (SSRF)', () => {
  it('knows private, loopback, link-local and mapped addresses', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '100.64.0.1',
    ]) {
      expect(isForbiddenAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:8.8.8.8']) {
      expect(isForbiddenAddress(a), a).toBe(false);
    }
  });

  it('refuses private targets and plain http in production, allows them on the embedded defaults', async () => {
    const production = new HttpWebhookSenderAdapter({ allowPrivate: false, timeoutMs: 1_000 });
    expect(await production.checkTarget('https://127.0.0.1/hook')).toMatch(/private, loopback or link-local/);
    expect(await production.checkTarget('https://[::1]:8443/hook')).toMatch(/private, loopback or link-local/);
    expect(await production.checkTarget('https://localhost/hook')).toMatch(/private, loopback or link-local/);
    expect(await production.checkTarget('https://169.254.169.254/latest/meta-data')).toMatch(/link-local/);
    expect(await production.checkTarget('http://93.184.216.34/hook')).toMatch(/https/);
    expect(await production.checkTarget('https://user:pw@93.184.216.34/hook')).toMatch(/credentials/);
    expect(await production.checkTarget('https://93.184.216.34/hook')).toBeNull();
    await expect(production.post('https://127.0.0.1/hook', {}, '{}')).rejects.toThrow(/target refused/);
    const embedded = new HttpWebhookSenderAdapter({ allowPrivate: true, timeoutMs: 1_000 });
    expect(await embedded.checkTarget('http://127.0.0.1:9/hook')).toBeNull();
    expect(await embedded.checkTarget('file:///etc/passwd')).toMatch(/http\(s\)/);
  });

  it('refuses at connect time a host whose record changed to a private address after the check (DNS rebinding)', async () => {
    // Public when the target is checked, loopback when the connection looks it up.
    const answers = ['93.184.216.34', '127.0.0.1'];
    const asked: string[] = [];
    const resolve: ResolveAll = (hostname, _options, callback) => {
      asked.push(hostname);
      const address = answers.shift() ?? '127.0.0.1';
      queueMicrotask(() => callback(null, [{ address, family: 4 }]));
    };
    const production = new HttpWebhookSenderAdapter({ allowPrivate: false, timeoutMs: 2_000, resolve });
    const sent = production.post('https://rebind.example/hook', {}, '{}');
    await expect(sent).rejects.toThrow();
    const cause = await sent.catch((err: Error & { cause?: Error }) => err.cause?.message ?? err.message);
    expect(cause).toMatch(/rebind\.example resolves to a private, loopback or link-local address \(127\.0\.0\.1\)/);
    expect(asked).toEqual(['rebind.example', 'rebind.example']);
  });
});
