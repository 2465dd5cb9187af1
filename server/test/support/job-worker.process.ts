/**
 * A job worker in its own process, for tests that kill it: a JobEngine on JOB_ENGINE_OPTIONS
 * (JSON), which adds one job to JOB_QUEUE, takes it, announces it and never finishes it.
 */
import { createLogger } from '../../src/logger.js';
import { JobEngine, type JobEngineOptions } from '../../src/platform/jobs/job-engine.js';
import { announceReady } from './processes.js';

const options = JSON.parse(process.env['JOB_ENGINE_OPTIONS'] ?? '{}') as Omit<JobEngineOptions, 'logger'>;
const queue = process.env['JOB_QUEUE'] ?? 'stalled';
const engine = await JobEngine.start({ ...options, logger: createLogger('silent') } as JobEngineOptions);
engine.work<{ n: string }>({
  queue,
  handler: async (data, job) => {
    announceReady({ taken: data.n, jobId: job.id });
    await new Promise(() => undefined);
  },
});
await engine.add(queue, 'hang', { n: 'left-running' }, { jobId: 'left-running' });
