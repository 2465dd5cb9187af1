import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';

// The framework floor: plain Express 4 with no middleware, answering the same JSON.
const startedAt = Date.now();
const app = express();
app.disable('etag');
app.disable('x-powered-by');
app.get('/api/tournaments/health', (_req, res) => {
  res.json({
    status: 'ok',
    service: 'tournaments',
    uptimeSeconds: Math.floor((Date.now() - startedAt) / 1000),
    time: new Date().toISOString(),
  });
});
const server = createServer(app);
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
});
// Exit on SIGTERM through process.exit, so a CPU profile (BENCH_CPU_PROF_DIR) is written.
process.on('SIGTERM', () => process.exit(0));
