import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// The baseline: node:http answering the same JSON the stack's health route returns.
const startedAt = Date.now();
const server = createServer((_req, res) => {
  const body = JSON.stringify({
    status: 'ok',
    service: 'tournaments',
    uptimeSeconds: Math.floor((Date.now() - startedAt) / 1000),
    time: new Date().toISOString(),
  });
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
});
// Exit on SIGTERM through process.exit, so a CPU profile (BENCH_CPU_PROF_DIR) is written.
process.on('SIGTERM', () => process.exit(0));
