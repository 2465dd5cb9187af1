import {
  createPostgresBackend,
  Queue as RedisQueue,
  runMigrations,
  withBackend,
  Worker as RedisWorker,
  type Job,
  type PgPool,
  type Processor,
  type WorkerOptions,
} from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { Logger } from '../../logger.js';
import { systemClock } from '../clock.js';

const Pg = withBackend(createPostgresBackend);

/** What the engine uses of a queue, the same on either backend. */
interface EngineQueue {
  add(name: string, data: object, opts: object): Promise<Job>;
  upsertJobScheduler(
    id: string,
    repeat: { every: number },
    template: { name: string; data: object; opts: object },
  ): Promise<unknown>;
  getJobCounts(...types: ('completed' | 'failed')[]): Promise<Record<string, number>>;
  on(event: 'error', listener: (err: Error) => void): unknown;
  close(): Promise<void>;
}

interface EngineWorker {
  on(event: 'failed', listener: (job: Job | undefined, err: Error) => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  close(): Promise<void>;
}

type WorkerTuning = Pick<WorkerOptions, 'concurrency' | 'drainDelay' | 'lockDuration' | 'stalledInterval'>;

/** Builds queues and workers on one backend and owns its connections. */
interface Backend {
  queue(name: string): EngineQueue;
  worker(name: string, processor: Processor, tuning: WorkerTuning): EngineWorker;
  close(): Promise<void>;
}

export interface PostgresJobEngineOptions {
  readonly backend?: 'postgres';
  readonly databaseUrl: string;
  /** Connections for all queues and workers together (each worker also holds one to listen). */
  readonly poolMax: number;
  /** On the embedded database NOTIFY never arrives, so workers poll every second. */
  readonly embedded: boolean;
  readonly logger: Logger;
}

export interface RedisJobEngineOptions {
  readonly backend: 'redis';
  readonly redisUrl: string;
  /** Namespaces every key of every queue: the queues of one database, never another's. */
  readonly prefix: string;
  readonly logger: Logger;
}

export type JobEngineOptions = PostgresJobEngineOptions | RedisJobEngineOptions;

export type JobHandler<T> = (data: T, job: Job<T>) => Promise<void>;

/** How many runs of scheduled tasks a queue keeps, per outcome (see `JobEngine.every`). */
export const SCHEDULED_KEPT = { completed: 20, failed: 1_000 } as const;

/** How long a failed job is kept, seconds: a week, for any job. */
const FAILED_KEPT_S = 7 * 24 * 3600;

export interface WorkerSpec<T> {
  readonly queue: string;
  readonly handler: JobHandler<T>;
  readonly concurrency?: number;
}

async function postgresBackend(options: PostgresJobEngineOptions): Promise<Backend> {
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.poolMax,
    keepAlive: true,
    // Ignored by the embedded database, where the search_path is set on the instance itself.
    options: '-c search_path=bullmq,public',
  });
  pool.setMaxListeners(0);
  pool.on('error', (err) => options.logger.warn({ err: err.message }, 'job engine pool error'));
  const client = await pool.connect();
  try {
    await runMigrations(client, 'bullmq');
  } finally {
    client.release();
  }
  // BullMQ types the pool structurally; node-postgres' Pool satisfies it at run time.
  const connection = pool as unknown as PgPool;
  return {
    queue: (name) => new Pg.Queue(name, { connection }),
    worker: (name, processor, tuning) =>
      new Pg.Worker(name, processor, {
        connection,
        ...tuning,
        drainDelay: options.embedded ? 1 : (tuning.drainDelay ?? 5),
      }),
    close: () => pool.end(),
  };
}

/** How long the engine waits for Redis to answer when it starts. */
const REDIS_START_WAIT_MS = 5_000;

/** Between two attempts to start on a Redis that did not answer (`retryUntilStarted`). */
const START_RETRY_MS = 2_000;

/** The engine could not start: its Redis did not answer within `REDIS_START_WAIT_MS`. */
export class JobBackendUnavailableError extends Error {
  override readonly name = 'JobBackendUnavailableError';
}

/**
 * Calls `start` every `START_RETRY_MS` until it succeeds and hands what it started to `started`
 * (the jobs of an instance whose Redis was away at start). `stop` ends the attempts, after the
 * one under way.
 */
export function retryUntilStarted(
  start: () => Promise<JobEngine>,
  started: (engine: JobEngine) => void,
  logger: Logger,
): { stop(): Promise<void> } {
  let stopped = false;
  let wake: () => void = () => undefined;
  const attempts = (async () => {
    while (!stopped) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, START_RETRY_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (stopped) return;
      try {
        started(await start());
        return;
      } catch (err) {
        logger.warn({ err: (err as Error).message }, 'background jobs did not start; trying again');
      }
    }
  })();
  return {
    async stop() {
      stopped = true;
      wake();
      await attempts;
    },
  };
}

async function redisBackend(options: RedisJobEngineOptions): Promise<Backend> {
  const warn = (err: Error) => options.logger.warn({ err: err.message }, 'job engine redis error');
  // Queues add jobs on behalf of requests, so a command gives up after ioredis' usual retries
  // rather than holding a request while Redis is away.
  const producer = new Redis(options.redisUrl, { connectionName: 'duelkit-jobs' });
  // Workers wait out an outage: BullMQ requires unlimited retries on the connections they block on
  // (each worker duplicates this one for its blocking reads).
  const consumer = new Redis(options.redisUrl, { connectionName: 'duelkit-workers', maxRetriesPerRequest: null });
  producer.on('error', warn);
  consumer.on('error', warn);
  // Without a bound, the producer's first command would be retried for about ten seconds and then
  // fail start-up, and the consumer's would wait for ever.
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      Promise.all([producer.ping(), consumer.ping()]),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${REDIS_START_WAIT_MS} ms`)), REDIS_START_WAIT_MS);
      }),
    ]);
  } catch (err) {
    producer.disconnect();
    consumer.disconnect();
    throw new JobBackendUnavailableError(`Redis did not answer the job engine: ${(err as Error).message}`, {
      cause: err,
    });
  } finally {
    clearTimeout(timer);
  }
  return {
    queue: (name) => new RedisQueue(name, { connection: producer, prefix: options.prefix }),
    worker: (name, processor, tuning) =>
      new RedisWorker(name, processor, { connection: consumer, prefix: options.prefix, ...tuning }),
    async close() {
      await Promise.all([producer, consumer].map((c) => c.quit().catch(() => c.disconnect())));
    },
  };
}

/**
 * Durable background work on BullMQ: on its PostgreSQL backend (the embedded database and
 * deployments without Redis; one pg.Pool across every queue and worker) or on its Redis backend
 * (one connection for the queues, one the workers duplicate). Delivery is at least once on both,
 * so every handler's effect must be idempotent (unique keys in the database).
 */
export class JobEngine {
  private readonly queues = new Map<string, EngineQueue>();
  private readonly workers: EngineWorker[] = [];

  private constructor(
    private readonly backend: Backend,
    private readonly logger: Logger,
  ) {}

  static async start(options: JobEngineOptions): Promise<JobEngine> {
    const backend = options.backend === 'redis' ? await redisBackend(options) : await postgresBackend(options);
    return new JobEngine(backend, options.logger);
  }

  private queue(name: string): EngineQueue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = this.backend.queue(name);
      // A connection lost under a queue is reported here; without a listener BullMQ prints the
      // whole client object to stderr.
      queue.on('error', (err) => this.logger.warn({ err: err.message, queue: name }, 'job queue error'));
      this.queues.set(name, queue);
    }
    return queue;
  }

  /** Adds a job; a `jobId` makes the add itself idempotent. */
  async add<T extends object>(
    queue: string,
    name: string,
    data: T,
    opts: { jobId?: string; delay?: number } = {},
  ): Promise<Job> {
    return this.queue(queue).add(name, data, {
      attempts: 8,
      backoff: { type: 'exponential', delay: 1_000 },
      removeOnComplete: { age: 24 * 3600, count: 10_000 },
      removeOnFail: { age: FAILED_KEPT_S },
      ...opts,
    });
  }

  /**
   * Runs `name` on `queue` every `everyMs`, once across all instances. Of the runs, a queue keeps
   * its last `SCHEDULED_KEPT.completed` completed ones and failed ones for a week: a task every
   * second would otherwise leave 86,400 jobs a day in the backend (BullMQ keeps every completed
   * job of a scheduler unless told otherwise).
   */
  async every<T extends object>(queue: string, name: string, everyMs: number, data: T): Promise<void> {
    await this.queue(queue).upsertJobScheduler(
      name,
      { every: everyMs },
      {
        name,
        data,
        opts: {
          removeOnComplete: { count: SCHEDULED_KEPT.completed },
          removeOnFail: { age: FAILED_KEPT_S, count: SCHEDULED_KEPT.failed },
        },
      },
    );
  }

  /** How many completed and failed jobs `queue` holds. */
  async held(queue: string): Promise<{ completed: number; failed: number }> {
    const counts = await this.queue(queue).getJobCounts('completed', 'failed');
    return { completed: counts['completed'] ?? 0, failed: counts['failed'] ?? 0 };
  }

  work<T>(spec: WorkerSpec<T>): void {
    const worker = this.backend.worker(
      spec.queue,
      async (job: Job) => {
        await spec.handler(job.data as T, job as Job<T>);
      },
      { concurrency: spec.concurrency ?? 1, drainDelay: 5, lockDuration: 10_000, stalledInterval: 5_000 },
    );
    worker.on('failed', (job, err) =>
      this.logger.warn({ queue: spec.queue, jobId: job?.id, err: err.message }, 'job failed'),
    );
    worker.on('error', (err) => this.logger.warn({ queue: spec.queue, err: err.message }, 'worker error'));
    this.workers.push(worker);
  }

  /**
   * Stops taking jobs and waits for the running ones until `deadline` (epoch ms); a job still
   * running then is left to the stalled-job check, which hands it to another worker once this
   * process is gone (every handler is idempotent). Queues stay usable, so requests still draining
   * can add jobs.
   */
  async stopWorkers(deadline: number): Promise<void> {
    const workers = this.workers.splice(0);
    let timer: NodeJS.Timeout | undefined;
    const graceful = Promise.all(workers.map((w) => w.close())).then(() => true);
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), Math.max(0, deadline - systemClock.now()));
    });
    const finished = await Promise.race([graceful, timedOut]);
    clearTimeout(timer);
    if (!finished) this.logger.warn('jobs still running at the shutdown deadline; left to another worker');
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    await this.backend.close();
  }
}
